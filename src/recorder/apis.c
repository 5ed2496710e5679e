/* Functions counted, not timed (apis.h): CUDATRACE_APIS over the default set, and the counts written to the
 * trace. */
#include "config.h"

#include <fnmatch.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/uio.h>

#include "format/record.h"
#include "recorder/apis.h"
#include "recorder/settings.h"
#include "recorder/tracefile.h"
#include "recorder/variants.h"
#include "recorder/warn.h"
#include "recorder/alloc.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static uint32_t chosen;              /* the header's CT_FEAT_APIS_* bits */
static int listed;                   /* a list chose: every trampoline reads its byte */
static uint16_t *counted;            /* the counted variants' ids ... */
static uint64_t *written;            /* ... the count last written for each (drain holder only) ... */
static struct ct_rec_counted *recs;  /* ... and room for a record of each */
static unsigned ncounted;

/* A pattern names a function (cuCtxGetDevice: all its variants, _v2, _ptsz, _ptds) or, to pick one, a
 * variant's exported symbol (cuCtxGetDevice_v2). */
static int matches(const char *pattern, const struct ct_variant *v)
{
    return fnmatch(pattern, v->name, 0) == 0 || fnmatch(pattern, v->symbol, 0) == 0;
}

/* The list as a table: 0 or -1 (a glob that matches nothing: warned). */
static int decide(const struct ct_rec_client *c, const struct ct_apis_spec *spec, const char *value, uint8_t *skip)
{
    /* A list that starts with an include times only what it includes; one that starts with an exclude
     * times everything else.  Later entries win (as in rsync filters and .gitignore). */
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
            ct_warn("CUDATRACE_APIS=\"%.64s\": %s matches no driver function; using the default", value,
                    spec->e[i].pattern);
            return -1;
        }
    return 0;
}

/* CUDATRACE_APIS's list in place of the default set: 0, or -1 (warned) when it cannot be. */
static int apply_list(const struct ct_rec_client *c, const char *value)
{
    struct ct_apis_spec *spec = ct_malloc(sizeof *spec);
    uint8_t *skip = ct_calloc(c->nvariants, 1);
    int rc = -1;

    if (!spec || !skip)
        ct_warn("CUDATRACE_APIS: out of memory; using the default");
    else if (ct_parse_apis(value, spec) != 0)
        ct_warn("CUDATRACE_APIS=\"%.64s\" is not all, nor a comma-separated list of function names or globs, "
                "each with an optional leading '-'; using the default", value);
    else if (decide(c, spec, value, skip) == 0) {
        int memory = 0;
        for (unsigned id = 0; id < c->nvariants; id++)
            memory |= skip[id] && (c->variants[id].family == CT_FAM_ALLOC || c->variants[id].family == CT_FAM_FREE);
        memcpy(c->api_skip, skip, c->nvariants);
        /* Asked for by name (an include-only list leaves them out knowingly): say what it costs. */
        if (memory && spec->e[0].exclude)
            ct_warn("CUDATRACE_APIS=\"%.64s\" excludes allocations or frees: the memory report will miss them",
                    value);
        rc = 0;
    }
    ct_free(spec);
    ct_free(skip);
    return rc;
}

static void load(void)
{
    const char *value = ct_env("CUDATRACE_APIS");
    const struct ct_rec_client *c = atomic_load(&ct_rec_client);

    if (!c)
        return;
    chosen = CT_FEAT_APIS_DEFAULT; /* api_skip's bytes start as the default set */
    if (value && *value) {
        if (strcasecmp(value, "all") == 0) {
            memset(c->api_skip, 0, c->nvariants);
            chosen = 0;
        } else if (apply_list(c, value) == 0) {
            chosen = CT_FEAT_APIS_LIST;
            listed = 1;
        }
    }
    for (unsigned id = 0; id < c->nvariants; id++)
        ncounted += c->api_skip[id];
    if (!ncounted)
        return;
    counted = ct_calloc(ncounted, sizeof *counted);
    written = ct_calloc(ncounted, sizeof *written);
    recs = ct_calloc(ncounted, sizeof *recs);
    if (!counted || !written || !recs) { /* counts cannot be written: time every call instead */
        ct_warn("CUDATRACE_APIS: out of memory; every call is timed");
        memset(c->api_skip, 0, c->nvariants);
        ncounted = 0;
        chosen = 0;
        listed = 0;
        return;
    }
    for (unsigned id = 0, k = 0; id < c->nvariants; id++)
        if (c->api_skip[id])
            counted[k++] = (uint16_t)id;
}

int ct_apis_init(void)
{
    pthread_once(&once, load);
    return listed;
}

uint32_t ct_apis_features(void)
{
    pthread_once(&once, load);
    return chosen;
}

void ct_apis_write(void)
{
    const struct ct_rec_client *c = atomic_load(&ct_rec_client);
    unsigned n = 0;

    for (unsigned i = 0; i < ncounted; i++) {
        const uint64_t count = atomic_load_explicit(&c->api_counted[counted[i]], memory_order_relaxed);
        if (count == written[i])
            continue;
        struct ct_rec_counted *rec = &recs[n++];
        memset(rec, 0, sizeof *rec);
        ct_put_hdr(&rec->h, CT_REC_COUNTED, sizeof *rec, 0);
        rec->api_id = counted[i];
        rec->count = count;
        written[i] = count;
    }
    if (n)
        ct_tf_append(&(struct iovec){recs, n * sizeof *recs}, 1);
}

void ct_apis_after_fork_child(void)
{
    const struct ct_rec_client *c = atomic_load(&ct_rec_client);
    for (unsigned i = 0; i < ncounted; i++) {
        atomic_store_explicit(&c->api_counted[counted[i]], 0, memory_order_relaxed);
        written[i] = 0;
    }
}
