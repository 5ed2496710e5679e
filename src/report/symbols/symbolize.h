/* Symbolization of the call stacks of a trace: each frame's module (from the trace's module map), then from
 * the module's file (symbols.h: libdw, or the ELF symbol tables without it) its function (demangled), source
 * line and the functions inlined at the address.  Modules that changed since the trace (another build id)
 * are not symbolized.  An inlined function is shown as a frame of its own, before the frame it is in: a
 * frame shows as ninlined + 1 lines, its levels 0..ninlined. */
#ifndef CT_REPORT_SYMBOLS_SYMBOLIZE_H
#define CT_REPORT_SYMBOLS_SYMBOLIZE_H

#include <stdio.h>

#include "report/model/stacktab.h"
#include "report/model/trace.h"

/* Resolve every frame of every stack of every file (once; later calls return at once).  0, or -1 when out of
 * memory (message printed). */
int rp_symbolize(struct rp_trace *t);

#endif
