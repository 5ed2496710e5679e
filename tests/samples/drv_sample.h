/* Helpers shared by the driver-API samples: error checks that name the failing call, and finding and reading
 * the PTX files that ship next to the binaries. */
#ifndef SAMPLES_DRV_SAMPLE_H
#define SAMPLES_DRV_SAMPLE_H

#include <cuda.h>
#include <stddef.h>

/* Exits with status 1 and a message on stderr when `call` does not return CUDA_SUCCESS. */
#define CHECK(call) sample_check((call), #call, __FILE__, __LINE__)
void sample_check(CUresult result, const char *call, const char *file, int line);

/* Exits with status 1 and the message on stderr unless `ok`. */
void sample_require(int ok, const char *what);

/* The directory holding the sample's PTX files: argv[1] when given, else the executable's directory. */
const char *sample_ptx_dir(int argc, char **argv);

/* dir/name, to free. */
char *sample_path(const char *dir, const char *name);

/* The whole file, NUL-terminated (*len excludes the NUL), to free; exits on failure. */
char *sample_read_file(const char *path, size_t *len);

/* cuInit, device 0 and its primary context, made current.  Exits on failure. */
void sample_primary_context(CUdevice *dev, CUcontext *ctx);

/* The benchmarks' set-up: device 0's primary context made current and an empty kernel `emptyKernel()`
 * loaded from PTX (compiled for whatever GPU is there).  Exits on failure.  sample_empty_kernel_done undoes it. */
struct sample_empty_kernel {
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction fn;
};
void sample_empty_kernel_load(struct sample_empty_kernel *k);
void sample_empty_kernel_done(struct sample_empty_kernel *k);

#endif
