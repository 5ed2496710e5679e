/* The time axis of the HTML report's charts (html_chart.h). */
#include "config.h"

#include "report/model/html_chart.h"
#include "report/model/html.h"

void rp_html_axis_init(struct rp_html_axis *a, const struct rp_trace *t)
{
    a->start = t->start_ns;
    a->end = t->end_ns > t->start_ns ? t->end_ns : t->start_ns + RP_HTML_BINS;
    a->bin_ns = (double)(a->end - a->start) / RP_HTML_BINS;
}

int rp_html_bin(const struct rp_html_axis *a, int64_t t)
{
    double b = (double)(t - a->start) / a->bin_ns;
    return b < 0 ? 0 : b >= RP_HTML_BINS ? RP_HTML_BINS - 1 : (int)b;
}

double rp_html_x(const struct rp_html_axis *a, int64_t t)
{
    double x = (double)(t - a->start) / a->bin_ns;
    return x < 0 ? 0 : x > RP_HTML_BINS ? RP_HTML_BINS : x;
}

void rp_html_ticks(FILE *out, const struct rp_html_axis *a, unsigned y)
{
    char d[32];
    fputs("<g class=\"axis\">", out);
    for (int i = 0; i <= 10; i++) {
        int x = RP_HTML_LEFT + i * RP_HTML_BINS / 10;
        fprintf(out, "<line x1=\"%d\" y1=\"%u\" x2=\"%d\" y2=\"%u\"/><text x=\"%d\" y=\"%u\" text-anchor=\"%s\">%s</text>",
                x, y, x, y + 4, x, y + 16, i == 0 ? "start" : i == 10 ? "end" : "middle",
                rp_html_duration(d, sizeof d, i * (double)(a->end - a->start) / 10));
    }
    fputs("</g>\n", out);
}
