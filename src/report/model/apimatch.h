/* The display name of each (file, api id) of a trace and whether it matches an --api pattern (fnmatch on the
 * display name or the exported variant), found once per pair: shared by calls and stacks. */
#ifndef CT_REPORT_MODEL_APIMATCH_H
#define CT_REPORT_MODEL_APIMATCH_H

#include <stddef.h>

#include "report/model/map.h"
#include "report/model/trace.h"

struct rp_api_entry {
    char *name;
    int match;
    unsigned index; /* distinct per entry, from 0 */
};

struct rp_apimatch {
    const char *pattern; /* NULL: every api matches */
    struct rp_u64map ids; /* (api_id, file) -> index */
    struct rp_api_entry *e;
    size_t n, cap;
};

/* The entry of the call's api; NULL when out of memory. */
const struct rp_api_entry *rp_apimatch_of(struct rp_apimatch *am, const struct rp_call *c);
void rp_apimatch_free(struct rp_apimatch *am);

#endif
