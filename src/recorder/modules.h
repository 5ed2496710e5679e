/* The process's module map for the report's symbolization: every loaded ELF object (path, load bias,
 * address range, GNU build id) is written once as CT_REC_MODULE (sticky meta record), and again when it is
 * loaded again after another object took its range.  An object loaded where an unloaded one lay (same range,
 * another name or build id) gets a record of its own; the report maps a stack's frames with the records
 * before the stack's.  Scanned with dl_iterate_phdr at start and again, when the loader's add/remove
 * counters moved, for each new stack (stacks.c's insert: not on the hot path).  Called with the stack
 * table's lock held (stacks.c): not thread-safe itself. */
#ifndef CT_RECORDER_MODULES_H
#define CT_RECORDER_MODULES_H

#include <stdint.h>

/* Scan the loaded objects, writing a record for each new one.  `force`: scan even if the loader's counters
 * did not move. */
void ct_modules_scan(int force);

/* 1 when `addr` lies in the tracer, libunwind, the driver (libcuda.so*) or the CUDA runtime (libcudart.so*),
 * 0 when in another known module, -1 when in none known. */
int ct_modules_internal(uint64_t addr);

/* 1 when `addr` lies in an internal module (as ct_modules_internal says 1) scanned already, else 0; without
 * a lock, for the hot path.  It may say 0 where ct_modules_internal would say 1 (a module not scanned yet,
 * more internal modules than it keeps) and, after a dlclose, 1 where it would say 0 (an internal module's
 * range reused). */
int ct_modules_internal_hot(uint64_t addr);

#endif
