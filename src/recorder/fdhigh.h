/* The tracer's long-lived descriptors (the trace file, libunwind's pipe) live high, out of the program's
 * range: a program that closed 0 and 1 still gets them back from its next open(), and a program at a small
 * RLIMIT_NOFILE loses at most CT_FD_RESERVE of it, at the top.  A leaf: no other recorder file. */
#ifndef CT_RECORDER_FDHIGH_H
#define CT_RECORDER_FDHIGH_H

#define CT_FD_FLOOR 1000 /* where the tracer's descriptors go when the limit allows */
#define CT_FD_RESERVE 3  /* under a smaller limit, the top 3: the trace and libunwind's two */

/* Where the tracer's descriptors start: CT_FD_FLOOR, or the soft RLIMIT_NOFILE less CT_FD_RESERVE. */
int ct_fd_floor(void);
/* fd moved at or above the floor (close-on-exec), the old number closed; fd itself when no number there is
 * free.  Async-signal-safe. */
int ct_fd_move_high(int fd);
/* close(2) itself, past the descriptor hooks (fd_hooks.c): for the tracer's own descriptors. */
int ct_fd_close_raw(int fd);

/* Set while this thread starts libunwind: the pipe it opens is the tracer's, to be moved high (fd_hooks.c's
 * pipe and pipe2). */
extern __thread int ct_fd_own_pipes __attribute__((tls_model("initial-exec")));

#endif
