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

int rp_nvtx_rows_of_file(struct rp_named_rows *rows, const struct rp_file *f)
{
    for (size_t j = 0; j < f->nvtx.n; j++) {
        const struct rp_nvtx_range *r = &f->nvtx.r[j];
        char name[512], key[560];
        if (r->style == RP_NVTX_MARK)
            continue;
        snprintf(key, sizeof key, "%s\t%s", r->style == RP_NVTX_PUSHPOP ? "PushPop" : "StartEnd",
                 rp_nvtx_range_name(f, r, name, sizeof name));
        struct rp_named_stats *row = rp_named_rows_get(rows, key);
        if (!row || rp_stats_add(&row->st, r->t1 - r->t0) < 0)
            return -1;
    }
    return 0;
}

static int cmp_row(const void *x, const void *y)
{
    const struct rp_named_stats *a = x, *b = y;
    return rp_cmp_total_desc((double)a->st.total, (double)b->st.total, a->name, b->name);
}

void rp_nvtx_print(struct rp_sum_out *o, struct rp_named_rows *rows)
{
    uint64_t all = 0;
    struct rp_table tb;
    const struct rp_stats_columns cols = {"", "Instances#", NULL, "Style", "Range", 0};
    for (size_t i = 0; i < rows->n; i++)
        all += rows->v[i].st.total;
    if (rp_stats_table(&tb, "nvtx", "NVTX ranges (as nsys nvtx_sum)", &cols, o->unit) < 0)
        return;
    rp_sort(rows->v, rows->n, sizeof *rows->v, cmp_row);
    for (size_t i = 0; i < rows->n && (!o->top || i < o->top); i++) {
        char *tab = strchr(rows->v[i].name, '\t');
        *tab = '\0';
        rp_stats_row(&tb, &rows->v[i].st, (double)all, o->unit, rows->v[i].name, tab + 1);
        *tab = '\t';
    }
    rp_sum_emit(o, &tb);
}
