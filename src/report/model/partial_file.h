/* The file around a partial's payload (doc/partials.md): a 32-byte header (magic, version, flags, the
 * payload's length and CRC-32, the header's CRC-32), then the payload.  Summary partials and analyze
 * partials differ in magic, version and payload only: summary/partial.c and analyze/partfile.c encode the
 * payloads, this file the rest. */
#ifndef CT_REPORT_MODEL_PARTIAL_FILE_H
#define CT_REPORT_MODEL_PARTIAL_FILE_H

#include <stdint.h>
#include <stdio.h>

#include "report/model/bytes.h"

struct rp_partial_kind {
    const char *magic; /* RP_PARTIAL_MAGIC_LEN bytes (trace.h) */
    uint32_t version;  /* the one this reader reads and writes */
    const char *name;  /* "summary", "analyze": in messages */
};

/* Does the file begin with the kind's magic?  0 when not, or when it cannot be read (its reader says why). */
int rp_partial_file_is(const char *path, const struct rp_partial_kind *k);
/* The header for `payload`, then the payload.  0, or -1 when out of memory or writing failed (ferror(f)). */
int rp_partial_file_write(FILE *f, const struct rp_partial_kind *k, const struct rp_bytes *payload);
/* The whole file, its header checked: RP_EXIT_OK with *buf (malloc'ed: the caller frees it) and *payload
 * reading the payload; else RP_EXIT_UNREADABLE (missing, unreadable, not of this kind, another version),
 * RP_EXIT_DAMAGED (truncated, a checksum that does not hold) or RP_EXIT_FAILED (out of memory), with a
 * message on stderr and nothing kept. */
int rp_partial_file_read(const char *path, const struct rp_partial_kind *k, unsigned char **buf,
                         struct rp_rd *payload);
/* The message for a payload whose checksum holds but which does not decode. */
void rp_partial_file_faulty(const char *path, const struct rp_partial_kind *k);

#endif
