/* What the interposition layer lends the layers below it, once, before its first call into them (capture.c
 * starts here): the recorder gets the variant table, CUDATRACE_APIS's per-variant bytes and counts, and GPU
 * time's entry points (recorder/variants.h, struct ct_rec_client); GPU time gets the driver's functions and
 * the exit and fork handlers (gputime/gputime.h, struct ct_gpu_host).  So neither names anything of this
 * layer's (scripts/check-layers checks it from the objects). */
#include "config.h"

#include "gputime/gputime.h"
#include "preload/interpose.h"
#include "recorder/recorder.h"

extern const struct ct_gpu_host ct_gpu_host; /* gpu_hooks.c */

static const struct ct_rec_client client = {
    .variants = ct_variants,
    .nvariants = CT_API_COUNT,
    .api_skip = ct_api_skip,
    .api_counted = ct_api_counted,
    .gpu_start = ct_gpu_timing_start,
    .gpu_collect = ct_gpu_collect,
    .gpu_pending = ct_gpu_pending,
};

void ct_attach(void)
{
    ct_gpu_attach(&ct_gpu_host);
    ct_rec_attach(&client);
}
