/* What a program said about itself, as readers see it (format 6): NVTX events and names, the process's rank,
 * thread names; and the process record.  Decoded here, like every record, so that readers never touch record
 * bytes.  Each returns 1, or 0 (*out untouched) for a record of another type; readers get them from the
 * sequential reader (reader.h, ct_reader_nvtx, ...). */
#ifndef CT_FORMAT_ANNOT_H
#define CT_FORMAT_ANNOT_H

#include <stddef.h>
#include <stdint.h>

#include "cudatrace/format.h"

struct ct_nvtx_event {
    uint64_t t_ns;     /* CLOCK_MONOTONIC ns of the file's clock */
    uint64_t range_id; /* START/END */
    uint32_t tid, name_id, category, color;
    uint16_t domain;
    uint8_t kind;      /* enum ct_nvtx_kind */
    uint8_t has_color;
};
int ct_decode_nvtx(const struct ct_rec_hdr *h, struct ct_nvtx_event *out);

struct ct_nvtx_naming {
    unsigned what;     /* enum ct_nvtx_name_what */
    uint16_t domain;
    uint32_t category, name_id;
};
int ct_decode_nvtx_name(const struct ct_rec_hdr *h, struct ct_nvtx_naming *out);

struct ct_rank {
    int32_t rank, local_rank, world_size; /* -1: not known */
    unsigned source;   /* enum ct_rank_source */
};
int ct_decode_rank(const struct ct_rec_hdr *h, struct ct_rank *out);

struct ct_thread_name {
    uint32_t tid, name_id;
};
int ct_decode_thread(const struct ct_rec_hdr *h, struct ct_thread_name *out);

/* CT_REC_PROCESS: pointers into the record (not NUL terminated), valid while it is. */
struct ct_process {
    const char *host, *cmdline; /* the command line's arguments are separated by NUL */
    size_t host_len, cmdline_len;
    uint32_t argc;
};
int ct_decode_process(const struct ct_rec_hdr *h, struct ct_process *out);

/* CT_REC_COUNTED (format 7): a variant excluded from recording by CUDATRACE_APIS and its count so far (a
 * reader keeps the last of each api id). */
struct ct_counted {
    uint16_t api_id;
    uint64_t count;
};
int ct_decode_counted(const struct ct_rec_hdr *h, struct ct_counted *out);

#endif
