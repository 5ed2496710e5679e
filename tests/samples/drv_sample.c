/* Helpers shared by the driver-API samples (see drv_sample.h). */
#include "config.h"

#include "drv_sample.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void sample_check(CUresult result, const char *call, const char *file, int line)
{
    if (result == CUDA_SUCCESS)
        return;
    const char *name = NULL, *text = NULL;
    cuGetErrorName(result, &name);
    cuGetErrorString(result, &text);
    fprintf(stderr, "%s:%d: %s returned %d (%s: %s)\n", file, line, call, (int)result, name ? name : "?",
            text ? text : "?");
    exit(1);
}

void sample_require(int ok, const char *what)
{
    if (ok)
        return;
    fprintf(stderr, "FAILED: %s\n", what);
    exit(1);
}

const char *sample_ptx_dir(int argc, char **argv)
{
    static char dir[PATH_MAX];
    if (argc > 1)
        return argv[1];
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
    sample_require(n > 0, "cannot find the executable's directory: pass the PTX directory as argument");
    dir[n] = '\0';
    return dirname(dir);
}

char *sample_path(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    sample_require(p != NULL, "out of memory");
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

char *sample_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "FAILED: cannot open %s\n", path);
        exit(1);
    }
    sample_require(fseek(f, 0, SEEK_END) == 0, "cannot seek a PTX file");
    long size = ftell(f);
    sample_require(size >= 0 && fseek(f, 0, SEEK_SET) == 0, "cannot size a PTX file");
    char *text = malloc((size_t)size + 1);
    sample_require(text != NULL, "out of memory");
    sample_require(fread(text, 1, (size_t)size, f) == (size_t)size, "cannot read a PTX file");
    fclose(f);
    text[size] = '\0';
    *len = (size_t)size;
    return text;
}

void sample_primary_context(CUdevice *dev, CUcontext *ctx)
{
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(dev, 0));
    CHECK(cuDevicePrimaryCtxRetain(ctx, *dev));
    CHECK(cuCtxSetCurrent(*ctx));
}

void sample_empty_kernel_load(struct sample_empty_kernel *k)
{
    static const char ptx[] = ".version 8.0\n.target sm_75\n.address_size 64\n"
                              ".visible .entry emptyKernel()\n{\n\tret;\n}\n";

    sample_primary_context(&k->dev, &k->ctx);
    CHECK(cuModuleLoadData(&k->mod, ptx));
    CHECK(cuModuleGetFunction(&k->fn, k->mod, "emptyKernel"));
}

void sample_empty_kernel_done(struct sample_empty_kernel *k)
{
    CHECK(cuModuleUnload(k->mod));
    CHECK(cuDevicePrimaryCtxRelease(k->dev));
}
