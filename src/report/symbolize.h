/* Symbolization of the call stacks of a trace: each frame's module (from the trace's module map), function
 * (the module file's ELF symbols, demangled) and source line (addr2line from binutils, one run per module,
 * when it is installed and the module has debug info; CUDATRACE_ADDR2LINE names another program, or is set
 * empty to skip source lines).  Modules that changed since the trace (another build id) are not symbolized. */
#ifndef CT_REPORT_SYMBOLIZE_H
#define CT_REPORT_SYMBOLIZE_H

#include <stdio.h>

#include "report/stacktab.h"
#include "report/trace.h"

/* Resolve every frame of every stack of every file (once; later calls return at once).  0, or -1 when out of
 * memory (message printed). */
int rp_symbolize(struct rp_trace *t);

/* "vecAlloc+0x1d (leak_drv.c:42) [leak_drv]": one line of a printed stack, into buf. */
const char *rp_frame_text(const struct rp_frame *fr, char *buf, size_t size);
/* {"address":"0x..","function":"..","offset":N,"module":"..","file":"..","line":N} (absent parts left out). */
void rp_frame_json(FILE *out, const struct rp_frame *fr);
/* A stack as a JSON array of frames. */
void rp_stack_json(FILE *out, const struct rp_stack *s);

/* A stack as text, one frame a line ("INDENT#0 frame"); a line saying so when it has no frames (NULL: none
 * was recorded). */
void rp_stack_text(FILE *out, const struct rp_stack *s, const char *indent);
/* A stack on one line, frames joined by " | " (CSV), malloc'ed; NULL when out of memory. */
char *rp_stack_line(const struct rp_stack *s);

/* What identifies a call site across processes and address layouts: the module path and offset of each
 * frame ("/bin/app+0x1234;..."), malloc'ed; "" for a stack without frames.  NULL when out of memory. */
char *rp_stack_key(const struct rp_stack *s);

#endif
