#include "config.h"

#include "report/model/bytes.h"

#include <stdlib.h>
#include <string.h>

#include "format/grow.h"

void rp_put_raw(struct rp_bytes *b, const void *p, size_t n)
{
    if (b->oom || !n)
        return;
    unsigned char *q = ct_grow(b->p, &b->cap, b->n + n, 1);
    if (!q) {
        b->oom = 1;
        return;
    }
    b->p = q;
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

void rp_put_u8(struct rp_bytes *b, uint8_t v) { rp_put_raw(b, &v, 1); }

/* The low n bytes of v, least significant first. */
static void put_le(struct rp_bytes *b, uint64_t v, unsigned n)
{
    unsigned char c[8];
    for (unsigned i = 0; i < n; i++)
        c[i] = (unsigned char)(v >> (8 * i));
    rp_put_raw(b, c, n);
}

void rp_put_u32le(struct rp_bytes *b, uint32_t v) { put_le(b, v, 4); }

void rp_put_u64le(struct rp_bytes *b, uint64_t v) { put_le(b, v, 8); }

void rp_put_var(struct rp_bytes *b, uint64_t v)
{
    unsigned char c[10];
    size_t n = 0;
    do {
        c[n] = (unsigned char)(v & 0x7f);
        v >>= 7;
        c[n++] |= v ? 0x80 : 0;
    } while (v);
    rp_put_raw(b, c, n);
}

void rp_put_svar(struct rp_bytes *b, int64_t v)
{
    rp_put_var(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

void rp_put_str(struct rp_bytes *b, const char *s)
{
    size_t n = strlen(s);
    rp_put_var(b, n);
    rp_put_raw(b, s, n);
}

void rp_bytes_free(struct rp_bytes *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

const void *rp_get_raw(struct rp_rd *r, size_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = 1;
        return NULL;
    }
    const void *p = r->p;
    r->p += n;
    return p;
}

uint8_t rp_get_u8(struct rp_rd *r)
{
    const unsigned char *p = rp_get_raw(r, 1);
    return p ? *p : 0;
}

/* n bytes, least significant first (0 when fewer are left). */
static uint64_t get_le(struct rp_rd *r, unsigned n)
{
    const unsigned char *p = rp_get_raw(r, n);
    uint64_t v = 0;
    for (unsigned i = 0; p && i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

uint32_t rp_get_u32le(struct rp_rd *r) { return (uint32_t)get_le(r, 4); }

uint64_t rp_get_u64le(struct rp_rd *r) { return get_le(r, 8); }

void rp_put_f64(struct rp_bytes *b, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    rp_put_u64le(b, u);
}

double rp_get_f64(struct rp_rd *r)
{
    const uint64_t u = rp_get_u64le(r);
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

uint64_t rp_get_count(struct rp_rd *r, size_t min_bytes, uint64_t max)
{
    const uint64_t n = rp_get_var(r);
    if (n > (uint64_t)(r->end - r->p) / (min_bytes ? min_bytes : 1) || n > max)
        r->bad = 1;
    return r->bad ? 0 : n;
}

uint64_t rp_get_var(struct rp_rd *r)
{
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        const unsigned char *p = rp_get_raw(r, 1);
        if (!p)
            return 0;
        v |= (uint64_t)(*p & 0x7f) << shift;
        if (!(*p & 0x80))
            return v;
    }
    r->bad = 1; /* more than ten bytes */
    return 0;
}

int64_t rp_get_svar(struct rp_rd *r)
{
    uint64_t u = rp_get_var(r);
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

char *rp_get_str(struct rp_rd *r)
{
    uint64_t n = rp_get_var(r);
    const char *p = n <= (uint64_t)(r->end - r->p) ? rp_get_raw(r, (size_t)n) : (r->bad = 1, NULL);
    if (!p)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (s) {
        memcpy(s, p, (size_t)n);
        s[n] = '\0';
    }
    return s;
}

uint32_t rp_crc32(uint32_t crc, const void *p, size_t n)
{
    const unsigned char *c = p;
    crc = ~crc;
    while (n--) {
        crc ^= *c++;
        for (int k = 0; k < 8; k++)
            crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1));
    }
    return ~crc;
}
