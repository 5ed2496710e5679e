/* The formats of `cudatrace-report export`, one file each. */
#ifndef CT_REPORT_EXPORT_EXPORT_H
#define CT_REPORT_EXPORT_EXPORT_H

#include <stdio.h>

#include "report/model/trace.h"

/* Each writes every call of the trace, streaming (nothing per call is kept); 0, -1 (message printed), or
 * RP_EXIT_UNREADABLE when a file could not be read to its end (message printed). */
int rp_export_chrome(FILE *out, struct rp_trace *t);
int rp_export_csv(FILE *out, struct rp_trace *t);
int rp_export_jsonl(FILE *out, struct rp_trace *t);
int rp_export_perfetto(FILE *out, struct rp_trace *t);
/* SQLite needs a file of its own, not a stream: it writes `path` (replaced if it exists; message printed on
 * failure, which leaves no file).  Only where configure found SQLite (HAVE_SQLITE). */
int rp_export_sqlite(const char *path, struct rp_trace *t);

/* The HTML report (export --format html, put together by cmd/export.c with the summary's tables as HTML):
 * the page's head, style and navigation; its end with the script; and the charts, each a <section>.  The
 * charts are drawn from pixel-wide bins of the run (html_chart.h), so their size is bounded whatever the
 * number of calls.  The rp_html_* returning int give 0, -1 (message printed) or RP_EXIT_UNREADABLE. */
void rp_html_begin(FILE *out, const struct rp_trace *t);
void rp_html_end(FILE *out);
/* The GPU timeline: per device and stream, busy time per pixel; NVTX ranges above (html_timeline.c). */
int rp_html_timeline(FILE *out, struct rp_trace *t);
/* Device memory over time, its peak and the call sites holding it (html_memory.c). */
int rp_html_memory(FILE *out, struct rp_trace *t);
/* Do the files hold more than one rank?  Then rp_html_ranks draws each rank's GPU time and calls. */
int rp_html_ranked(const struct rp_trace *t);
int rp_html_ranks(FILE *out, const struct rp_trace *t);

#endif
