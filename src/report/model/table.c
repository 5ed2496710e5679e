#include "config.h"

#include "report/model/table.h"
#include "report/model/html.h"

#include <stdlib.h>
#include <string.h>

int rp_table_init(struct rp_table *t, const char *key, const char *title, unsigned ncols,
                  const char *const *titles)
{
    memset(t, 0, sizeof *t);
    t->key = key;
    t->title = title;
    t->ncols = ncols;
    t->headers = calloc(ncols, sizeof *t->headers);
    t->numeric = calloc(ncols, 1);
    if (!t->headers || !t->numeric)
        return t->oom = -1;
    for (unsigned c = 0; c < ncols; c++)
        if (rp_table_set_header(t, c, titles[c]) < 0)
            return -1;
    return 0;
}

int rp_table_init_kv(struct rp_table *t, const char *key, const char *title)
{
    const char *titles[] = {"Field", "Value"};
    if (rp_table_init(t, key, title, 2, titles) < 0)
        return -1;
    t->kv = 1;
    return 0;
}

int rp_table_set_header(struct rp_table *t, unsigned col, const char *title)
{
    size_t len = strlen(title);
    char *h = strdup(title);
    if (!h)
        return t->oom = -1;
    t->numeric[col] = 0;
    if (len && (h[len - 1] == '#' || h[len - 1] == '!')) {
        t->numeric[col] = h[len - 1] == '#' ? 1 : 2;
        h[len - 1] = '\0';
    }
    free(t->headers[col]);
    t->headers[col] = h;
    return 0;
}

void rp_table_row(struct rp_table *t, const char *const *cells)
{
    if (t->oom)
        return;
    if (t->nrows == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16;
        char **c = realloc(t->cells, cap * t->ncols * sizeof *c);
        if (!c) {
            t->oom = -1;
            return;
        }
        t->cells = c;
        t->cap = cap;
    }
    /* A row's cells in one block (row[0] is it): a summary may have a row per each of a million kernels. */
    char **row = t->cells + t->nrows * t->ncols;
    size_t len = 0;
    for (unsigned c = 0; c < t->ncols; c++)
        len += strlen(cells[c] ? cells[c] : "") + 1;
    char *block = malloc(len);
    if (!block) {
        t->oom = -1;
        return;
    }
    for (unsigned c = 0; c < t->ncols; c++) {
        const char *s = cells[c] ? cells[c] : "";
        size_t l = strlen(s) + 1;
        row[c] = memcpy(block, s, l);
        block += l;
    }
    t->nrows++;
}

static const char *cell(const struct rp_table *t, size_t r, unsigned c)
{
    return t->cells[r * t->ncols + c];
}

/* In a key/value table a key ending in '#' marks a numeric value; the mark is not shown. */
static int kv_numeric(const struct rp_table *t, size_t r)
{
    const char *k = t->cells[r * t->ncols];
    size_t l = strlen(k);
    return t->kv && l && k[l - 1] == '#';
}

static const char *kv_key(const struct rp_table *t, size_t r, char *buf, size_t size)
{
    snprintf(buf, size, "%.*s", (int)strlen(t->cells[r * t->ncols]) - kv_numeric(t, r), t->cells[r * t->ncols]);
    return buf;
}

/* A cell as a table shows it: numbers with grouped digits. */
static const char *shown(const struct rp_table *t, size_t r, unsigned c, char *buf, size_t size)
{
    const char *s = cell(t, r, c);
    return t->numeric[c] == 1 ? rp_group_digits(buf, size, s) : s;
}

/* Cells go through rp_text_pad: a name with a control character in it must not act on the terminal. */
static void print_aligned(const struct rp_table *t, FILE *out, int first)
{
    size_t *w = calloc(t->ncols, sizeof *w);
    char buf[128];
    if (!w)
        return;
    for (unsigned c = 0; c < t->ncols; c++) {
        w[c] = strlen(t->headers[c]);
        for (size_t r = 0; r < t->nrows; r++) {
            size_t l = rp_text_width(c == 0 && t->kv ? kv_key(t, r, buf, sizeof buf) : shown(t, r, c, buf, sizeof buf));
            if (l > w[c])
                w[c] = l;
        }
    }
    fprintf(out, "%s%s:\n\n", first ? "" : "\n", t->title);
    if (t->nrows == 0) { /* a heading over empty columns reads like a formatting error */
        fputs(" (none)\n", out);
        free(w);
        return;
    }
    if (t->kv) { /* a header block: "key: value" lines */
        for (size_t r = 0; r < t->nrows; r++) {
            putc(' ', out);
            rp_text_pad(out, kv_key(t, r, buf, sizeof buf), -(int)w[0]);
            fputs("  ", out);
            rp_text_put(out, cell(t, r, 1));
            putc('\n', out);
        }
        free(w);
        return;
    }
    for (int line = 0; line < 2; line++) {
        for (unsigned c = 0; c < t->ncols; c++) {
            const char *sep = c + 1 < t->ncols ? "  " : "\n";
            int last_text = c + 1 == t->ncols && !t->numeric[c]; /* not padded: no trailing blanks */
            if (line == 0)
                fprintf(out, " %*s%s", last_text ? 0 : t->numeric[c] ? (int)w[c] : -(int)w[c], t->headers[c], sep);
            else {
                putc(' ', out);
                for (size_t i = 0; i < w[c]; i++)
                    putc('-', out);
                fputs(sep, out);
            }
        }
    }
    for (size_t r = 0; r < t->nrows; r++)
        for (unsigned c = 0; c < t->ncols; c++) {
            /* the last column is not padded, so long names leave no trailing blanks */
            const int last_text = c + 1 == t->ncols && !t->numeric[c];
            putc(' ', out);
            rp_text_pad(out, shown(t, r, c, buf, sizeof buf), last_text ? 0 : t->numeric[c] ? (int)w[c] : -(int)w[c]);
            fputs(c + 1 < t->ncols ? "  " : "\n", out);
        }
    free(w);
}

static void print_csv(const struct rp_table *t, FILE *out, int first, int labelled, enum rp_format fmt)
{
    const char sep = fmt == RP_FMT_TSV ? '\t' : ',';
    if (labelled)
        fprintf(out, "%s# %s\n", first ? "" : "\n", t->key);
    for (unsigned c = 0; c < t->ncols; c++) {
        rp_sep_field(out, t->headers[c], fmt);
        putc(c + 1 < t->ncols ? sep : '\n', out);
    }
    char key[256];
    for (size_t r = 0; r < t->nrows; r++)
        for (unsigned c = 0; c < t->ncols; c++) {
            rp_sep_field(out, c == 0 && t->kv ? kv_key(t, r, key, sizeof key) : cell(t, r, c), fmt);
            putc(c + 1 < t->ncols ? sep : '\n', out);
        }
}

static void json_value(const struct rp_table *t, FILE *out, size_t r, unsigned c)
{
    const char *s = cell(t, r, c);
    if ((t->numeric[c] || (c == 1 && kv_numeric(t, r))) && *s)
        fputs(s, out);
    else
        rp_json_string(out, s);
}

static void print_json(const struct rp_table *t, FILE *out, int first)
{
    fputs(first ? "{" : ",", out);
    rp_json_string(out, t->key);
    if (t->kv) {
        char key[256];
        fputs(":{", out);
        for (size_t r = 0; r < t->nrows; r++) {
            fputs(r ? "," : "", out);
            rp_json_string(out, kv_key(t, r, key, sizeof key));
            putc(':', out);
            json_value(t, out, r, 1);
        }
        fputs("}\n", out);
        return;
    }
    fputs(":[", out);
    for (size_t r = 0; r < t->nrows; r++) {
        fputs(r ? ",\n {" : "\n {", out);
        for (unsigned c = 0; c < t->ncols; c++) {
            fputs(c ? "," : "", out);
            rp_json_string(out, t->headers[c]);
            putc(':', out);
            json_value(t, out, r, c);
        }
        putc('}', out);
    }
    fputs("]\n", out);
}

void rp_table_print(const struct rp_table *t, FILE *out, enum rp_format fmt, int first, int labelled)
{
    switch (fmt) {
    case RP_FMT_TABLE: print_aligned(t, out, first); break;
    case RP_FMT_CSV:
    case RP_FMT_TSV: print_csv(t, out, first, labelled, fmt); break;
    case RP_FMT_JSON: print_json(t, out, first); break;
    case RP_FMT_HTML: rp_table_html(t, out); break;
    case RP_FMT_FOLDED: break; /* folded stacks are not tables */
    }
}

void rp_table_of(struct rp_table *t, const char *what, char *key, size_t key_size, char *title, size_t title_size)
{
    snprintf(key, key_size, "%s[%s]", t->key, what);
    snprintf(title, title_size, "%s: %s", t->title, what);
    t->key = key;
    t->title = title;
}

void rp_table_free(struct rp_table *t)
{
    for (size_t r = 0; r < t->nrows; r++)
        free(t->cells[r * t->ncols]);
    for (unsigned c = 0; t->headers && c < t->ncols; c++)
        free(t->headers[c]);
    free(t->cells);
    free(t->headers);
    free(t->numeric);
    memset(t, 0, sizeof *t);
}

