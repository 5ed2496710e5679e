/* A small variant table for the recorder's own tests and benchmark (the library has the generated one):
 * one variant of each payload family, and both per-thread-stream flags. */
#include "config.h"

#include "recorder/apis.h"
#include "recorder/recorder.h"

const struct ct_variant ct_variants[] = {
    {"cuInit", "cuInit", 2000, 0, CT_FAM_NONE},
    {"cuMemAlloc", "cuMemAlloc_v2", 3020, 0, CT_FAM_ALLOC},
    {"cuMemFree", "cuMemFree_v2", 3020, 0, CT_FAM_FREE},
    {"cuLaunchKernel", "cuLaunchKernel_ptsz", 7000, CT_VARIANT_PTSZ, CT_FAM_LAUNCH},
    {"cuMemcpyHtoD", "cuMemcpyHtoD_v2_ptds", 7000, CT_VARIANT_PTDS, CT_FAM_COPY},
};
const unsigned ct_variant_count = sizeof ct_variants / sizeof ct_variants[0];

/* CUDATRACE_APIS (recorder/apis.h): no variant is excluded here. */
uint8_t ct_api_skip[sizeof ct_variants / sizeof ct_variants[0]];
_Atomic uint64_t ct_api_counted[sizeof ct_variants / sizeof ct_variants[0]];
