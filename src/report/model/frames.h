/* The frames of symbolized stacks (symbols/symbolize.h fills them in) as people read them: one frame, a whole
 * stack as text, on one line or as JSON, and the key that identifies a call site across processes. */
#ifndef CT_REPORT_MODEL_FRAMES_H
#define CT_REPORT_MODEL_FRAMES_H

#include <stdio.h>

#include "report/model/stacktab.h"

/* Level `level` of a frame as one line of a printed stack, into buf: "vecAlloc+0x1d (leak_drv.c:42)
 * [leak_drv]" for the frame itself (level ninlined), "fill (inlined) (leak_drv.c:30) [leak_drv]" for an
 * inlined function (level < ninlined); "model.py:142 Net.forward" for a Python frame. */
const char *rp_frame_text(const struct rp_frame *fr, unsigned level, char *buf, size_t size);
/* The index of the innermost Python frame of user code in s (not of an installed package, the standard
 * library or a frozen module: frames.c says how each is told); failing that of its innermost Python
 * frame; -1 when it has none. */
int rp_py_user_frame(const struct rp_stack *s);
/* {"address":"0x..","function":"..","offset":N,"module":"..","file":"..","line":N} (absent parts left out);
 * an inlined level has "inlined":true and no offset; a Python frame is {"python":true,"function":..,"file":..,
 * "line":N}. */
void rp_frame_json(FILE *out, const struct rp_frame *fr, unsigned level);
/* A stack as a JSON array of frames. */
void rp_stack_json(FILE *out, const struct rp_stack *s);

/* A stack as text, one frame a line ("INDENT#0 frame"); a line saying so when it has no frames (NULL: none
 * was recorded). */
void rp_stack_text(FILE *out, const struct rp_stack *s, const char *indent);
/* A stack on one line, frames joined by " | " (CSV), malloc'ed; NULL when out of memory. */
char *rp_stack_line(const struct rp_stack *s);

/* Folded stacks (flamegraph.pl, inferno, speedscope): a line is "root;...;leaf WEIGHT".  rp_stack_folded writes
 * the frames of s root first, each joined by ';' (nothing for NULL or no frames): a native frame as its
 * function ("vecAlloc"; an inlined one the same), "0x1234 [module]" when none was found; a Python frame as
 * "Net.forward (model.py:142)".  rp_folded_name writes one name as a frame: ';' becomes ',' and control
 * characters (line breaks) '?', so that a name never splits a line or a frame. */
void rp_stack_folded(FILE *out, const struct rp_stack *s);
void rp_folded_name(FILE *out, const char *name);

/* What identifies a call site across processes and address layouts: the module path and offset of each
 * frame ("/bin/app+0x1234;..."), malloc'ed; "" for a stack without frames.  NULL when out of memory. */
char *rp_stack_key(const struct rp_stack *s);

#endif
