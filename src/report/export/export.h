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

#endif
