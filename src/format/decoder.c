#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "format/decoder.h"
#include "format/record.h"
#include "format/shapes.h"

/* &c.h must read as a call record followed by its payload. */
_Static_assert(offsetof(struct ct_call, pl) == sizeof(struct ct_rec_call), "payload must follow the call");
_Static_assert(offsetof(struct ct_launch_call, pl) == sizeof(struct ct_rec_call), "payload must follow the call");

struct ct_decoder {
    struct ct_shapes *shapes;
    int have_clock;
    struct ct_rec_clock clock;
    uint64_t start_ns;
    uint64_t unknown_shapes;
};

struct ct_decoder *ct_decoder_new(uint64_t start_ns)
{
    struct ct_decoder *d = calloc(1, sizeof *d);

    if (!d || !(d->shapes = ct_shapes_new())) {
        free(d);
        return NULL;
    }
    d->start_ns = start_ns;
    return d;
}

void ct_decoder_free(struct ct_decoder *d)
{
    if (d)
        ct_shapes_free(d->shapes);
    free(d);
}

void ct_decoder_reset(struct ct_decoder *d)
{
    ct_shapes_clear(d->shapes);
    d->have_clock = 0;
    d->unknown_shapes = 0;
}

void ct_decoder_use_clock(struct ct_decoder *d, const struct ct_rec_clock *c)
{
    d->have_clock = c != NULL;
    if (c)
        d->clock = *c;
}

uint64_t ct_decoder_unknown_shapes(const struct ct_decoder *d) { return d->unknown_shapes; }

enum ct_decoded ct_decode(struct ct_decoder *d, const struct ct_rec_hdr *h, struct ct_call *out)
{
    int rc = 0;

    switch (h->type) {
    case CT_REC_CLOCK:
        ct_decoder_use_clock(d, (const struct ct_rec_clock *)h);
        return CT_DECODED_OTHER;
    case CT_REC_CALL: {
        /* Copies of fixed sizes, which compilers make a few moves: the report reads every call twice. */
        const struct ct_rec_call *c = (const void *)h;
        size_t plsize = 0; /* the payload is there: the record was checked */
        memcpy(&out->c, c, sizeof out->c);
        switch (c->payload) {
        case CT_FAM_ALLOC: memcpy(&out->pl.alloc, c + 1, plsize = sizeof out->pl.alloc); break;
        case CT_FAM_FREE: memcpy(&out->pl.free, c + 1, plsize = sizeof out->pl.free); break;
        case CT_FAM_LAUNCH: memcpy(&out->pl.launch, c + 1, plsize = sizeof out->pl.launch); break;
        case CT_FAM_COPY: memcpy(&out->pl.copy, c + 1, plsize = sizeof out->pl.copy); break;
        default: break;
        }
        out->c.h.size = (uint16_t)(sizeof out->c + plsize);
        out->family = plsize ? c->payload : CT_FAM_NONE;
        rc = ct_shapes_note(d->shapes, c);
        break;
    }
    case CT_REC_LAUNCH_REPEAT:
    case CT_REC_LAUNCH_SHORT: {
        /* What a repeat leaves out is in the file's units: expanded before its ticks become ns. */
        struct ct_launch_call full;
        rc = ct_shapes_expand(d->shapes, h, d->have_clock ? d->clock.base_ticks : d->start_ns, &full);
        if (rc == 0)
            d->unknown_shapes++;
        out->c = full.c;
        out->pl.launch = full.pl;
        out->family = CT_FAM_LAUNCH;
        break;
    }
    case CT_REC_CALL_SHORT:
        rc = ct_shapes_expand_call(d->shapes, (const struct ct_rec_call_short *)h,
                                   d->have_clock ? d->clock.base_ticks : d->start_ns, &out->c);
        out->family = CT_FAM_NONE;
        break;
    default:
        return CT_DECODED_OTHER;
    }
    if (d->have_clock) {
        out->c.t0_ns = ct_clock_ticks_to_ns(out->c.t0_ns, &d->clock);
        out->c.t1_ns = ct_clock_ticks_to_ns(out->c.t1_ns, &d->clock);
    }
    return rc < 0 ? CT_DECODED_NOMEM : CT_DECODED_CALL;
}

int ct_decode_gpu(const struct ct_rec_hdr *h, struct ct_gpu_span *out)
{
    if (h->type != CT_REC_GPU)
        return 0;
    const struct ct_rec_gpu *r = (const void *)h;
    *out = (struct ct_gpu_span){
        .seq = r->seq, .start_ns = r->start_ns, .end_ns = r->end_ns, .stream = r->stream, .tid = h->tid,
        .device = r->device, .api_id = r->api_id, .family = r->family, .flags = r->flags, .name_id = r->name_id,
        .launch_kind = r->launch_kind, .bytes = r->bytes, .copy_flags = r->copy_flags,
        .src_kind = r->src_kind, .dst_kind = r->dst_kind};
    memcpy(out->grid, r->grid, sizeof out->grid);
    memcpy(out->block, r->block, sizeof out->block);
    return 1;
}

int ct_decode_gpu_info(const struct ct_rec_hdr *h, struct ct_gpu_info *out)
{
    if (h->type != CT_REC_GPU_INFO)
        return 0;
    const struct ct_rec_gpu_info *r = (const void *)h;
    *out = (struct ct_gpu_info){.mode = r->mode, .sample_n = r->sample_n, .sample_k = r->sample_k,
                                .final = r->final != 0, .timed = r->timed, .not_completed = r->not_completed,
                                .untimed_pool = r->untimed_pool, .untimed_refused = r->untimed_refused,
                                .untimed_capture = r->untimed_capture};
    if (h->size >= sizeof *r) {
        out->source = r->source;
        out->why = r->why;
        out->request = r->request;
        out->source_ns = r->source_ns;
        out->no_call = r->no_call;
        out->dropped = r->dropped;
    } else { /* format 5 to 7: events timed what was timed; the request is what the mode says */
        out->source = r->mode == CT_GPU_OFF ? CT_GPU_SRC_NONE : CT_GPU_SRC_EVENTS;
        out->request = r->mode == CT_GPU_ALL ? CT_GPU_REQ_EVENTS : r->mode == CT_GPU_SAMPLE ? CT_GPU_REQ_SAMPLE
                                                                                              : CT_GPU_REQ_OFF;
    }
    return 1;
}
