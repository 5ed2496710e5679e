/* The calls of several trace files in time order: a k-way merge over every (file, thread), each read on
 * its own from the runs that a first, sequential pass found (runs.h) and decoded by a decoder of its own
 * (decoder.h).  Memory: per thread a 64 KiB read buffer and its launch shapes; never a copy of the records.
 *
 *     struct ct_merge *m = ct_merge_open(inputs, n, err, sizeof err);
 *     for (const struct ct_merged *c; (c = ct_merge_next(m));)
 *         ...;                                   // *c is valid until the next call
 *     ct_merge_close(m);
 */
#ifndef CT_FORMAT_MERGE_H
#define CT_FORMAT_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "format/call.h"
#include "format/runs.h"

struct ct_merge_input {
    const char *path;
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

/* Opens each file again.  NULL, with a message in err, when a file cannot be opened or memory is short. */
struct ct_merge *ct_merge_open(const struct ct_merge_input *in, size_t n, char *err, size_t errlen);
/* The next call in time order (ties: the file's index, then the call's sequence number), or NULL at the
 * end.  A file that became shorter since its first pass ends early, silently. */
const struct ct_merged *ct_merge_next(struct ct_merge *m);
void ct_merge_close(struct ct_merge *m);

/* Both passes for files of one host (offsets 0): reads each file through a reader that builds its runs,
 * then merges.  NULL with a message in err when a file cannot be read at all; a damaged file contributes
 * the calls before the damage.  The runs are freed with the merge. */
struct ct_merge *ct_merge_open_paths(const char *const *paths, size_t n, char *err, size_t errlen);

#endif
