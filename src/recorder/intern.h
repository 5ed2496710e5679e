/* Interned strings (kernel, thread and symbol names): one id per (kind, text) for the life of the process,
 * its CT_REC_STRING queued once (sticky, see meta.h).  Under a mutex: not for the per-call path. */
#ifndef CT_RECORDER_INTERN_H
#define CT_RECORDER_INTERN_H

#include <stdint.h>

#include "cudatrace/format.h"

/* The id of `s` (>= 1), or 0 when out of memory. `tid` goes in the record's header. */
uint32_t ct_intern(unsigned kind, const char *s, uint32_t tid);
/* A CT_REC_THREAD naming thread `tid` `name`, the name interned as above: 0, or -1 when out of memory. */
int ct_intern_thread(struct ct_rec_thread *t, uint32_t tid, const char *name);
/* Held across fork so the child gets a consistent table. */
void ct_intern_lock(void);
void ct_intern_unlock(void);

#endif
