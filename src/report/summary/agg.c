#include "config.h"

#include "report/summary/agg.h"

#include <stdlib.h>
#include <string.h>

#include "report/summary/gpu_tables.h"

void rp_agg_free(struct rp_agg *a)
{
    for (size_t i = 0; i < a->napi; i++) {
        rp_named_stats_free(&a->api[i]);
    }
    for (size_t i = 0; i < a->nkern; i++) {
        rp_named_stats_free(&a->kern[i].ns);
        rp_shape_set_free(&a->kern[i].shapes);
    }
    for (size_t i = 0; i < a->ncopy; i++) {
        rp_named_stats_free(&a->copy[i].ns);
        rp_stats_free(&a->copy[i].bytes);
    }
    rp_agg_compact(a); /* the lookups and the per-file rows */
    free(a->api);
    free(a->kern);
    free(a->copy);
    free(a->err);
    rp_memtrack_free(&a->mem);
    rp_gpu_agg_free(a->gpu);
    memset(a, 0, sizeof *a);
}

void rp_agg_compact(struct rp_agg *a)
{
    for (size_t i = 0; a->api_of_file && i < a->nfiles; i++)
        free(a->api_of_file[i].row);
    free(a->api_of_file);
    a->api_of_file = NULL;
    a->nfiles = 0;
    rp_strmap_free(&a->api_by_name);
    rp_strmap_free(&a->kern_by_name);
    rp_strmap_free(&a->copy_by_op);
    rp_u64map_free(&a->kern_of_file);
    rp_kernel_names_free(&a->knames);
    rp_u64map_free(&a->err_of);
    memset(&a->api_by_name, 0, sizeof a->api_by_name);
    memset(&a->kern_by_name, 0, sizeof a->kern_by_name);
    memset(&a->copy_by_op, 0, sizeof a->copy_by_op);
    memset(&a->kern_of_file, 0, sizeof a->kern_of_file);
    memset(&a->knames, 0, sizeof a->knames);
    memset(&a->err_of, 0, sizeof a->err_of);
    rp_u64map_free(&a->mem.live);
    memset(&a->mem.live, 0, sizeof a->mem.live);
    if (a->gpu)
        rp_gpu_agg_compact(a->gpu);
}
