/* CUDATRACE_APIS (apis.h): the per-variant table, and the counts written to the trace. */
#include "config.h"

#include <fnmatch.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "format/record.h"
#include "recorder/apis.h"
#include "recorder/settings.h"
#include "recorder/tracefile.h"
#include "recorder/variants.h"
#include "recorder/warn.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int any;            /* some variant is excluded */
static uint16_t *excluded; /* their ids ... */
static uint64_t *written;  /* ... and the count last written for each (drain holder only) */
static unsigned nexcluded;

/* A pattern names a function (cuCtxGetDevice: all its variants, _v2, _ptsz, _ptds) or, to pick one, a
 * variant's exported symbol (cuCtxGetDevice_v2). */
static int matches(const char *pattern, const struct ct_variant *v)
{
    return fnmatch(pattern, v->name, 0) == 0 || fnmatch(pattern, v->symbol, 0) == 0;
}

/* The value as a table: 0 or -1 (a glob that matches nothing: warned). */
static int decide(const struct ct_rec_client *c, const struct ct_apis_spec *spec, const char *value, uint8_t *skip)
{
    /* A list that starts with an include records only what it includes; one that starts with an exclude
     * records everything else.  Later entries win (as in rsync filters and .gitignore). */
    const int start_excluded = spec->n > 0 && !spec->e[0].exclude;
    unsigned hits[CT_APIS_MAX] = {0};

    for (unsigned id = 0; id < c->nvariants; id++) {
        int ex = start_excluded;
        for (unsigned i = 0; i < spec->n; i++)
            if (matches(spec->e[i].pattern, &c->variants[id])) {
                ex = spec->e[i].exclude;
                hits[i]++;
            }
        skip[id] = (uint8_t)ex;
    }
    for (unsigned i = 0; i < spec->n; i++)
        if (!hits[i]) {
            ct_warn("CUDATRACE_APIS=\"%.64s\": %s matches no driver function; every call is recorded", value,
                    spec->e[i].pattern);
            return -1;
        }
    return 0;
}

static void load(void)
{
    const char *value = getenv("CUDATRACE_APIS");
    const struct ct_rec_client *c = atomic_load(&ct_rec_client);
    struct ct_apis_spec *spec;
    uint8_t *skip;

    if (!value || !*value || !c)
        return;
    if (!(spec = malloc(sizeof *spec)) || !(skip = calloc(c->nvariants, 1))) {
        free(spec);
        ct_warn("CUDATRACE_APIS: out of memory; every call is recorded");
        return;
    }
    if (ct_parse_apis(value, spec) != 0)
        ct_warn("CUDATRACE_APIS=\"%.64s\" is not a comma-separated list of function names or globs, each "
                "with an optional leading '-'; every call is recorded", value);
    else if (decide(c, spec, value, skip) == 0) {
        for (unsigned id = 0; id < c->nvariants; id++)
            nexcluded += skip[id];
        excluded = calloc(nexcluded ? nexcluded : 1, sizeof *excluded);
        written = calloc(nexcluded ? nexcluded : 1, sizeof *written);
        if (!excluded || !written) {
            ct_warn("CUDATRACE_APIS: out of memory; every call is recorded");
            nexcluded = 0;
        }
        int memory = 0;
        for (unsigned id = 0, k = 0; id < c->nvariants && nexcluded; id++)
            if (skip[id]) {
                excluded[k++] = (uint16_t)id;
                c->api_skip[id] = 1;
                memory |= c->variants[id].family == CT_FAM_ALLOC || c->variants[id].family == CT_FAM_FREE;
            }
        any = nexcluded > 0;
        /* Asked for by name (an include-only list leaves them out knowingly): say what it costs. */
        if (memory && spec->e[0].exclude)
            ct_warn("CUDATRACE_APIS=\"%.64s\" excludes allocations or frees: the memory report will miss them",
                    value);
    }
    free(spec);
    free(skip);
}

int ct_apis_init(void)
{
    pthread_once(&once, load);
    return any;
}

void ct_apis_write(void)
{
    const struct ct_rec_client *c = atomic_load(&ct_rec_client);
    for (unsigned i = 0; i < nexcluded; i++) {
        const uint64_t n = atomic_load_explicit(&c->api_counted[excluded[i]], memory_order_relaxed);
        if (n == written[i])
            continue;
        struct ct_rec_counted rec;
        memset(&rec, 0, sizeof rec);
        ct_put_hdr(&rec.h, CT_REC_COUNTED, sizeof rec, 0);
        rec.api_id = excluded[i];
        rec.count = n;
        ct_tf_append(&(struct iovec){&rec, sizeof rec}, 1);
        written[i] = n;
    }
}

void ct_apis_after_fork_child(void)
{
    const struct ct_rec_client *c = atomic_load(&ct_rec_client);
    for (unsigned i = 0; i < nexcluded; i++) {
        atomic_store_explicit(&c->api_counted[excluded[i]], 0, memory_order_relaxed);
        written[i] = 0;
    }
}
