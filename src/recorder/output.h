/* Naming and creating the trace file. */
#ifndef CT_RECORDER_OUTPUT_H
#define CT_RECORDER_OUTPUT_H

#include <stddef.h>

/* Expand CUDATRACE_OUTPUT: %p pid, %h host, %q{VAR} value of environment variable VAR (empty if unset), %%.
 * 0, or -1 for a bad template (another %-sequence, an unterminated %q{, an empty result, too long). */
int ct_output_expand(const char *tmpl, char *out, size_t len, long pid, const char *host);

/* The n-th alternative (n >= 1) to an existing `name`: n inserted before the extension of the last path
 * component ("dir/t-12.ctrace" -> "dir/t-12.1.ctrace"), or appended ("trace" -> "trace.1").  0 or -1. */
int ct_output_alt_name(const char *name, unsigned n, char *out, size_t len);

/* Create a new file exclusively (O_EXCL, never following a symlink, close-on-exec, write-only, `mode`):
 * `name` itself, or its first free alternative when it exists (same pid after exec).  Returns the fd and
 * the name used in `path`, or -1 with errno set. */
int ct_output_create(const char *name, unsigned mode, char *path, size_t len);

/* What `name` is when it exists and is neither a regular file nor a symbolic link ("a directory", "a
 * character device", ...), else NULL.  Such a name is no trace file: not even its alternatives are tried. */
const char *ct_output_not_a_file(const char *name);

#endif
