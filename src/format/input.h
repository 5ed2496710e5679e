/* A trace file opened once for reading at any offset: every reader works from the descriptor this gives,
 * never by opening the path again.
 *
 * A regular file is used as it is.  Input that cannot be read twice or at an offset (a pipe, a FIFO, a
 * character device, "-" for standard input, /dev/stdin or /proc/self/fd/N naming one of those) is first
 * copied into an unlinked temporary file in $TMPDIR (default /tmp), which goes away when it is closed; input
 * whose first bytes are not a trace's magic only up to there, so that the reader refuses it as it would the
 * file, and endless input (/dev/zero) is refused at once. */
#ifndef CT_FORMAT_INPUT_H
#define CT_FORMAT_INPUT_H

#include <stddef.h>

/* The display name of `path`: "standard input" for "-", else the path itself. */
const char *ct_input_name(const char *path);
/* A descriptor of the file's bytes from offset 0, for pread; the caller closes it.  -1 with "NAME: why" in
 * err (a missing or unreadable file, a directory, no room for the temporary copy).  A FIFO blocks here until
 * its writer opens it, as for any reader, and is read to its end once. */
int ct_input_open(const char *path, char *err, size_t errlen);

#endif
