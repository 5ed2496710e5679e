/* One-line messages on stderr, prefixed "cudatrace: " (never stdout). Written with a single write(2), so
 * they do not interleave with the program's stdio buffering and need no lock.
 *
 * "stderr" is the file the program had on descriptor 2 when the library was loaded, and only while
 * descriptor 2 still is that file: a program that closed it and opened a file of its own there never finds
 * our lines in its data.  Control characters in a message (a newline or an escape sequence in an echoed
 * environment value) are written escaped, so a message stays one line and never drives the terminal. */
#ifndef CT_RECORDER_WARN_H
#define CT_RECORDER_WARN_H

#include <stddef.h>

void ct_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Write `len` bytes of an already formatted message (a line or more) to stderr as above, unescaped.  A
 * stderr nobody reads any more (a closed pipe) drops the message: it never raises SIGPIPE in the program.
 * Async-signal-safe. */
void ct_say(const char *msg, size_t len);

/* Take descriptor 2 as it is now for the program's stderr: done at load; again by tests that redirect it. */
void ct_warn_take_stderr(void);

/* Copy n bytes of `in` to `out` (at most cap bytes), control characters written as \n, \t, \r, \e or \xHH;
 * returns the bytes written.  Async-signal-safe. */
size_t ct_escape(const char *in, size_t n, char *out, size_t cap);

#endif
