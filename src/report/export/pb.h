/* A minimal protobuf encoder for the Perfetto export: a growable buffer that one message (a trace packet) is
 * written into, field by field, then handed to the output.  Tags are whole protobuf keys (field number << 3 |
 * wire type, perfetto_fields.h), so a field cannot be written with another wire type than its .proto says.
 *
 * Why by hand rather than protobuf-c: the export writes a handful of messages, one packet at a time, in
 * streaming order; an encoder of varints and length-delimited fields is a page of code with nothing to
 * generate at build time, and a nested message's length is patched in place (pb_end), so no message is
 * built twice.  The tests decode what it writes with protoc against perfetto_trace.proto. */
#ifndef CT_REPORT_EXPORT_PB_H
#define CT_REPORT_EXPORT_PB_H

#include <stddef.h>
#include <stdint.h>

#include "report/model/bytes.h"

/* The bytes written (model/bytes.h: its varints and little-endian integers are protobuf's); oom: a write
 * failed for want of memory, and the buffer holds garbage from then on. */
struct pb {
    struct rp_bytes out;
};

void pb_uint(struct pb *b, uint32_t tag, uint64_t v);        /* wire type 0 (uint*, bool, int32/64 >= 0) */
void pb_int(struct pb *b, uint32_t tag, int64_t v);          /* wire type 0, int32/int64 (two's complement) */
void pb_fixed64(struct pb *b, uint32_t tag, uint64_t v);     /* wire type 1 */
void pb_string(struct pb *b, uint32_t tag, const char *s);   /* wire type 2 */
void pb_bytes(struct pb *b, uint32_t tag, const void *p, size_t n);
/* A nested message: pb_begin writes its tag and returns where it starts; pb_end writes its length. */
size_t pb_begin(struct pb *b, uint32_t tag);
void pb_end(struct pb *b, size_t start);
void pb_free(struct pb *b);

#endif
