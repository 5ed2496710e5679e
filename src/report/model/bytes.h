/* A growable byte buffer of little-endian integers and LEB128 varints, and a bounded reader of the same: the
 * one encoding of what the report keeps in bytes (a file's memory changes, summary partials: doc/partials.md). */
#ifndef CT_REPORT_MODEL_BYTES_H
#define CT_REPORT_MODEL_BYTES_H

#include <stddef.h>
#include <stdint.h>

struct rp_bytes {
    unsigned char *p;
    size_t n, cap;
    int oom; /* a put could not grow the buffer: its content is incomplete */
};

void rp_put_raw(struct rp_bytes *b, const void *p, size_t n);
void rp_put_u8(struct rp_bytes *b, uint8_t v);
void rp_put_u32le(struct rp_bytes *b, uint32_t v);
void rp_put_u64le(struct rp_bytes *b, uint64_t v);
void rp_put_var(struct rp_bytes *b, uint64_t v);           /* LEB128 */
void rp_put_svar(struct rp_bytes *b, int64_t v);           /* zigzag, then LEB128 */
void rp_put_str(struct rp_bytes *b, const char *s);        /* varint length, the bytes (no NUL) */
void rp_put_f64(struct rp_bytes *b, double v);             /* IEEE double, 8 bytes little-endian */
void rp_bytes_free(struct rp_bytes *b);

/* Reading: every get past the end, or of a malformed varint, sets bad and returns 0 (or "" for a string). */
struct rp_rd {
    const unsigned char *p, *end;
    int bad;
};
/* A reader of the n bytes at p; p may be NULL when n is 0 (an empty buffer: no pointer arithmetic on it). */
static inline struct rp_rd rp_rd_of(const void *p, size_t n)
{
    const unsigned char *b = p;
    return (struct rp_rd){b, b ? b + n : b, 0};
}
uint8_t rp_get_u8(struct rp_rd *r);
uint32_t rp_get_u32le(struct rp_rd *r);
uint64_t rp_get_u64le(struct rp_rd *r);
uint64_t rp_get_var(struct rp_rd *r);
int64_t rp_get_svar(struct rp_rd *r);
double rp_get_f64(struct rp_rd *r);
/* A count of things each at least min_bytes long, at most max: more than the bytes left could hold, or
 * than max, is corruption (bad set, 0). */
uint64_t rp_get_count(struct rp_rd *r, size_t min_bytes, uint64_t max);
/* A string: malloc'ed and NUL-terminated (NULL when out of memory, or bad). */
char *rp_get_str(struct rp_rd *r);
/* n bytes in place, NULL when fewer are left (bad set). */
const void *rp_get_raw(struct rp_rd *r, size_t n);

/* CRC-32 (IEEE 802.3, as zlib's crc32) of n bytes, continuing from crc (0 to begin). */
uint32_t rp_crc32(uint32_t crc, const void *p, size_t n);

#endif
