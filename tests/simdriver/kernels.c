/* The kernels the simulated driver can run, written in C. A PTX entry is bound to the first kernel whose
 * pattern occurs in its name (case-insensitively, so plain and C++-mangled names both match) and whose
 * parameter sizes are the entry's. An entry that matches none loads and launches as a no-op. */
#include "config.h"

#include "sim.h"

#include <ctype.h>
#include <string.h>

/* Threads along x of a launch: the kernels below are one-dimensional, like the samples that use them. */
static size_t threads_x(const struct sim_launch *l)
{
    return (size_t)l->grid.x * l->block.x;
}

#define ARG(type, i) (*(type const *)args[i])

static void empty(const struct sim_launch *l, void *const *args)
{
    (void)l;
    (void)args;
}

/* spin(unsigned long long ns): does nothing for ns nanoseconds of device time (its duration) */
static void spin(const struct sim_launch *l, void *const *args)
{
    (void)l;
    (void)args;
}

static uint64_t spin_duration(void *const *args)
{
    return ARG(unsigned long long, 0);
}

/* c[i] = a[i] + b[i] for i < n */
static void vector_add(const struct sim_launch *l, void *const *args)
{
    const float *a = ARG(const float *, 0), *b = ARG(const float *, 1);
    float *c = ARG(float *, 2);
    int n = ARG(int, 3);
    for (size_t i = 0; i < threads_x(l) && i < (size_t)(n > 0 ? n : 0); i++)
        c[i] = a[i] + b[i];
}

/* c[i] = (k.x * a[i] + k.y * b[i] + k.z) * k.w for i < n, k a float4 passed by value (16-byte aligned) */
static void vector_add_scaled(const struct sim_launch *l, void *const *args)
{
    const float *a = ARG(const float *, 0), *b = ARG(const float *, 1);
    float *c = ARG(float *, 2);
    int n = ARG(int, 3);
    float k[4];
    memcpy(k, args[4], sizeof k);
    for (size_t i = 0; i < threads_x(l) && i < (size_t)(n > 0 ? n : 0); i++)
        c[i] = (k[0] * a[i] + k[1] * b[i] + k[2]) * k[3];
}

static const struct sim_kernel kernels[] = {
    {"empty", 0, {0}, empty, NULL},
    {"spin", 1, {8}, spin, spin_duration},
    {"vectoradd|vecadd", 4, {8, 8, 8, 4}, vector_add, NULL},
    {"vectoradd|vecadd", 5, {8, 8, 8, 4, 16}, vector_add_scaled, NULL},
};

static bool contains_ci(const char *name, const char *pattern, size_t plen)
{
    for (const char *p = name; *p; p++) {
        size_t i = 0;
        while (i < plen && p[i] && tolower((unsigned char)p[i]) == pattern[i])
            i++;
        if (i == plen)
            return true;
    }
    return false;
}

/* Patterns are lower case, alternatives separated by '|'. */
static bool name_matches(const char *name, const char *patterns)
{
    for (const char *p = patterns; *p;) {
        size_t len = strcspn(p, "|");
        if (contains_ci(name, p, len))
            return true;
        p += len + (p[len] == '|');
    }
    return false;
}

const struct sim_kernel *sim_kernel_find(const struct sim_entry *entry)
{
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
        const struct sim_kernel *kn = &kernels[k];
        if (kn->nparams != entry->nparams || !name_matches(entry->name, kn->match))
            continue;
        unsigned int i = 0;
        while (i < kn->nparams && kn->sizes[i] == entry->params[i].size)
            i++;
        if (i == kn->nparams)
            return kn;
    }
    return NULL;
}
