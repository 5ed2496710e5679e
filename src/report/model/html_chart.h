/* What the HTML report's charts share (export/html_timeline.c, export/html_memory.c): the time axis of the run,
 * cut into pixel-wide bins, so that a chart's size depends on its width, never on the number of calls. */
#ifndef CT_REPORT_MODEL_HTML_CHART_H
#define CT_REPORT_MODEL_HTML_CHART_H

#include <stdint.h>
#include <stdio.h>

#include "report/model/trace.h"

#define RP_HTML_BINS 1000  /* bins, one per pixel of a chart's plot */
#define RP_HTML_LEFT 230   /* pixels left of the plot, for the rows' labels */
#define RP_HTML_WIDTH (RP_HTML_LEFT + RP_HTML_BINS + 20)

struct rp_html_axis {
    int64_t start, end; /* report clock */
    double bin_ns;      /* (end - start) / RP_HTML_BINS, at least 1 ns in all */
};

void rp_html_axis_init(struct rp_html_axis *a, const struct rp_trace *t);
/* The bin of report time t, clamped to the run. */
int rp_html_bin(const struct rp_html_axis *a, int64_t t);
/* The x of report time t, in pixels from the plot's left edge (RP_HTML_LEFT). */
double rp_html_x(const struct rp_html_axis *a, int64_t t);
/* Ticks and their labels (time since the trace start) under a plot whose rows end at y. */
void rp_html_ticks(FILE *out, const struct rp_html_axis *a, unsigned y);

#endif
