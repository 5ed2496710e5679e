/* Interned strings (kernel, thread and symbol names): one id per (kind, text) for the life of the process,
 * its CT_REC_STRING queued once (sticky, see meta.h).  Under a mutex: not for the per-call path. */
#ifndef CT_RECORDER_INTERN_H
#define CT_RECORDER_INTERN_H

#include <stdint.h>

/* The id of `s` (>= 1), or 0 when out of memory. `tid` goes in the record's header. */
uint32_t ct_intern(unsigned kind, const char *s, uint32_t tid);
/* Held across fork so the child gets a consistent table. */
void ct_intern_lock(void);
void ct_intern_unlock(void);

#endif
