#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "format/grow.h"
#include "report/map.h"
#include "report/symbolize.h"
#include "report/symbols.h"
#include "report/text.h"

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
                if (!fr->python && (fr->module = rp_stacktab_module(st, fr->addr)) != NULL)
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

static const char *basename_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The part of path after its last site-packages/ or dist-packages/ directory (an installed package's own
 * path: "torch/nn/modules/module.py"); NULL when it lies in none. */
static const char *in_packages(const char *path)
{
    const char *best = NULL;
    for (const char *p = path; (p = strstr(p, "-packages/")) != NULL; p++)
        if (p - path >= 5 && (strncmp(p - 5, "/site", 5) == 0 || strncmp(p - 5, "/dist", 5) == 0))
            best = p + strlen("-packages/");
    return best;
}

/* A Python frame's file as shown: from the package directory in site-packages or dist-packages, else the
 * base name. */
static const char *py_file_shown(const char *path)
{
    const char *p = in_packages(path);
    return p ? p : basename_of(path);
}

/* Is "/lib/python3.N/" (or lib64) in path: the standard library's directory? */
static int in_stdlib(const char *path)
{
    for (const char *p = path; (p = strstr(p, "/python3.")) != NULL; p++) {
        const char *q = p + strlen("/python3.");
        if (!(p - path >= 4 && strncmp(p - 4, "/lib", 4) == 0) && !(p - path >= 6 && strncmp(p - 6, "/lib64", 6) == 0))
            continue;
        while (*q >= '0' && *q <= '9')
            q++;
        if (q > p + strlen("/python3.") && *q == '/')
            return 1;
    }
    return 0;
}

/* Is a Python file the program's own code?  Not when it lies in a site-packages or dist-packages directory
 * (installed packages: torch, numpy, ...), in the standard library (a directory lib/python3.N or
 * lib64/python3.N), or is a frozen module ("<frozen importlib._bootstrap>").  Everything else is: the
 * script, its modules, a package installed from a source tree in development mode. */
static int py_user_code(const char *path)
{
    return strncmp(path, "<frozen ", 8) != 0 && !in_packages(path) && !in_stdlib(path);
}

int rp_py_user_frame(const struct rp_stack *s)
{
    int first = -1;
    for (unsigned i = 0; s && i < s->nframes; i++)
        if (s->frames[i].python) {
            if (py_user_code(s->frames[i].srcfile))
                return (int)i;
            if (first < 0)
                first = (int)i;
        }
    return first;
}

const char *rp_frame_text(const struct rp_frame *fr, unsigned level, char *buf, size_t size)
{
    if (fr->python) {
        snprintf(buf, size, "%s:%u %s", py_file_shown(fr->srcfile), fr->line, fr->function);
        return buf;
    }
    const struct rp_inlined *in = level < fr->ninlined ? &fr->inlined[level] : NULL;
    const char *src = in ? in->srcfile : fr->srcfile;
    unsigned line = in ? in->line : fr->line;
    int n;
    if (in)
        n = snprintf(buf, size, "%s (inlined)", in->function);
    else if (fr->function)
        n = snprintf(buf, size, "%s+0x%" PRIx64, fr->function, fr->offset);
    else
        n = snprintf(buf, size, "0x%" PRIx64, fr->addr);
    if (src && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, " (%s:%u)", basename_of(src), line);
    if (n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, " [%s]", fr->module ? basename_of(fr->module->path) : "?");
    return buf;
}

void rp_frame_json(FILE *out, const struct rp_frame *fr, unsigned level)
{
    const struct rp_inlined *in = level < fr->ninlined ? &fr->inlined[level] : NULL;
    const char *src = in ? in->srcfile : fr->srcfile;
    if (fr->python) {
        fputs("{\"python\":true,\"function\":", out);
        rp_json_string(out, fr->function);
        fputs(",\"file\":", out);
        rp_json_string(out, fr->srcfile);
        fprintf(out, ",\"line\":%u}", fr->line);
        return;
    }
    fprintf(out, "{\"address\":\"0x%" PRIx64 "\"", fr->addr);
    if (in) {
        fputs(",\"function\":", out);
        rp_json_string(out, in->function);
        fputs(",\"inlined\":true", out);
    } else if (fr->function) {
        fputs(",\"function\":", out);
        rp_json_string(out, fr->function);
        fprintf(out, ",\"offset\":%" PRIu64, fr->offset);
    }
    if (fr->module) {
        fputs(",\"module\":", out);
        rp_json_string(out, fr->module->path);
    }
    if (src) {
        fputs(",\"file\":", out);
        rp_json_string(out, src);
        fprintf(out, ",\"line\":%u", in ? in->line : fr->line);
    }
    putc('}', out);
}

void rp_stack_json(FILE *out, const struct rp_stack *s)
{
    int first = 1;
    putc('[', out);
    for (unsigned i = 0; s && i < s->nframes; i++)
        for (unsigned l = 0; l <= s->frames[i].ninlined; l++) {
            if (!first)
                putc(',', out);
            first = 0;
            rp_frame_json(out, &s->frames[i], l);
        }
    putc(']', out);
}

char *rp_stack_key(const struct rp_stack *s)
{
    size_t len = 1, used = 0;
    for (unsigned i = 0; s && i < s->nframes; i++)
        len += (s->frames[i].python ? strlen(s->frames[i].srcfile) + strlen(s->frames[i].function)
                : s->frames[i].module ? strlen(s->frames[i].module->path) : 1) + 20;
    char *key = malloc(len);
    if (!key)
        return NULL;
    key[0] = '\0';
    for (unsigned i = 0; s && i < s->nframes; i++) {
        const struct rp_frame *fr = &s->frames[i];
        if (fr->python) {
            used += (size_t)snprintf(key + used, len - used, "%s:%u %s;", fr->srcfile, fr->line, fr->function);
            continue;
        }
        used += (size_t)snprintf(key + used, len - used, "%s+%" PRIx64 ";", fr->module ? fr->module->path : "?",
                                 fr->module ? fr->addr - fr->module->base : fr->addr);
    }
    return key;
}

void rp_stack_text(FILE *out, const struct rp_stack *s, const char *indent)
{
    char buf[1024];
    unsigned shown = 0;
    if (!s || !s->nframes)
        fprintf(out, "%s(no call stack recorded)\n", indent);
    for (unsigned i = 0; s && i < s->nframes; i++)
        for (unsigned l = 0; l <= s->frames[i].ninlined; l++)
            fprintf(out, "%s#%u %s\n", indent, shown++, rp_frame_text(&s->frames[i], l, buf, sizeof buf));
}

char *rp_stack_line(const struct rp_stack *s)
{
    char buf[1024];
    size_t len = 0, cap = 256;
    char *line = malloc(cap);
    if (!line)
        return NULL;
    line[0] = '\0';
    for (unsigned i = 0; s && i < s->nframes; i++)
        for (unsigned lv = 0; lv <= s->frames[i].ninlined; lv++) {
            size_t l = strlen(rp_frame_text(&s->frames[i], lv, buf, sizeof buf)) + 3;
            if (len + l + 1 > cap) {
                char *n = realloc(line, cap = (len + l + 1) * 2);
                if (!n) {
                    free(line);
                    return NULL;
                }
                line = n;
            }
            len += (size_t)sprintf(line + len, "%s%s", len ? " | " : "", buf);
        }
    return line;
}
