/* The process's place in a parallel job (rank.h): read from the variables launchers set, in one place. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format/record.h"
#include "recorder/rank.h"

/* A non-negative decimal below 2^31, or -1. */
static int32_t env_int(const char *name)
{
    const char *v = getenv(name);
    char *end;
    long n;

    if (!v || *v < '0' || *v > '9')
        return -1;
    errno = 0;
    n = strtol(v, &end, 10);
    return errno || *end || n > INT32_MAX ? -1 : (int32_t)n;
}

/* The first of `names` that holds a number (its index in *which), or -1. */
static int32_t first_of(const char *const *names, size_t n, size_t *which)
{
    for (size_t i = 0; i < n; i++) {
        int32_t v = env_int(names[i]);
        if (v >= 0) {
            if (which)
                *which = i;
            return v;
        }
    }
    return -1;
}

void ct_rank_record(struct ct_rec_rank *r)
{
    /* In the order of enum ct_rank_source; torchrun's first, as it also runs under Slurm and MPI launchers. */
    static const char *const rank[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"};
    static const char *const local[] = {"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                                        "SLURM_LOCALID"};
    static const char *const size[] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"};
    size_t which = 0;

    memset(r, 0, sizeof *r);
    ct_put_hdr(&r->h, CT_REC_RANK, sizeof *r, 0);
    r->rank = first_of(rank, sizeof rank / sizeof rank[0], &which);
    r->source = r->rank < 0 ? CT_RANK_NONE : CT_RANK_RANK + (uint32_t)which;
    r->local_rank = first_of(local, sizeof local / sizeof local[0], NULL);
    r->world_size = first_of(size, sizeof size / sizeof size[0], NULL);
}
