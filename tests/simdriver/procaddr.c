/* cuGetProcAddress and cuGetProcAddress_v2 with the driver's semantics, over the table of entry_points.h:
 * the newest variant introduced at or before the requested CUDA version; the per-thread default-stream form
 * when flag CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM asks for it. */
#include "config.h"

#include "sim.h"

#include <string.h>

typedef void (*sim_fn)(void);

struct entry {
    const char *name;
    int version;
    bool per_thread;
    sim_fn fn;
};

/* An exported variant whose type is not its PFN typedef would corrupt its callers' arguments. */
#define SIM_ENTRY(name, ver, sym)                                                                  \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&sym), PFN_##name##_v##ver),           \
                   #sym " does not have the type PFN_" #name "_v" #ver);
#define SIM_ENTRY_PT(name, ver, pt, sym)                                                           \
    _Static_assert(__builtin_types_compatible_p(__typeof__(&sym), PFN_##name##_v##ver##_##pt),    \
                   #sym " does not have the type PFN_" #name "_v" #ver "_" #pt);
#include "entry_points.h"
#undef SIM_ENTRY
#undef SIM_ENTRY_PT

#define SIM_ENTRY(name, ver, sym) {#name, ver, false, (sim_fn)sym},
#define SIM_ENTRY_PT(name, ver, pt, sym) {#name, ver, true, (sim_fn)sym},
static const struct entry entries[] = {
#include "entry_points.h"
};
#undef SIM_ENTRY
#undef SIM_ENTRY_PT

/* Measured on driver 580 (CUDA 13.0): a version above the driver's, or unknown flags, is INVALID_VALUE with the
 * outputs untouched; a negative version means the newest variant. The 5-argument form reports a miss as
 * CUDA_SUCCESS with *pfn = NULL and the reason in *symbolStatus; the 4-argument form (11.3 ABI) as
 * CUDA_ERROR_NOT_FOUND, *pfn untouched. With the per-thread flag, a function that has per-thread variants is
 * answered only from those (a version before the first is not sufficient); one that has none, from the
 * default variants. (The real driver crashes on a NULL symbol or pfn; this one says INVALID_VALUE.) */
static CUresult lookup(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags, bool with_status,
                       CUdriverProcAddressQueryResult *symbolStatus)
{
    const cuuint64_t known_flags = CU_GET_PROC_ADDRESS_LEGACY_STREAM | CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
    if (!symbol || !pfn || cudaVersion > SIM_DRIVER_VERSION || (flags & ~known_flags))
        return CUDA_ERROR_INVALID_VALUE;
    int version = cudaVersion < 0 ? SIM_DRIVER_VERSION : cudaVersion;
    const struct entry *best = NULL, *best_pt = NULL;
    bool known = false, has_pt = false;
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        const struct entry *e = &entries[i];
        if (strcmp(e->name, symbol) != 0)
            continue;
        known = true;
        has_pt |= e->per_thread;
        if (e->version > version)
            continue;
        const struct entry **slot = e->per_thread ? &best_pt : &best;
        if (!*slot || e->version > (*slot)->version)
            *slot = e;
    }
    if ((flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) && has_pt)
        best = best_pt;
    CUdriverProcAddressQueryResult status = best    ? CU_GET_PROC_ADDRESS_SUCCESS
                                            : known ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
                                                    : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    if (!with_status && !best)
        return CUDA_ERROR_NOT_FOUND;
    *pfn = best ? (void *)best->fn : NULL;
    if (symbolStatus)
        *symbolStatus = status;
    return CUDA_SUCCESS;
}

CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags)
{
    return lookup(symbol, pfn, cudaVersion, flags, false, NULL);
}

CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion, cuuint64_t flags,
                             CUdriverProcAddressQueryResult *symbolStatus)
{
    return lookup(symbol, pfn, cudaVersion, flags, true, symbolStatus);
}
