/* HTML for the report page (export --format html): text from the trace escaped, durations and byte counts
 * for people, and summary tables as sortable HTML tables, with a bar chart of the tables that share time
 * out (a Time (%) column). */
#ifndef CT_REPORT_MODEL_HTML_H
#define CT_REPORT_MODEL_HTML_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/model/table.h"

/* s as HTML text or attribute value: & < > " ' as character references, each control character (C0, DEL)
 * as \xHH in the text, so that no name from the trace (thread, kernel, NVTX message, frame) adds markup or
 * script. */
void rp_html_text(FILE *out, const char *s);
/* At most `max` characters (UTF-8 sequences kept whole) of s escaped, with "..." when cut: labels in charts. */
void rp_html_text_cut(FILE *out, const char *s, size_t max);
/* "1.23 ms", "12.0 s", "850 ns" */
const char *rp_html_duration(char *buf, size_t size, double ns);
/* "1.50 GiB", "512 B" */
const char *rp_html_bytes(char *buf, size_t size, double bytes);

/* The table as <section class="table"> with its title and a <table class="sortable" data-key="KEY">: each
 * numeric cell's data-v the number as the summary's JSON has it, shown with grouped digits.  A table whose
 * first column is Time (%) (api, gpu_kernels, gpu_copies_time, nvtx) gets a bar chart of its first rows'
 * totals before it. */
void rp_table_html(const struct rp_table *t, FILE *out);

#endif
