/* The protobuf encoder of pb.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "format/grow.h"
#include "report/export/pb.h"

/* Room for n more bytes; 0, or -1 (oom set) when out of memory. */
static int room(struct pb *b, size_t n)
{
    if (b->oom)
        return -1;
    uint8_t *p = ct_grow(b->buf, &b->cap, b->len + n, 1);
    if (!p) {
        b->oom = 1;
        return -1;
    }
    b->buf = p;
    return 0;
}

static void varint(struct pb *b, uint64_t v)
{
    if (room(b, 10) < 0)
        return;
    while (v >= 0x80) {
        b->buf[b->len++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->buf[b->len++] = (uint8_t)v;
}

void pb_uint(struct pb *b, uint32_t tag, uint64_t v)
{
    varint(b, tag);
    varint(b, v);
}

void pb_int(struct pb *b, uint32_t tag, int64_t v) { pb_uint(b, tag, (uint64_t)v); }

void pb_fixed64(struct pb *b, uint32_t tag, uint64_t v)
{
    varint(b, tag);
    if (room(b, 8) < 0)
        return;
    for (int i = 0; i < 8; i++) /* little-endian, whatever the host */
        b->buf[b->len++] = (uint8_t)(v >> (8 * i));
}

void pb_bytes(struct pb *b, uint32_t tag, const void *p, size_t n)
{
    varint(b, tag);
    varint(b, n);
    if (room(b, n) < 0)
        return;
    memcpy(b->buf + b->len, p, n);
    b->len += n;
}

void pb_string(struct pb *b, uint32_t tag, const char *s) { pb_bytes(b, tag, s, strlen(s)); }

/* One byte is kept for the length, enough for the short messages that most are; pb_end moves a longer
 * message's bytes up to make room for its longer varint. */
size_t pb_begin(struct pb *b, uint32_t tag)
{
    varint(b, tag);
    if (room(b, 1) < 0)
        return 0;
    b->buf[b->len++] = 0;
    return b->len;
}

void pb_end(struct pb *b, size_t start)
{
    if (b->oom)
        return;
    uint64_t n = b->len - start;
    size_t extra = 0;
    for (uint64_t v = n; v >= 0x80; v >>= 7)
        extra++;
    if (extra) {
        if (room(b, extra) < 0)
            return;
        memmove(b->buf + start + extra, b->buf + start, n);
        b->len += extra;
    }
    uint8_t *p = b->buf + start - 1;
    while (n >= 0x80) {
        *p++ = (uint8_t)(n | 0x80);
        n >>= 7;
    }
    *p = (uint8_t)n;
}

void pb_free(struct pb *b)
{
    free(b->buf);
    *b = (struct pb){0};
}
