/* analyze's findings for the HTML report (export --format html, cmd/export.c): the rules with their default
 * thresholds, the findings as the csv table's rows, printed as an HTML table (model/html.h). */
#ifndef CT_REPORT_CMD_ANALYZE_H
#define CT_REPORT_CMD_ANALYZE_H

#include <stdio.h>

#include "report/model/trace.h"

/* RP_EXIT_OK, or RP_EXIT_FAILED / RP_EXIT_UNREADABLE (message printed). */
int rp_analyze_html(FILE *out, struct rp_trace *tr);

#endif
