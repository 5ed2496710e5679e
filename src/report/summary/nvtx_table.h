/* summary's nvtx table, as nsys nvtx_sum: per range (style, domain and message), Time (%), Total Time,
 * Instances, Avg, Med, Min, Max, StdDev, Style (PushPop, StartEnd) and Range (DOMAIN:MESSAGE, ":MESSAGE" in
 * the default domain).  Read from the files' ranges (pass 1): no pass over the calls. */
#ifndef CT_REPORT_SUMMARY_NVTX_TABLE_H
#define CT_REPORT_SUMMARY_NVTX_TABLE_H

#include "report/summary/parts.h"
#include "report/model/trace.h"

/* The range's name as the table shows it, into buf. */
const char *rp_nvtx_range_name(const struct rp_file *f, const struct rp_nvtx_range *r, char *buf, size_t size);
/* A file's ranges into rows of "STYLE\tDOMAIN:MESSAGE" (added to r's).  0 or -1 (out of memory). */
int rp_nvtx_rows_of_file(struct rp_named_rows *r, const struct rp_file *f);
/* The table of every file's rows, merged. */
void rp_nvtx_print(struct rp_sum_out *o, struct rp_named_rows *rows);

#endif
