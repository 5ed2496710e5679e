/* Finding libcupti at run time (cupti.h).  Callers hold the tracer's guard: look-ups made here reach glibc's
 * dlsym, not the interposition layer's answers. */
#define _GNU_SOURCE
#include "config.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gputime/cupti.h"

/* The CUPTI whose headers this tracer was built with: its activity records have the layout those headers
 * give, and a libcupti of another major version is not used.  Its SONAME follows the toolkit's major
 * version (libcupti.so.13 for CUDA 13), as its API version does since CUDA 13 (130001). */
#define CUDA_MAJOR (CUDA_VERSION / 1000)
#define CUPTI_MAJOR (CUPTI_API_VERSION / 10000)
_Static_assert(CUPTI_MAJOR == CUDA_MAJOR, "CUPTI's API version no longer follows the toolkit's");

/* "libcupti.so.13" for major 13. */
struct soname {
    char s[24];
};
static struct soname soname_of(int major)
{
    struct soname n;
    snprintf(n.s, sizeof n.s, "libcupti.so.%d", major);
    return n;
}

static int basename_is_cupti(const char *path)
{
    const char *b = strrchr(path, '/');
    return strncmp(b ? b + 1 : path, "libcupti", 8) == 0;
}

int ct_in_cupti(const void *addr)
{
    Dl_info info;
    return addr && dladdr(addr, &info) && info.dli_fname && basename_is_cupti(info.dli_fname);
}

/* The directory of the first loaded object whose base name starts with `prefix`. */
struct find_dir {
    const char *prefix;
    char dir[PATH_MAX];
};

static int find_dir_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    struct find_dir *f = data;
    const char *b = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;
    (void)size;
    if (!b || strncmp(b + 1, f->prefix, strlen(f->prefix)) != 0 || (size_t)(b - info->dlpi_name) >= sizeof f->dir)
        return 0;
    memcpy(f->dir, info->dlpi_name, (size_t)(b - info->dlpi_name));
    f->dir[b - info->dlpi_name] = '\0';
    return 1;
}

static void *try_open(const char *path, char *found, size_t size)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h)
        snprintf(found, size, "%s", path);
    return h;
}

/* Where the CUDA runtime's package or the driver keeps it, where the loader finds it, or a toolkit's. */
static void *search(char *found, size_t size)
{
    char p[PATH_MAX];
    const struct soname so = soname_of(CUDA_MAJOR);
    const char *home = getenv("CUDA_HOME"), *soname = so.s;
    void *h;

    /* Beside the CUDA runtime (a pip wheel's nvidia/cu13/lib, or nvidia/cuda_runtime/lib beside
     * nvidia/cuda_cupti/lib; a toolkit's lib64), then beside the driver. */
    static const char *const near[] = {"libcudart.so", "libcuda.so"};
    for (size_t n = 0; n < sizeof near / sizeof near[0]; n++) {
        struct find_dir d = {.prefix = near[n]};
        if (!dl_iterate_phdr(find_dir_cb, &d))
            continue;
        static const char *const rel[] = {"", "/../../cuda_cupti/lib", "/../extras/CUPTI/lib64"};
        for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
            if ((size_t)snprintf(p, sizeof p, "%s%s/%s", d.dir, rel[i], soname) < sizeof p &&
                (h = try_open(p, found, size)))
                return h;
        }
    }
    /* The loader's own paths (LD_LIBRARY_PATH, ld.so.conf), then a toolkit's. */
    if ((h = try_open(soname, found, size)))
        return h;
    static const char *const under[] = {"/lib64", "/extras/CUPTI/lib64", "/targets/x86_64-linux/lib", "/lib"};
    const char *roots[] = {home && *home == '/' ? home : NULL, "/usr/local/cuda"};
    for (size_t r = 0; r < sizeof roots / sizeof roots[0]; r++)
        for (size_t i = 0; roots[r] && i < sizeof under / sizeof under[0]; i++)
            if ((size_t)snprintf(p, sizeof p, "%s%s/%s", roots[r], under[i], soname) < sizeof p &&
                (h = try_open(p, found, size)))
                return h;
    return NULL;
}

/* The program's own libcupti, already loaded: no second copy of CUPTI may run beside it. */
static void *loaded(char *found, size_t size, char *why, size_t wsize)
{
    struct soname ours = soname_of(CUDA_MAJOR);
    void *h = dlopen(ours.s, RTLD_NOW | RTLD_NOLOAD);
    if (h) {
        struct link_map *lm = NULL;
        snprintf(found, size, "%s", dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm && lm->l_name ? lm->l_name : ours.s);
        return h;
    }
    for (int major = 10; major < 20; major++) {
        struct soname other = soname_of(major);
        if (major != CUDA_MAJOR && (h = dlopen(other.s, RTLD_NOW | RTLD_NOLOAD)) != NULL) {
            dlclose(h);
            snprintf(why, wsize, "the program has loaded %s, not the %s this tracer reads", other.s, ours.s);
            return (void *)-1;
        }
    }
    return NULL;
}

#define FN(field, name) ((c->field = (__typeof__(c->field))dlsym(c->handle, name)) != NULL)

int ct_cupti_load(struct ct_cupti *c, const char *path, char *why, size_t size)
{
    uint32_t version = 0;

    memset(c, 0, sizeof *c);
    if (path && *path) {
        if (!(c->handle = try_open(path, c->path, sizeof c->path))) {
            const char *e = dlerror();
            snprintf(why, size, "CUDATRACE_CUPTI=%s does not load: %s", path, e ? e : "?");
            return -1;
        }
    } else if ((c->handle = loaded(c->path, sizeof c->path, why, size)) == (void *)-1) {
        c->handle = NULL;
        return -1;
    } else if (!c->handle && !(c->handle = search(c->path, sizeof c->path))) {
        snprintf(why, size, "no %s was found (CUDATRACE_CUPTI names one)", soname_of(CUDA_MAJOR).s);
        return -1;
    }
    if (!(FN(get_version, "cuptiGetVersion") && FN(subscribe, "cuptiSubscribe") &&
          FN(unsubscribe, "cuptiUnsubscribe") && FN(enable_callback, "cuptiEnableCallback") &&
          FN(callback_name, "cuptiGetCallbackName") && FN(register_callbacks, "cuptiActivityRegisterCallbacks") &&
          FN(enable, "cuptiActivityEnable") && FN(disable, "cuptiActivityDisable") &&
          FN(flush_all, "cuptiActivityFlushAll") && FN(next_record, "cuptiActivityGetNextRecord") &&
          FN(dropped, "cuptiActivityGetNumDroppedRecords") && FN(timestamp, "cuptiGetTimestamp") &&
          FN(result_string, "cuptiGetResultString"))) {
        snprintf(why, size, "%s lacks a function the tracer needs", c->path);
        return -1;
    }
    c->set_attribute = (__typeof__(c->set_attribute))dlsym(c->handle, "cuptiActivitySetAttribute");
    if (c->get_version(&version) != CUPTI_SUCCESS || version / 10000 != CUPTI_MAJOR) {
        snprintf(why, size, "%s is CUPTI %u, not the %d.x this tracer reads", c->path, version, CUPTI_MAJOR);
        return -1;
    }
    return 0;
}

const char *ct_cupti_error(const struct ct_cupti *c, CUptiResult r)
{
    static __thread char buf[32];
    const char *s = NULL;
    if (c->result_string && c->result_string(r, &s) == CUPTI_SUCCESS && s)
        return s;
    snprintf(buf, sizeof buf, "CUPTI error %d", (int)r);
    return buf;
}

void *ct_cupti_function(const char *name)
{
    void *h = dlopen(soname_of(CUDA_MAJOR).s, RTLD_NOW | RTLD_NOLOAD);
    char found[PATH_MAX];
    if (!h && !(h = search(found, sizeof found)))
        return NULL;
    return dlsym(h, name); /* the handle stays open: the program's calls keep using it */
}
