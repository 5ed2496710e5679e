/* The background writer: a thread that drains every CUDATRACE_FLUSH_MS, and sooner when nudged. */
#ifndef CT_RECORDER_WRITER_H
#define CT_RECORDER_WRITER_H

/* 0, or -1 when the thread cannot be made (then records are written at flushes and exit only). */
int ct_writer_start(unsigned flush_ms);
void ct_writer_stop(void);
/* Drain soon: a thread's ring is a quarter full (async-signal-safe; nothing when no writer runs). */
void ct_writer_nudge(void);
/* Have this thread collect GPU spans for a flush that may take no lock and call no driver function (a
 * signal handler's, exec's: recorder/gpu.h, ct_gpu_hand, enum ct_gpu_hand_how); waits up to
 * wait_ms for it (async-signal-safe).  0 when it was done, -1 when no writer runs or it did not answer. */
int ct_writer_hand_gpu(int how, unsigned wait_ms);
/* The child of a fork has no writer thread. */
void ct_writer_after_fork_child(void);

#endif
