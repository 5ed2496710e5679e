#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format/grow.h"
#include "report/model/nvtx_ranges.h"
#include "report/model/sort.h"

int rp_nvtx_add(struct rp_nvtx *x, const struct ct_nvtx_event *e)
{
    struct ct_nvtx_event *v = ct_grow(x->ev, &x->cev, x->nev + 1, sizeof *v);
    if (!v)
        return -1;
    x->ev = v;
    v[x->nev++] = *e;
    return 0;
}

int rp_nvtx_add_name(struct rp_nvtx *x, const struct ct_nvtx_naming *m)
{
    struct ct_nvtx_naming *v = ct_grow(x->names, &x->cnames, x->nnames + 1, sizeof *v);
    if (!v)
        return -1;
    x->names = v;
    v[x->nnames++] = *m;
    return 0;
}

uint32_t rp_nvtx_domain_name(const struct rp_nvtx *x, uint16_t domain)
{
    for (size_t i = 0; domain && i < x->nnames; i++)
        if (x->names[i].what == CT_NVTX_NAME_DOMAIN && x->names[i].domain == domain)
            return x->names[i].name_id;
    return 0;
}

uint32_t rp_nvtx_category_name(const struct rp_nvtx *x, uint16_t domain, uint32_t category)
{
    uint32_t id = 0;
    for (size_t i = 0; category && i < x->nnames; i++) /* the last naming holds */
        if (x->names[i].what == CT_NVTX_NAME_CATEGORY && x->names[i].domain == domain &&
            x->names[i].category == category)
            id = x->names[i].name_id;
    return id;
}

/* Events in pairing order: push/pop by (tid, domain) then file order, start/end by range id then file order
 * (each event's file order is its index, kept in `order`). */
struct ordered {
    const struct ct_nvtx_event *e;
    size_t order;
};

static int cmp_stack(const void *a, const void *b)
{
    const struct ordered *x = a, *y = b;
    if (x->e->tid != y->e->tid)
        return x->e->tid < y->e->tid ? -1 : 1;
    if (x->e->domain != y->e->domain)
        return x->e->domain < y->e->domain ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

static int cmp_id(const void *a, const void *b)
{
    const struct ordered *x = a, *y = b;
    if (x->e->range_id != y->e->range_id)
        return x->e->range_id < y->e->range_id ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

static int cmp_range(const void *a, const void *b)
{
    const struct rp_nvtx_range *x = a, *y = b;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    if (x->t0 != y->t0)
        return x->t0 < y->t0 ? -1 : 1;
    return (x->depth > y->depth) - (x->depth < y->depth);
}

static struct rp_nvtx_range range_of(const struct ct_nvtx_event *open, uint64_t t1, unsigned style, uint32_t depth)
{
    return (struct rp_nvtx_range){open->t_ns, t1 > open->t_ns ? t1 : open->t_ns, open->tid, open->name_id,
                                  open->category, open->color, open->domain, (uint8_t)style, open->has_color, depth};
}

/* Append range r to x's ranges (*cap of them allocated).  0, or -1 when out of memory. */
static int add_range(struct rp_nvtx *x, size_t *cap, struct rp_nvtx_range r)
{
    struct rp_nvtx_range *v = ct_grow(x->r, cap, x->n + 1, sizeof *v);
    if (!v)
        return -1;
    x->r = v;
    v[x->n++] = r;
    return 0;
}

int rp_nvtx_finish(struct rp_nvtx *x)
{
    struct ordered *o = calloc(x->nev ? x->nev : 1, sizeof *o), *stack_o = NULL;
    size_t no = 0, cap = 0;
    int rc = -1;

    if (!o)
        return -1;
    x->r = NULL;
    x->n = 0;
    /* Push/pop and marks. */
    for (size_t i = 0; i < x->nev; i++)
        if (x->ev[i].kind == CT_NVTX_PUSH || x->ev[i].kind == CT_NVTX_POP || x->ev[i].kind == CT_NVTX_MARK)
            o[no++] = (struct ordered){&x->ev[i], i};
    qsort(o, no, sizeof *o, cmp_stack);
    size_t depth = 0;
    if (!(stack_o = calloc(no ? no : 1, sizeof *stack_o)))
        goto out;
    for (size_t i = 0; i < no; i++) {
        const struct ct_nvtx_event *e = o[i].e;
        if (i == 0 || e->tid != o[i - 1].e->tid || e->domain != o[i - 1].e->domain)
            depth = 0; /* another stack */
        if (e->kind == CT_NVTX_PUSH) {
            stack_o[depth++] = o[i];
        } else if (e->kind == CT_NVTX_POP && depth) {
            const struct ct_nvtx_event *open = stack_o[--depth].e;
            if (add_range(x, &cap, range_of(open, e->t_ns, RP_NVTX_PUSHPOP, (uint32_t)depth)) < 0)
                goto out;
        } else if (e->kind == CT_NVTX_MARK) {
            if (add_range(x, &cap, range_of(e, e->t_ns, RP_NVTX_MARK, (uint32_t)depth)) < 0)
                goto out;
        }
    }
    /* Start/end. */
    no = 0;
    for (size_t i = 0; i < x->nev; i++)
        if (x->ev[i].kind == CT_NVTX_START || x->ev[i].kind == CT_NVTX_END)
            o[no++] = (struct ordered){&x->ev[i], i};
    qsort(o, no, sizeof *o, cmp_id);
    for (size_t i = 0; i + 1 < no; i++)
        if (o[i].e->kind == CT_NVTX_START && o[i + 1].e->kind == CT_NVTX_END && o[i].e->range_id == o[i + 1].e->range_id) {
            if (add_range(x, &cap, range_of(o[i].e, o[i + 1].e->t_ns, RP_NVTX_STARTEND, 0)) < 0)
                goto out;
            i++;
        }
    rp_sort(x->r, x->n, sizeof *x->r, cmp_range);
    free(x->ev);
    x->ev = NULL;
    x->nev = x->cev = 0;
    rc = 0;
out:
    free(stack_o);
    free(o);
    return rc;
}

void rp_nvtx_free(struct rp_nvtx *x)
{
    free(x->ev);
    free(x->r);
    free(x->names);
    memset(x, 0, sizeof *x);
}
