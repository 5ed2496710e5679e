/* Interned strings (kernel, thread and symbol names): one id per (kind, text) for the life of the process,
 * its CT_REC_STRING queued once (sticky, see meta.h).  Under a mutex: not for the per-call path. */
#ifndef CT_RECORDER_INTERN_H
#define CT_RECORDER_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "cudatrace/format.h"

/* The id of `s` (>= 1), or 0 when out of memory. `tid` goes in the record's header. */
uint32_t ct_intern(unsigned kind, const char *s, uint32_t tid);
/* A CT_REC_THREAD naming thread `tid` `name`, the name interned as above: 0, or -1 when out of memory. */
int ct_intern_thread(struct ct_rec_thread *t, uint32_t tid, const char *name);
/* Code point c as UTF-8 into b: its length, 1 to 4 ('?' for c past U+10FFFF).  How the text of NVTX's wide
 * messages and of Python's str objects becomes the UTF-8 that is interned. */
static inline size_t ct_utf8(uint32_t c, unsigned char b[4])
{
    if (c < 0x80) {
        b[0] = (unsigned char)c;
        return 1;
    }
    if (c < 0x800) {
        b[0] = (unsigned char)(0xC0 | c >> 6), b[1] = (unsigned char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        b[0] = (unsigned char)(0xE0 | c >> 12), b[1] = (unsigned char)(0x80 | (c >> 6 & 0x3F));
        b[2] = (unsigned char)(0x80 | (c & 0x3F));
        return 3;
    }
    if (c < 0x110000) {
        b[0] = (unsigned char)(0xF0 | c >> 18), b[1] = (unsigned char)(0x80 | (c >> 12 & 0x3F));
        b[2] = (unsigned char)(0x80 | (c >> 6 & 0x3F)), b[3] = (unsigned char)(0x80 | (c & 0x3F));
        return 4;
    }
    b[0] = '?';
    return 1;
}
/* Fork: held across fork() where it can be (forklock.h), so that the child gets a consistent table; 1 when taken.  After
 * fork: in the parent given back if taken, in the child made anew. */
int ct_intern_fork_lock(void);
void ct_intern_fork_unlock(int taken, int child);

#endif
