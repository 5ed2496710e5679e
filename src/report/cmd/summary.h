/* The summary's tables for the HTML report (export --format html, cmd/export.c): the same aggregation and
 * rows as `summary`, printed as HTML tables (model/html.h), so that the page's numbers are the summary's. */
#ifndef CT_REPORT_CMD_SUMMARY_H
#define CT_REPORT_CMD_SUMMARY_H

#include <stdio.h>

#include "report/model/trace.h"

enum rp_summary_part {
    RP_SUMMARY_HEADER,  /* the header table */
    RP_SUMMARY_GPU,     /* gpu_kernels, gpu_copies_time, gpu_copies_size */
    RP_SUMMARY_HOST,    /* nvtx, api, api_counted, kernels, kernel_shapes, copies, memory, errors */
    RP_SUMMARY_BY_RANK, /* the spread of the ranks' API, kernel and GPU kernel times (summary --by rank) */
};

/* At most `top` rows per table (0: all), times in ns, as `summary --format json --top TOP` has them.
 * RP_EXIT_OK, or RP_EXIT_FAILED / RP_EXIT_UNREADABLE (message printed). */
int rp_summary_html(FILE *out, struct rp_trace *tr, enum rp_summary_part part, unsigned long long top);

#endif
