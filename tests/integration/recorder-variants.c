/* A small variant table for the recorder's own tests and benchmark (the library has the generated one):
 * one variant of each payload family, and both per-thread-stream flags, lent to the recorder as its client
 * (recorder/variants.h) before main.  No GPU time: these programs have no driver. */
#include "config.h"

#include "recorder/recorder.h"
#include "recorder_variants.h"

const struct ct_variant ct_variants[] = {
    {"cuInit", "cuInit", 2000, 0, CT_FAM_NONE},
    {"cuMemAlloc", "cuMemAlloc_v2", 3020, 0, CT_FAM_ALLOC},
    {"cuMemFree", "cuMemFree_v2", 3020, 0, CT_FAM_FREE},
    {"cuLaunchKernel", "cuLaunchKernel_ptsz", 7000, CT_VARIANT_PTSZ, CT_FAM_LAUNCH},
    {"cuMemcpyHtoD", "cuMemcpyHtoD_v2_ptds", 7000, CT_VARIANT_PTDS, CT_FAM_COPY},
};
const unsigned ct_variant_count = sizeof ct_variants / sizeof ct_variants[0];

/* CUDATRACE_APIS (recorder/apis.h): no variant is excluded here. */
static uint8_t api_skip[sizeof ct_variants / sizeof ct_variants[0]];
static _Atomic uint64_t api_counted[sizeof ct_variants / sizeof ct_variants[0]];

static const struct ct_rec_client client = {
    .variants = ct_variants,
    .nvariants = sizeof ct_variants / sizeof ct_variants[0],
    .api_skip = api_skip,
    .api_counted = api_counted,
};

__attribute__((constructor)) static void attach(void) { ct_rec_attach(&client); }
