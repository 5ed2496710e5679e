/* The calls of several trace files in time order: a k-way merge over every (file, thread), each read on
 * its own from the runs that a first, sequential pass found (runs.h).  Each file is read through the one
 * descriptor its first pass read (input.h) and decoded by one decoder (decoder.h), which keeps each thread's
 * state apart.  Memory: per thread a cursor and a read buffer no larger than its runs need, within a budget
 * shared by all (freed when the thread's calls are done); never a copy of the records.
 *
 *     struct ct_merge *m = ct_merge_open(inputs, n, err, sizeof err);
 *     for (const struct ct_merged *c; (c = ct_merge_next(m));)
 *         ...;                                   // *c is valid until the next call
 *     if (ct_merge_error(m)) ...;                // a read error: the calls given were not all
 *     ct_merge_close(m);
 */
#ifndef CT_FORMAT_MERGE_H
#define CT_FORMAT_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "format/call.h"
#include "format/runs.h"

struct ct_merge_input {
    int fd;                     /* the file, read by pread (input.h); it stays the caller's */
    const char *name;           /* for messages */
    const struct ct_runs *runs; /* the finished index of that file; it must outlive the merge */
    int64_t offset_ns;          /* added to its times to put them on a common clock (files of other hosts) */
};

struct ct_merged {
    struct ct_call call; /* times as in the file (CLOCK_MONOTONIC ns of its host) */
    int64_t t0, t1;      /* the same with the file's offset added: the order of the merge */
    size_t file;         /* index of its input */
    size_t thread;       /* index of its thread in that input's runs->threads */
};

struct ct_merge;

/* NULL, with a message in err, when memory is short.  A read error already here is one for ct_merge_next. */
struct ct_merge *ct_merge_open(const struct ct_merge_input *in, size_t n, char *err, size_t errlen);
/* The next call in time order (ties: the file's index, then the call's sequence number), or NULL at the
 * end or at a read error (ct_merge_error). */
const struct ct_merged *ct_merge_next(struct ct_merge *m);
/* NULL, or "NAME: what went wrong" when a file could not be read (an I/O error, or it is shorter than its
 * first pass saw): ct_merge_next stopped there and gives nothing more. */
const char *ct_merge_error(const struct ct_merge *m);
void ct_merge_close(struct ct_merge *m);

/* Both passes for files of one host (offsets 0): opens each file once (input.h; "-" is standard input),
 * reads it through a reader that builds its runs, then merges.  NULL with a message in err when a file
 * cannot be read at all; a damaged file contributes the calls before the damage.  The runs and the
 * descriptors go with the merge. */
struct ct_merge *ct_merge_open_paths(const char *const *paths, size_t n, char *err, size_t errlen);

#endif
