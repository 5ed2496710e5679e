/* The HTML report's chart of device memory over time (export.h, rp_html_memory): the live bytes of device
 * memory (every kind the summary counts on the device) after each allocation and free, as the highest value
 * of each pixel-wide bin, the peak marked, and the call sites that held the peak. */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/export/export.h"
#include "report/model/html_chart.h"
#include "report/model/frames.h"
#include "report/model/html.h"
#include "report/model/memory.h"
#include "report/model/sites.h"
#include "report/symbols/symbolize.h"

#define HEIGHT 180    /* pixels of the plot */
#define TOP_SITES 10  /* call sites listed at the peak */

struct curve {
    const struct rp_html_axis *a;
    uint64_t max[RP_HTML_BINS]; /* the most live bytes in each bin */
    uint64_t end[RP_HTML_BINS]; /* the live bytes at its end */
    int seen[RP_HTML_BINS];
};

static void each(void *ctx, const struct rp_call *c, const struct rp_memtrack *m)
{
    struct curve *cv = ctx;
    int b = rp_html_bin(cv->a, c->t1);
    uint64_t v = m->device.live_bytes;
    if (!cv->seen[b] || v > cv->max[b])
        cv->max[b] = v;
    cv->end[b] = v;
    cv->seen[b] = 1;
}

static void peak_sites(FILE *out, const struct rp_sites *s)
{
    char b[32];
    fputs("<section class=\"table\"><h3>Call sites holding device memory at the peak</h3>\n"
          "<table class=\"sortable\" data-key=\"peak_sites\">\n<thead><tr><th class=\"num\" data-num=\"1\">Bytes</th>"
          "<th class=\"num\" data-num=\"1\">Allocations</th><th>Stack (innermost first)</th></tr></thead>\n<tbody>\n",
          out);
    for (size_t i = 0; i < s->n && i < TOP_SITES; i++) {
        char *line = rp_stack_line(s->v[i].stack);
        fprintf(out, "<tr><td class=\"num\" data-v=\"%" PRIu64 "\" title=\"%s\">%" PRIu64 "</td><td class=\"num\" "
                     "data-v=\"%" PRIu64 "\">%" PRIu64 "</td><td class=\"stack\">",
                s->v[i].bytes, rp_html_bytes(b, sizeof b, (double)s->v[i].bytes), s->v[i].bytes, s->v[i].count,
                s->v[i].count);
        rp_html_text(out, line ? line : "");
        fputs(s->v[i].stack && s->v[i].stack->nframes ? "</td></tr>\n" : "(no call stack recorded)</td></tr>\n", out);
        free(line);
    }
    fputs("</tbody></table></section>\n", out);
}

int rp_html_memory(FILE *out, struct rp_trace *t)
{
    struct rp_html_axis a;
    struct rp_memtrack m = {0}, at_peak = {0};
    struct rp_sites sites = {0};
    struct curve *cv = calloc(1, sizeof *cv);
    uint64_t peak_at = 0;
    int rc = 0;
    rp_html_axis_init(&a, t);
    if (!cv || (cv->a = &a, rc = rp_memtrack_replay(t, &m, 0, &peak_at, each, cv)) != 0)
        goto out;
    fputs("<section id=\"memory\"><h2>Device memory over time</h2>\n", out);
    if (!m.device.peak_bytes) {
        fputs("<p class=\"none\">No device memory was allocated in this trace.</p></section>\n", out);
        goto out;
    }
    char pb[32], pt[32], mb[32];
    const double peak = (double)m.device.peak_bytes;
    const unsigned top = 20, h = top + HEIGHT + 30;
    fprintf(out, "<p>The live bytes of device memory (every kind but pinned host memory and VMM mappings, as the "
                 "summary's \"total on device\") after each allocation and free; each pixel shows the most of its "
                 "time.</p>\n<svg class=\"memory\" viewBox=\"0 0 %d %u\" width=\"%d\" height=\"%u\" role=\"img\" "
                 "data-peak=\"%" PRIu64 "\" data-peak-time=\"%" PRId64 "\">\n",
            RP_HTML_WIDTH, h, RP_HTML_WIDTH, h, m.device.peak_bytes, m.device.peak_t - t->start_ns);
    fprintf(out, "<text class=\"label\" x=\"%d\" y=\"%u\">%s</text><text class=\"label\" x=\"%d\" y=\"%u\">0</text>"
                 "<rect class=\"idle\" x=\"%d\" y=\"%u\" width=\"%d\" height=\"%d\"/>\n",
            RP_HTML_LEFT - 6, top + 10, rp_html_bytes(mb, sizeof mb, peak), RP_HTML_LEFT - 6, top + HEIGHT,
            RP_HTML_LEFT, top, RP_HTML_BINS, HEIGHT);
    /* A step line: the bins' highest values, the last value carried over bins without a call. */
    fprintf(out, "<path class=\"live\" d=\"M%d %u", RP_HTML_LEFT, top + HEIGHT);
    uint64_t last = 0;
    for (int b = 0; b < RP_HTML_BINS; b++) {
        uint64_t v = cv->seen[b] ? cv->max[b] : last;
        fprintf(out, "V%.1fh1", top + HEIGHT - (double)v / peak * HEIGHT);
        if (cv->seen[b])
            last = cv->end[b];
    }
    fprintf(out, "V%u Z\"/>\n", top + HEIGHT);
    double x = RP_HTML_LEFT + rp_html_x(&a, m.device.peak_t);
    rp_html_bytes(pb, sizeof pb, peak);
    rp_html_duration(pt, sizeof pt, (double)(m.device.peak_t - t->start_ns));
    fprintf(out, "<line class=\"peak\" x1=\"%.1f\" y1=\"%u\" x2=\"%.1f\" y2=\"%u\"/><circle class=\"peak\" cx=\"%.1f\" "
                 "cy=\"%u\" r=\"4\"><title>peak: %" PRIu64 " bytes (%s) at %s</title></circle><text class=\"peak\" "
                 "x=\"%.1f\" y=\"%u\" text-anchor=\"%s\">peak %s at %s</text>\n",
            x, top, x, top + HEIGHT, x, top, m.device.peak_bytes, pb, pt,
            x > RP_HTML_LEFT + RP_HTML_BINS / 2 ? x - 6 : x + 6, top - 6,
            x > RP_HTML_LEFT + RP_HTML_BINS / 2 ? "end" : "start", pb, pt);
    rp_html_ticks(out, &a, top + HEIGHT);
    fputs("</svg>\n", out);
    if ((rc = rp_symbolize(t)) < 0 || (rc = rp_memtrack_replay(t, &at_peak, peak_at, NULL, NULL, NULL)) != 0 ||
        (rc = rp_sites_of_memory(&sites, t, &at_peak, 0, 1)) != 0)
        goto out;
    peak_sites(out, &sites);
    fputs("</section>\n", out);
out:
    if (rc < 0 || !cv)
        fprintf(stderr, "cudatrace-report: out of memory\n");
    free(cv);
    rp_sites_free(&sites);
    rp_memtrack_free(&m);
    rp_memtrack_free(&at_peak);
    return rc < 0 || !cv ? -1 : rc;
}
