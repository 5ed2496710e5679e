/* Summary partials (summary --partial, doc/partials.md): the summary's state of one or more trace files --
 * each file's header facts (inputs.h) and aggregated tables (agg.h, gpu_agg.h) -- written to a file that any
 * summary reads again, alone or with traces and other partials, giving the tables the traces would.  The one
 * place that writes and reads the format. */
#ifndef CT_REPORT_SUMMARY_PARTIAL_H
#define CT_REPORT_SUMMARY_PARTIAL_H

#include <stddef.h>
#include <stdio.h>

#include "report/summary/agg.h"
#include "report/summary/inputs.h"

#define RP_PARTIAL_VERSION 1

/* Does the file begin with the partial's magic (trace.h)?  0 when not, or when it cannot be read (its reader
 * then says why). */
int rp_partial_is(const char *path);
/* The inputs and their aggregates (each file's own, with its memory changes), as a partial.  0, or -1 when out
 * of memory or when writing failed (ferror(f) then says which). */
int rp_partial_write(FILE *f, const struct rp_sum_input *in, const struct rp_agg *parts, size_t n);
/* The files of a partial, into malloc'ed arrays of *n inputs and aggregates.  RP_EXIT_OK; RP_EXIT_UNREADABLE
 * (missing, unreadable, not a partial, a version this reader does not know: nothing read) or RP_EXIT_DAMAGED
 * (truncated or corrupt: nothing read) or RP_EXIT_FAILED (out of memory), with a message on stderr. */
int rp_partial_read(const char *path, struct rp_sum_input **in, struct rp_agg **parts, size_t *n);

#endif
