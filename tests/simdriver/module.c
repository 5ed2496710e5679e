/* Modules and functions: a module is loaded from PTX text (a file, memory, or the linker's output); each
 * `.entry` becomes a function bound to the C kernel of its name (kernels.c). Real cubins and fatbins are not
 * simulated. */
#include "config.h"

#include "sim.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIM_LOG_MAX 4096

/* A real driver hands out the memory of unloaded modules again, so a new kernel can get an old kernel's
 * CUfunction handle; the tracer must not take one for the other.  The simulation does the same on purpose:
 * the function array of the last unloaded module is kept and given to the next module with as many
 * entries. */
static struct CUfunc_st *kept_functions;
static unsigned kept_count;
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

static struct CUfunc_st *reused_functions(unsigned n)
{
    pthread_mutex_lock(&kept_lock);
    struct CUfunc_st *f = kept_count == n ? kept_functions : NULL;
    if (f)
        kept_functions = NULL;
    pthread_mutex_unlock(&kept_lock);
    if (f)
        memset(f, 0, n * sizeof *f);
    return f ? f : calloc(n, sizeof *f);
}

static void keep_functions(struct CUfunc_st *f, unsigned n)
{
    pthread_mutex_lock(&kept_lock);
    struct CUfunc_st *old = kept_functions;
    kept_functions = f;
    kept_count = n;
    pthread_mutex_unlock(&kept_lock);
    free(old);
}

CUresult sim_module_load(CUmodule *module, const void *image, size_t len, char *err, size_t errlen)
{
    CUcontext ctx;
    CUresult r = sim_ctx_require(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    if (!module || !image)
        return CUDA_ERROR_INVALID_VALUE;
    const unsigned char *bytes = image;
    if (len >= 4 && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' && bytes[3] == 'F') {
        snprintf(err, errlen, "cudatrace simdriver: ELF cubins are not simulated, load PTX");
        return CUDA_ERROR_INVALID_IMAGE;
    }
    struct CUmod_st *m = calloc(1, sizeof *m);
    if (!m)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if ((r = sim_ptx_parse(image, len, &m->ptx, err, errlen)) != CUDA_SUCCESS) {
        free(m);
        return r;
    }
    m->functions = reused_functions(m->ptx.nentries ? m->ptx.nentries : 1);
    if (!m->functions) {
        sim_ptx_free(&m->ptx);
        free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    m->ctx = ctx;
    sim_obj_register(&m->obj, SIM_MODULE);
    for (unsigned int i = 0; i < m->ptx.nentries; i++) {
        struct CUfunc_st *f = &m->functions[i];
        f->module = m;
        f->entry = &m->ptx.entries[i];
        f->kernel = sim_kernel_find(f->entry);
        sim_obj_register(&f->obj, SIM_FUNC);
    }
    *module = m;
    return CUDA_SUCCESS;
}

CUresult sim_read_file(const char *path, char **out, size_t *len)
{
    if (!path)
        return CUDA_ERROR_INVALID_VALUE;
    FILE *f = fopen(path, "rb");
    if (!f)
        return CUDA_ERROR_FILE_NOT_FOUND;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (cap - n < 4096) {
            char *grown = realloc(buf, cap + 65536);
            if (!grown) {
                free(buf);
                fclose(f);
                return CUDA_ERROR_OUT_OF_MEMORY;
            }
            buf = grown;
            cap += 65536;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    bool failed = ferror(f);
    fclose(f);
    if (failed) {
        free(buf);
        return CUDA_ERROR_FILE_NOT_FOUND;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return CUDA_SUCCESS;
}

CUresult cuModuleLoad(CUmodule *module, const char *fname)
{
    SIM_REQUIRE_INIT();
    char *text;
    size_t len;
    CUresult r = sim_read_file(fname, &text, &len);
    if (r != CUDA_SUCCESS)
        return r;
    r = sim_module_load(module, text, len, NULL, 0);
    free(text);
    return r;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image)
{
    return sim_module_load(module, image, SIZE_MAX, NULL, 0);
}

/* With CU_JIT_LOG_VERBOSE the info log says which entries were compiled; otherwise it stays empty, as the
 * driver's does. */
CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options,
                            void **optionValues)
{
    struct sim_jit_options o;
    uint64_t t0 = sim_now_ns();
    CUresult r = sim_jit_options_parse(&o, numOptions, options, optionValues);
    if (r != CUDA_SUCCESS)
        return r;
    char error[256] = "";
    r = sim_module_load(module, image, SIZE_MAX, error, sizeof error);
    char info[SIM_LOG_MAX] = "";
    if (r == CUDA_SUCCESS && o.verbose) {
        size_t used = 0;
        for (unsigned int i = 0; i < (*module)->ptx.nentries && used < sizeof info; i++)
            used += (size_t)snprintf(info + used, sizeof info - used, "info    : Compiling entry function '%s' for 'sm_90'\n",
                                     (*module)->ptx.entries[i].name);
    }
    sim_jit_options_finish(&o, info, error, (float)((double)(sim_now_ns() - t0) / 1e6));
    return r;
}

CUresult cuModuleUnload(CUmodule hmod)
{
    SIM_REQUIRE_INIT();
    if (!hmod || !sim_obj_unregister(&hmod->obj, SIM_MODULE))
        return CUDA_ERROR_INVALID_HANDLE;
    for (unsigned int i = 0; i < hmod->ptx.nentries; i++)
        sim_obj_unregister(&hmod->functions[i].obj, SIM_FUNC);
    keep_functions(hmod->functions, hmod->ptx.nentries ? hmod->ptx.nentries : 1);
    sim_ptx_free(&hmod->ptx);
    free(hmod);
    return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
    SIM_REQUIRE_INIT();
    if (!hfunc || !name)
        return CUDA_ERROR_INVALID_VALUE;
    if (!sim_obj_live(hmod, SIM_MODULE))
        return CUDA_ERROR_INVALID_HANDLE;
    for (unsigned int i = 0; i < hmod->ptx.nentries; i++) {
        if (strcmp(hmod->ptx.entries[i].name, name) == 0) {
            *hfunc = &hmod->functions[i];
            return CUDA_SUCCESS;
        }
    }
    return CUDA_ERROR_NOT_FOUND;
}

CUresult cuFuncGetName(const char **name, CUfunction hfunc)
{
    SIM_COUNT();
    SIM_REQUIRE_INIT();
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    if (!sim_obj_live(hfunc, SIM_FUNC))
        return CUDA_ERROR_INVALID_HANDLE;
    *name = hfunc->entry->name;
    return CUDA_SUCCESS;
}

CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset, size_t *paramSize)
{
    SIM_REQUIRE_INIT();
    if (!sim_obj_live(func, SIM_FUNC))
        return CUDA_ERROR_INVALID_HANDLE;
    if (paramIndex >= func->entry->nparams)
        return CUDA_ERROR_INVALID_VALUE;
    if (paramOffset)
        *paramOffset = func->entry->params[paramIndex].offset;
    if (paramSize)
        *paramSize = func->entry->params[paramIndex].size;
    return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc)
{
    SIM_REQUIRE_INIT();
    if (!pi || attrib < 0 || attrib >= CU_FUNC_ATTRIBUTE_MAX)
        return CUDA_ERROR_INVALID_VALUE;
    if (!sim_obj_live(hfunc, SIM_FUNC))
        return CUDA_ERROR_INVALID_HANDLE;
    switch (attrib) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *pi = 1024; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = 16; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: *pi = 90; break;
    case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = 90; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *pi = 48 * 1024; break;
    default: *pi = 0; break;
    }
    return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)
{
    SIM_REQUIRE_INIT();
    if (attrib < 0 || attrib >= CU_FUNC_ATTRIBUTE_MAX)
        return CUDA_ERROR_INVALID_VALUE;
    return sim_obj_live(hfunc, SIM_FUNC) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config)
{
    SIM_REQUIRE_INIT();
    if (config < CU_FUNC_CACHE_PREFER_NONE || config > CU_FUNC_CACHE_PREFER_EQUAL)
        return CUDA_ERROR_INVALID_VALUE;
    return sim_obj_live(hfunc, SIM_FUNC) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}
