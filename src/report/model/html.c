/* HTML escaping, sizes for people and summary tables as HTML (html.h). */
#include "config.h"

#include "report/model/html.h"

#include <stdlib.h>
#include <string.h>

void rp_html_text(FILE *out, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        switch (*p) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                fprintf(out, "\\x%02x", *p);
            else
                putc(*p, out);
        }
}

void rp_html_text_cut(FILE *out, const char *s, size_t max)
{
    size_t chars = 0, i = 0;
    while (s[i] && chars < max) {
        i++;
        while (((unsigned char)s[i] & 0xc0) == 0x80) /* the rest of a UTF-8 sequence */
            i++;
        chars++;
    }
    if (!s[i]) {
        rp_html_text(out, s);
        return;
    }
    char *cut = strndup(s, i);
    rp_html_text(out, cut ? cut : "");
    fputs("...", out);
    free(cut);
}

const char *rp_html_duration(char *buf, size_t size, double ns)
{
    static const struct {
        double ns;
        const char *name;
    } units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (ns >= units[i].ns) {
            double v = ns / units[i].ns;
            snprintf(buf, size, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, units[i].name);
            return buf;
        }
    snprintf(buf, size, "%.0f ns", ns);
    return buf;
}

const char *rp_html_bytes(char *buf, size_t size, double bytes)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
    if (bytes < 1024) {
        snprintf(buf, size, "%.0f B", bytes);
        return buf;
    }
    size_t u = 0;
    for (bytes /= 1024; bytes >= 1024 && u + 1 < sizeof units / sizeof units[0]; u++)
        bytes /= 1024;
    snprintf(buf, size, "%.2f %s", bytes, units[u]);
    return buf;
}

static const char *cell(const struct rp_table *t, size_t r, unsigned c)
{
    return t->cells[r * t->ncols + c];
}

/* A numeric value as its cell holds it (data-v, what the JSON has) and shown with grouped digits. */
static void number_cell(FILE *out, const char *s)
{
    char buf[128];
    if (!*s) {
        fputs("<td class=\"num\"></td>", out);
        return;
    }
    fputs("<td class=\"num\" data-v=\"", out);
    rp_html_text(out, s);
    fputs("\">", out);
    rp_html_text(out, strlen(s) < 64 ? rp_group_digits(buf, sizeof buf, s) : s);
    fputs("</td>", out);
}

/* A key/value table (the header): a row per field; a numeric field's value has its data-v. */
static void kv_html(const struct rp_table *t, FILE *out)
{
    fputs("<table class=\"kv\" data-key=\"", out);
    rp_html_text(out, t->key);
    fputs("\">\n", out);
    for (size_t r = 0; r < t->nrows; r++) {
        const char *k = cell(t, r, 0);
        size_t l = strlen(k);
        int num = l && k[l - 1] == '#';
        char *key = strndup(k, l - (size_t)num);
        fputs("<tr><th>", out);
        rp_html_text(out, key ? key : "");
        fputs("</th>", out);
        free(key);
        if (num) {
            number_cell(out, cell(t, r, 1));
        } else {
            fputs("<td>", out);
            rp_html_text(out, cell(t, r, 1));
            fputs("</td>", out);
        }
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
}

#define BARS 12        /* rows drawn in a table's bar chart */
#define BAR_LABEL 48   /* characters of a name beside its bar */

/* The first rows' totals (column 1, ns) as horizontal bars, longest first as the rows come; rows without a
 * total (nothing timed) are left out.  Each bar's data-v is its total; its tooltip the name, the total and
 * the share (column 0). */
static void bars(const struct rp_table *t, FILE *out)
{
    double max = 0;
    size_t n = 0;
    for (size_t r = 0; r < t->nrows && r < BARS; r++)
        if (*cell(t, r, 1) && strtod(cell(t, r, 1), NULL) > max)
            max = strtod(cell(t, r, 1), NULL);
    if (max <= 0)
        return;
    for (size_t r = 0; r < t->nrows && r < BARS; r++)
        n += *cell(t, r, 1) != '\0';
    const unsigned row = 20, label = 330, width = 420;
    fputs("<svg class=\"bars\" data-key=\"", out);
    rp_html_text(out, t->key);
    fprintf(out, "\" viewBox=\"0 0 %u %zu\" width=\"%u\" height=\"%zu\" role=\"img\">\n", label + width + 120,
            n * row + 4, label + width + 120, n * row + 4);
    size_t y = 2;
    for (size_t r = 0; r < t->nrows && r < BARS; r++) {
        const char *tot = cell(t, r, 1), *name = cell(t, r, t->ncols - 1);
        if (!*tot)
            continue;
        double v = strtod(tot, NULL), w = v / max * width;
        char d[48];
        fputs("<g class=\"bar\"><title>", out);
        rp_html_text(out, name);
        fprintf(out, ": %s (%s%%)</title><text class=\"label\" x=\"%u\" y=\"%zu\">", rp_html_duration(d, sizeof d, v),
                cell(t, r, 0), label - 6, y + 14);
        rp_html_text_cut(out, name, BAR_LABEL);
        fprintf(out, "</text><rect x=\"%u\" y=\"%zu\" width=\"%.1f\" height=\"%u\" data-v=\"", label, y + 2,
                w < 1 ? 1 : w, row - 4);
        rp_html_text(out, tot);
        fprintf(out, "\"/><text x=\"%.1f\" y=\"%zu\">%s</text></g>\n", label + (w < 1 ? 1 : w) + 4, y + 14, d);
        y += row;
    }
    fputs("</svg>\n", out);
}

void rp_table_html(const struct rp_table *t, FILE *out)
{
    fputs("<section class=\"table\"><h3>", out);
    rp_html_text(out, t->title);
    fputs("</h3>\n", out);
    if (t->kv) {
        kv_html(t, out);
        fputs("</section>\n", out);
        return;
    }
    if (t->ncols >= 3 && !strcmp(t->headers[0], "Time (%)"))
        bars(t, out);
    fputs("<table class=\"sortable\" data-key=\"", out);
    rp_html_text(out, t->key);
    fputs("\">\n<thead><tr>", out);
    for (unsigned c = 0; c < t->ncols; c++) {
        fputs(t->numeric[c] ? "<th class=\"num\" data-num=\"1\">" : "<th>", out);
        rp_html_text(out, t->headers[c]);
        fputs("</th>", out);
    }
    fputs("</tr></thead>\n<tbody>\n", out);
    for (size_t r = 0; r < t->nrows; r++) {
        fputs("<tr>", out);
        for (unsigned c = 0; c < t->ncols; c++) {
            if (t->numeric[c]) {
                number_cell(out, cell(t, r, c));
                continue;
            }
            fputs("<td>", out);
            rp_html_text(out, cell(t, r, c));
            fputs("</td>", out);
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
    if (!t->nrows)
        fputs("<p class=\"none\">(none)</p>\n", out);
    fputs("</section>\n", out);
}
