/* Reading trace files: streaming, validated, bounded memory (one read buffer per open file).
 *
 *     struct ct_reader *r = ct_reader_open(path);          // NULL only when out of memory
 *     if (ct_reader_status(r) != CT_READ_OK) { puts(ct_reader_message(r)); ... }  // header refused
 *     const struct ct_rec_hdr *h;
 *     while ((h = ct_reader_next(r)))                       // records in file order, each checked
 *         ...;                                              // *h is valid until the next call
 *     if (ct_reader_status(r) != CT_READ_OK) ...            // stopped early: truncated/corrupt/io
 *     ct_reader_close(r);
 *
 * String and API ids are resolved after reading (a definition may follow its first use): collect them with
 * ct_names_add while streaming, or ct_reader_load_names for a pass of their own before the real one.
 */
#ifndef CT_FORMAT_READER_H
#define CT_FORMAT_READER_H

#include <stddef.h>
#include <stdint.h>

#include "cudatrace/format.h"
#include "format/annot.h"
#include "format/gpu.h"

struct ct_runs;

enum ct_read_status {
    CT_READ_OK = 0,     /* no problem so far (or a clean end) */
    CT_READ_IO,         /* cannot open or read the file */
    CT_READ_NOT_TRACE,  /* wrong magic */
    CT_READ_VERSION,    /* a format version this reader does not read */
    CT_READ_BYTE_ORDER, /* written on a host of the other byte order */
    CT_READ_BAD_HEADER, /* header fields that cannot be right */
    CT_READ_TRUNCATED,  /* the file ends inside the header or a record */
    CT_READ_CORRUPT,    /* a record failed validation */
    CT_READ_NOMEM,
};

struct ct_reader;

/* path "-" is standard input; input that cannot be read at an offset is copied first (input.h). */
struct ct_reader *ct_reader_open(const char *path);
/* Read the trace on `fd` (from offset 0, by pread: the descriptor may be shared; input.h makes one) under
 * `name` in messages.  The descriptor stays the caller's. */
struct ct_reader *ct_reader_open_fd(int fd, const char *name);
void ct_reader_close(struct ct_reader *r);

/* The next record, or NULL at the end of the data or where reading stopped (see ct_reader_status).  Every
 * call comes back decoded (decoder.h): as a CT_REC_CALL with its payload right after it and its times in
 * ns, a launch repeat of either size as the call it stands for; the CT_REC_CLOCK records are kept by the
 * decoder and never returned.  A call is a struct ct_call: (const struct ct_call *)h; a GPU record comes
 * as it is, its decoded form from ct_reader_gpu_span / ct_reader_gpu_info. */
const struct ct_rec_hdr *ct_reader_next(struct ct_reader *r);
/* Back to the first record (clears a truncation/corruption stop; header errors stay).  0 or -1. */
int ct_reader_rewind(struct ct_reader *r);

enum ct_read_status ct_reader_status(const struct ct_reader *r);
/* True for the statuses that refuse a file at its header (nothing can be read from it). */
int ct_read_status_is_fatal(enum ct_read_status st);
/* "PATH: what went wrong", e.g. "t.ctrace: truncated at byte 4242 (record of 48 bytes, 20 present)";
 * "" while the status is CT_READ_OK. */
const char *ct_reader_message(const struct ct_reader *r);
/* The file header; NULL unless it was read and accepted. */
const struct ct_file_header *ct_reader_header(const struct ct_reader *r);
/* File offset of the record last returned by ct_reader_next; after a stop, where reading stopped. */
uint64_t ct_reader_offset(const struct ct_reader *r);
/* That record's type as the file has it: CT_REC_LAUNCH_REPEAT or CT_REC_LAUNCH_SHORT for a repeat returned as
 * its call record. */
unsigned ct_reader_file_type(const struct ct_reader *r);
const char *ct_reader_path(const struct ct_reader *r);
/* The record last returned by ct_reader_next decoded (gpu.h), when it is a CT_REC_GPU or a CT_REC_GPU_INFO;
 * NULL for any other record. */
const struct ct_gpu_span *ct_reader_gpu_span(const struct ct_reader *r);
const struct ct_gpu_info *ct_reader_gpu_info(const struct ct_reader *r);
/* The record last returned decoded (annot.h), when it is of that type; NULL otherwise.  A process record's
 * strings point into the record: valid until the next ct_reader_next. */
const struct ct_nvtx_event *ct_reader_nvtx(const struct ct_reader *r);
const struct ct_nvtx_naming *ct_reader_nvtx_name(const struct ct_reader *r);
const struct ct_rank *ct_reader_rank(const struct ct_reader *r);
const struct ct_thread_name *ct_reader_thread(const struct ct_reader *r);
const struct ct_process *ct_reader_process(const struct ct_reader *r);
const struct ct_counted *ct_reader_counted(const struct ct_reader *r);
/* Launch repeats read so far whose payload was not known (its defining record was lost to a write error). */
uint64_t ct_reader_unknown_shapes(const struct ct_reader *r);

/* Build the index of where each thread's calls lie (runs.h) while reading, for a time-ordered merge
 * (merge.h): call before the first ct_reader_next.  0, or -1 when out of memory. */
int ct_reader_build_runs(struct ct_reader *r);
/* The index of what was read (finished; the caller frees it with ct_runs_free), or NULL when none was
 * being built.  After it, reading goes on without one. */
struct ct_runs *ct_reader_take_runs(struct ct_reader *r);

/* Several files, one after the other (each with its own header and names). */
struct ct_reader_set;
struct ct_reader_set *ct_reader_set_open(const char *const *paths, size_t n);
/* The next record of the current file, moving on to the next file at the end of one (or where it stopped);
 * *file (may be NULL) gets the index of the file the record came from. */
const struct ct_rec_hdr *ct_reader_set_next(struct ct_reader_set *s, size_t *file);
size_t ct_reader_set_count(const struct ct_reader_set *s);
struct ct_reader *ct_reader_set_file(struct ct_reader_set *s, size_t i);
void ct_reader_set_close(struct ct_reader_set *s);

/* Id -> name tables of one file. */
struct ct_api_info {
    const char *name;    /* "cuMemAlloc" */
    const char *variant; /* "cuMemAlloc_v2" */
    uint32_t version;
    uint16_t vflags;
    uint32_t family;
};

struct ct_names;
struct ct_names *ct_names_new(void);
void ct_names_free(struct ct_names *n);
/* Remember a CT_REC_STRING or CT_REC_API record (validated ones, as ct_reader_next returns); other types
 * are ignored.  A later definition of the same id replaces the earlier one.  0, or -1 when out of memory. */
int ct_names_add(struct ct_names *n, const struct ct_rec_hdr *rec);
/* The string of `id` (NUL terminated), or NULL if not defined; *kind (may be NULL) gets its ct_str_kind. */
const char *ct_names_string(const struct ct_names *n, uint32_t id, unsigned *kind);
const struct ct_api_info *ct_names_api(const struct ct_names *n, uint16_t api_id);

/* Read the rest of the file collecting its names, then rewind to the first record.  0, or -1 (out of memory
 * or the rewind failed); a truncated/corrupt tail only ends the collection early. */
int ct_reader_load_names(struct ct_reader *r, struct ct_names *n);

#endif
