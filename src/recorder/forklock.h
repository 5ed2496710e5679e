/* Locks held across fork by pthread_atfork's prepare handlers, taken only if they can be within a bound.
 * fork may be called from a signal handler that interrupted the lock's holder on this very thread, or
 * interrupted a thread that another holder waits on: waiting there would hang the program.  A lock not taken
 * may leave what it guards half changed in the child, which therefore is not traced (lifecycle.c). */
#ifndef CT_RECORDER_FORKLOCK_H
#define CT_RECORDER_FORKLOCK_H

#include <pthread.h>

/* Take mu for fork: 1 when taken (ct_fork_unlock it in the parent), 0 when it could not be. */
int ct_fork_lock(pthread_mutex_t *mu);
/* In the parent after fork: unlock mu if ct_fork_lock took it. */
void ct_fork_unlock(pthread_mutex_t *mu, int taken);
/* After fork, in the parent or the child: did any prepare handler of this fork fail to take its lock?  Reads
 * and clears it (the recorder's own handlers; the others only take and give back). */
int ct_fork_refused(void);

#endif
