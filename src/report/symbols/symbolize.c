#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "format/grow.h"
#include "report/model/map.h"
#include "report/symbols/symbolize.h"
#include "report/symbols/symbols.h"

/* The frames of one module file, gathered across the trace so the file is read once. */
struct modfile {
    const struct rp_module *mod;
    struct rp_frame **frames;
    size_t n, cap;
};

struct work {
    struct rp_strmap by_key; /* path + build id -> index */
    struct modfile *m;
    size_t n, cap;
};

static int gather(struct work *w, struct rp_frame *fr)
{
    char key[4200];
    int len = snprintf(key, sizeof key, "%s#", fr->module->path);
    for (unsigned i = 0; i < fr->module->build_id_len && len < (int)sizeof key - 3; i++)
        len += snprintf(key + len, sizeof key - (size_t)len, "%02x", fr->module->build_id[i]);
    size_t i = rp_strmap_get(&w->by_key, key);
    if (i == (size_t)-1) {
        struct modfile *mf = ct_grow(w->m, &w->cap, w->n + 1, sizeof *mf);
        if (!mf)
            return -1;
        w->m = mf;
        i = w->n;
        if (rp_strmap_put(&w->by_key, key, i) < 0)
            return -1;
        w->m[w->n++] = (struct modfile){fr->module, NULL, 0, 0};
    }
    struct modfile *m = &w->m[i];
    struct rp_frame **f = ct_grow(m->frames, &m->cap, m->n + 1, sizeof *f);
    if (!f)
        return -1;
    m->frames = f;
    m->frames[m->n++] = fr;
    return 0;
}

static int cmp_file_addr(const void *a, const void *b)
{
    uint64_t x = rp_frame_file_addr(*(struct rp_frame *const *)a), y = rp_frame_file_addr(*(struct rp_frame *const *)b);
    return (x > y) - (x < y);
}

static char *dup_or_null(const char *s, int *oom)
{
    char *d = s ? strdup(s) : NULL;
    *oom |= s && !d;
    return d;
}

/* dst, at the same file address as src (another stack, or another process's load of the file), gets src's
 * symbols. */
static int copy_symbols(struct rp_frame *dst, const struct rp_frame *src)
{
    int oom = 0;
    dst->offset = src->offset; /* from the function, or the module's base: the same at one file address */
    dst->function = dup_or_null(src->function, &oom);
    dst->srcfile = dup_or_null(src->srcfile, &oom);
    dst->line = src->line;
    if (src->ninlined && !(dst->inlined = calloc(src->ninlined, sizeof *dst->inlined)))
        return -1;
    dst->ninlined = src->ninlined;
    for (unsigned i = 0; i < src->ninlined; i++) {
        dst->inlined[i].function = dup_or_null(src->inlined[i].function, &oom);
        dst->inlined[i].srcfile = dup_or_null(src->inlined[i].srcfile, &oom);
        dst->inlined[i].line = src->inlined[i].line;
    }
    return oom ? -1 : 0;
}

/* One module file: its frames sorted by file address, each distinct address resolved once. */
static int resolve_module(struct modfile *m)
{
    size_t nu = 0;
    qsort(m->frames, m->n, sizeof *m->frames, cmp_file_addr);
    struct rp_frame **uniq = malloc(m->n * sizeof *uniq);
    if (!uniq)
        return -1;
    for (size_t i = 0; i < m->n; i++)
        if (!i || rp_frame_file_addr(m->frames[i]) != rp_frame_file_addr(m->frames[i - 1]))
            uniq[nu++] = m->frames[i];
    int rc = rp_symbols_resolve(m->mod, uniq, nu);
    free(uniq);
    for (size_t i = 1, first = 0; i < m->n && rc == 0; i++) {
        if (rp_frame_file_addr(m->frames[i]) != rp_frame_file_addr(m->frames[first]))
            first = i;
        else
            rc = copy_symbols(m->frames[i], m->frames[first]);
    }
    return rc;
}

int rp_symbolize(struct rp_trace *t)
{
    struct work w = {0};
    int rc = 0;

    for (size_t i = 0; i < t->nfiles && rc == 0; i++) {
        struct rp_stacktab *st = &t->files[i].stacks;
        if (st->resolved)
            continue;
        st->resolved = 1;
        for (size_t j = 0; j < st->n && rc == 0; j++)
            for (unsigned k = 0; k < st->stacks[j].nframes && rc == 0; k++) {
                struct rp_frame *fr = &st->stacks[j].frames[k];
                if (!fr->python && (fr->module = rp_stacktab_frame_module(st, &st->stacks[j], fr->addr)) != NULL)
                    rc = gather(&w, fr);
            }
    }
    for (size_t i = 0; i < w.n; i++) {
        if (rc == 0)
            rc = resolve_module(&w.m[i]);
        free(w.m[i].frames);
    }
    free(w.m);
    rp_strmap_free(&w.by_key);
    if (rc)
        fprintf(stderr, "cudatrace-report: out of memory\n");
    return rc;
}
