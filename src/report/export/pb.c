/* The protobuf encoder of pb.h, on model/bytes.h's buffer: protobuf's varints are LEB128, its fixed64
 * little-endian. */
#include "config.h"

#include <string.h>

#include "report/export/pb.h"

void pb_uint(struct pb *b, uint32_t tag, uint64_t v)
{
    rp_put_var(&b->out, tag);
    rp_put_var(&b->out, v);
}

void pb_int(struct pb *b, uint32_t tag, int64_t v) { pb_uint(b, tag, (uint64_t)v); }

void pb_fixed64(struct pb *b, uint32_t tag, uint64_t v)
{
    rp_put_var(&b->out, tag);
    rp_put_u64le(&b->out, v);
}

void pb_bytes(struct pb *b, uint32_t tag, const void *p, size_t n)
{
    rp_put_var(&b->out, tag);
    rp_put_var(&b->out, n);
    rp_put_raw(&b->out, p, n);
}

void pb_string(struct pb *b, uint32_t tag, const char *s) { pb_bytes(b, tag, s, strlen(s)); }

/* One byte is kept for the length, enough for the short messages that most are; pb_end moves a longer
 * message's bytes up to make room for its longer varint. */
size_t pb_begin(struct pb *b, uint32_t tag)
{
    rp_put_var(&b->out, tag);
    rp_put_u8(&b->out, 0);
    return b->out.oom ? 0 : b->out.n;
}

void pb_end(struct pb *b, size_t start)
{
    static const unsigned char pad[9];
    if (b->out.oom)
        return;
    uint64_t n = b->out.n - start;
    size_t extra = 0;
    for (uint64_t v = n; v >= 0x80; v >>= 7)
        extra++;
    if (extra) {
        rp_put_raw(&b->out, pad, extra); /* room, then the message moved up into it */
        if (b->out.oom)
            return;
        memmove(b->out.p + start + extra, b->out.p + start, n);
    }
    unsigned char *p = b->out.p + start - 1;
    while (n >= 0x80) {
        *p++ = (unsigned char)(n | 0x80);
        n >>= 7;
    }
    *p = (unsigned char)n;
}

void pb_free(struct pb *b) { rp_bytes_free(&b->out); }
