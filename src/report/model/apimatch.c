#include "config.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/apimatch.h"
#include "report/model/args.h"
#include "format/grow.h"

const struct rp_api_entry *rp_apimatch_of(struct rp_apimatch *am, const struct rp_call *c)
{
    struct rp_u64map_entry *m = rp_u64map_get(&am->ids, c->call->c.api_id, c->file_index);
    if (m)
        return &am->e[m->v1];
    struct rp_api_entry *e = ct_grow(am->e, &am->cap, am->n + 1, sizeof *e);
    if (!e)
        return NULL;
    am->e = e;
    e = &am->e[am->n];
    char buf[256];
    if (!(e->name = strdup(rp_call_api_name(c, buf, sizeof buf))))
        return NULL;
    e->match = !am->pattern || fnmatch(am->pattern, e->name, 0) == 0 ||
               fnmatch(am->pattern, rp_call_variant(c), 0) == 0;
    e->index = (unsigned)am->n;
    if (!rp_u64map_put(&am->ids, c->call->c.api_id, c->file_index, am->n, 0)) {
        free(e->name);
        return NULL;
    }
    return &am->e[am->n++];
}

void rp_apimatch_free(struct rp_apimatch *am)
{
    for (size_t i = 0; i < am->n; i++)
        free(am->e[i].name);
    free(am->e);
    rp_u64map_free(&am->ids);
}
