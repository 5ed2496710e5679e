/* What a module file says about addresses in it: the back end of symbolize.c, one of two by the build.
 * symbols_dw.c (elfutils libdw): function and offset, source line and the functions inlined there, from the
 * file or its separate debug file (by build id under the debug directories, or by .gnu_debuglink).
 * symbols_elf.c (built without libdw): function and offset from the file's ELF symbol tables (elfsym.c). */
#ifndef CT_REPORT_SYMBOLS_SYMBOLS_H
#define CT_REPORT_SYMBOLS_SYMBOLS_H

#include <stddef.h>
#include <stdio.h>

#include "report/model/stacktab.h"
#include "report/model/text.h"

/* Fill function, offset, srcfile, line and inlined of frames[0..n), all frames of `mod` at distinct
 * addresses.  A file whose build id differs from the trace's is not read (a message says so).  0, or -1
 * when out of memory. */
int rp_symbols_resolve(const struct rp_module *mod, struct rp_frame **frames, size_t n);

/* The message of a module file whose build id differs from the trace's.  The path is the trace's: shown
 * escaped, so that no control character in it reaches the terminal. */
static inline void rp_symbols_say_changed(const char *path)
{
    fputs("cudatrace-report: ", stderr);
    rp_text_put(stderr, path);
    fputs(" changed since the trace (another build id): its frames are not symbolized\n", stderr);
}

/* Where the frame's return address lies in the module file, less one: the call instruction. */
static inline uint64_t rp_frame_file_addr(const struct rp_frame *fr) { return fr->addr - fr->module->base - 1; }

#endif
