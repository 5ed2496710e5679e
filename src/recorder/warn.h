/* One-line messages on stderr, prefixed "cudatrace: " (never stdout). Written with a single write(2), so
 * they do not interleave with the program's stdio buffering and need no lock. */
#ifndef CT_RECORDER_WARN_H
#define CT_RECORDER_WARN_H

void ct_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
