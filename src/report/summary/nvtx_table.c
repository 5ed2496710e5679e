#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/map.h"
#include "report/summary/nvtx_table.h"
#include "report/model/sort.h"

const char *rp_nvtx_range_name(const struct rp_file *f, const struct rp_nvtx_range *r, char *buf, size_t size)
{
    const char *d = rp_file_string(f, rp_nvtx_domain_name(&f->nvtx, r->domain)), *m = rp_file_string(f, r->name_id);
    snprintf(buf, size, "%s:%s", d ? d : "", m ? m : "");
    return buf;
}

struct row {
    struct rp_named_stats ns; /* name: "STYLE\tRANGE" */
};

static int cmp_row(const void *x, const void *y)
{
    const struct row *a = x, *b = y;
    return rp_cmp_total_desc((double)a->ns.st.total, (double)b->ns.st.total, a->ns.name, b->ns.name);
}

void rp_nvtx_print(struct rp_sum_out *o, const struct rp_trace *t)
{
    struct row *rows = NULL;
    size_t n = 0, cap = 0;
    struct rp_strmap by_name = {0};
    uint64_t all = 0;
    int oom = 0;

    for (size_t i = 0; i < t->nfiles && !oom; i++) {
        const struct rp_file *f = &t->files[i];
        for (size_t j = 0; j < f->nvtx.n; j++) {
            const struct rp_nvtx_range *r = &f->nvtx.r[j];
            char name[512], key[560];
            if (r->style == RP_NVTX_MARK)
                continue;
            snprintf(key, sizeof key, "%s\t%s", r->style == RP_NVTX_PUSHPOP ? "PushPop" : "StartEnd",
                     rp_nvtx_range_name(f, r, name, sizeof name));
            size_t k = rp_named_row((void **)&rows, &n, &cap, sizeof *rows, &by_name, key);
            if (k == (size_t)-1 || rp_stats_add(&rows[k].ns.st, r->t1 - r->t0) < 0) {
                oom = 1;
                break;
            }
            all += r->t1 - r->t0;
        }
    }
    struct rp_table tb;
    const struct rp_stats_columns cols = {"", "Instances#", NULL, "Style", "Range", 0};
    if (oom)
        fprintf(stderr, "cudatrace-report: out of memory\n");
    else if (rp_stats_table(&tb, "nvtx", "NVTX ranges (as nsys nvtx_sum)", &cols, o->unit) == 0) {
        rp_sort(rows, n, sizeof *rows, cmp_row);
        for (size_t i = 0; i < n && (!o->top || i < o->top); i++) {
            char *tab = strchr(rows[i].ns.name, '\t');
            *tab = '\0';
            rp_stats_row(&tb, &rows[i].ns.st, (double)all, o->unit, rows[i].ns.name, tab + 1);
            *tab = '\t';
        }
        rp_sum_emit(o, &tb);
    }
    for (size_t i = 0; i < n; i++)
        rp_named_stats_free(&rows[i].ns);
    free(rows);
    rp_strmap_free(&by_name);
}
