/* Building and checking the records of include/cudatrace/format.h: shared by the recorder (which writes
 * them), the reader and the tests, so the two ends agree on sizes, padding and bounds in one place. */
#ifndef CT_FORMAT_RECORD_H
#define CT_FORMAT_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cudatrace/format.h"

/* Largest record: the size field is 16 bits and sizes are multiples of 8. */
#define CT_REC_MAX_SIZE 65528u

static inline size_t ct_pad8(size_t n) { return (n + 7u) & ~(size_t)7u; }

static inline void ct_put_hdr(struct ct_rec_hdr *h, unsigned type, size_t size, uint32_t tid)
{
    h->marker = CT_REC_MARKER;
    h->type = (uint8_t)type;
    h->size = (uint16_t)size;
    h->tid = tid;
}

/* A whole CT_REC_LOST record (times as the writer has them: ticks in a ring, ns in the file). */
static inline void ct_put_lost(struct ct_rec_lost *l, uint32_t tid, uint64_t count, uint64_t t_first,
                               uint64_t t_last, unsigned reason)
{
    memset(l, 0, sizeof *l);
    ct_put_hdr(&l->h, CT_REC_LOST, sizeof *l, tid);
    l->count = count;
    l->t_first_ns = t_first;
    l->t_last_ns = t_last;
    l->reason = reason;
}

/* Fill a file header for the current build (magic, version, byte order, tracer version). */
void ct_file_header_init(struct ct_file_header *fh, uint32_t pid, uint32_t ppid, uint32_t features,
                         int64_t start_wall_ns, int64_t start_mono_ns);

/* Variable-length records: ct_size_* gives the record size for the given lengths (lengths beyond what the
 * 16-bit fields and CT_REC_MAX_SIZE allow are cut by ct_put_*; ct_size_* accounts for the cut). */
size_t ct_size_string(size_t len);
void ct_put_string(void *rec, uint32_t tid, uint32_t id, unsigned kind, const char *s, size_t len);

size_t ct_size_api(size_t name_len, size_t variant_len);
void ct_put_api(void *rec, uint16_t api_id, const char *name, const char *variant, uint32_t version,
                uint16_t vflags, uint32_t family);

/* cmdline: arguments separated (and usually ended) by NUL, as /proc/self/cmdline holds them. */
size_t ct_size_process(size_t host_len, size_t cmdline_len);
void ct_put_process(void *rec, const char *host, size_t host_len, const char *cmdline, size_t cmdline_len);

/* A call stack of `nframes` addresses (at most CT_STACK_MAX_FRAMES), innermost first. */
#define CT_STACK_MAX_FRAMES 256u
size_t ct_size_stack(size_t nframes);
void ct_put_stack(void *rec, uint32_t tid, uint32_t id, const uint64_t *frames, size_t nframes, unsigned trimmed);

/* The Python frames of stack `id` (at most CT_STACK_MAX_FRAMES). */
size_t ct_size_pystack(size_t nframes);
void ct_put_pystack(void *rec, uint32_t tid, uint32_t id, const struct ct_py_frame *frames, size_t nframes);

/* A module: path (cut to fit), build id (cut to CT_BUILD_ID_MAX bytes). */
size_t ct_size_module(size_t path_len);
void ct_put_module(void *rec, uint64_t base, uint64_t lo, uint64_t hi, const char *path, size_t path_len,
                   const uint8_t *build_id, size_t build_id_len, unsigned flags);

/* Smallest valid size of a record of a known type (0 for types this build does not know). */
size_t ct_rec_min_size(unsigned type);

/* Check a record whose first `avail` bytes are readable (avail >= sizeof(struct ct_rec_hdr)): marker, size
 * (>= 8, multiple of 8, within avail), the known types' fixed part and their length fields.  Returns NULL if
 * it is sound, otherwise a short reason.  Unknown types with a sound header pass (readers skip them). */
const char *ct_rec_check(const struct ct_rec_hdr *h, size_t avail);

/* A record that stands for one call (the END record counts them): a call, a launch repeat or a short call. */
static inline int ct_rec_is_call(unsigned type)
{
    return type == CT_REC_CALL || type == CT_REC_LAUNCH_REPEAT || type == CT_REC_LAUNCH_SHORT ||
           type == CT_REC_CALL_SHORT;
}

/* Size of the payload struct a call record of this family carries (0 for none or unknown). */
size_t ct_payload_size(unsigned family);

#endif
