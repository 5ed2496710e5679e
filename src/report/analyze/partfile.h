/* Analyze partials (analyze --partial, doc/partials.md): the parts (part.h) of one or more files and the
 * threshold options they were made under, in a file that analyze reads again, alone or with traces and other
 * analyze partials.  The one place that writes and reads the format. */
#ifndef CT_REPORT_ANALYZE_PARTFILE_H
#define CT_REPORT_ANALYZE_PARTFILE_H

#include <stddef.h>
#include <stdio.h>

#include "report/analyze/part.h"

#define RP_AN_PARTIAL_VERSION 1

/* Does the file begin with an analyze partial's magic (trace.h)?  0 when not or when it cannot be read. */
int rp_an_partial_is(const char *path);
/* NULL when every time of p fits a partial (the reader refuses one that does not), else which time does not:
 * a trace's time so far from boot is corrupt. */
const char *rp_an_part_misfit(const struct rp_an_part *p);
/* p, which does not fit (misfit says why), emptied to what the partial keeps of it: its file's name, host,
 * pid and rank, no call, no record, and the message `damage` (taken: freed with p), which every analyze of the
 * partial prints, exiting 3, as for a part made from a damaged trace. */
void rp_an_part_leave_out(struct rp_an_part *p, char *damage);
/* Is p such a stub, or any part of which nothing was read and the reader said why (a trace cut within its
 * first record): a message, no call, no record?  Analyze says the message and leaves the part out of what it
 * analyzes (its clock alone would move the run's start); a partial it writes keeps it. */
int rp_an_part_left_out(const struct rp_an_part *p);
/* n parts made under o, as a partial.  0, or -1 when out of memory or writing failed (ferror(f) says which). */
int rp_an_partial_write(FILE *f, const struct rp_an_mapopts *o, const struct rp_an_part *p, size_t n);
/* The parts of a partial into a malloc'ed array of *n, and its options (o->step_range malloc'ed).  RP_EXIT_OK;
 * RP_EXIT_UNREADABLE (missing, unreadable, not an analyze partial, an unknown version), RP_EXIT_DAMAGED
 * (truncated or corrupt) or RP_EXIT_FAILED (out of memory), nothing read, with a message on stderr. */
int rp_an_partial_read(const char *path, struct rp_an_mapopts *o, struct rp_an_part **p, size_t *n);

#endif
