/* A file's NVTX annotations as ranges (format 6): pass 1 keeps its events and names, then pairs them, PUSH
 * with the POP that closes it on the same thread and domain, START with the END of the same range id; a mark
 * is a range of no length.  A push or start left open at the end (a process killed, a capture that ended
 * inside it) is dropped; so is a pop or end with no opening.  Memory: 40 bytes per event until paired, then
 * 48 per range. */
#ifndef CT_REPORT_MODEL_NVTX_RANGES_H
#define CT_REPORT_MODEL_NVTX_RANGES_H

#include <stddef.h>
#include <stdint.h>

#include "format/annot.h"

enum rp_nvtx_style { RP_NVTX_PUSHPOP = 1, RP_NVTX_STARTEND = 2, RP_NVTX_MARK = 3 };

struct rp_nvtx_range {
    uint64_t t0, t1;   /* the file's clock, ns */
    uint32_t tid;      /* the thread that pushed or started it */
    uint32_t name_id, category, color;
    uint16_t domain;
    uint8_t style;     /* enum rp_nvtx_style */
    uint8_t has_color;
    uint32_t depth;    /* push/pop: how many ranges of its thread and domain enclose it */
};

struct rp_nvtx {
    struct ct_nvtx_event *ev;       /* until rp_nvtx_finish */
    size_t nev, cev;
    struct rp_nvtx_range *r;        /* sorted by (tid, t0) */
    size_t n;
    struct ct_nvtx_naming *names;   /* domains and categories */
    size_t nnames, cnames;
};

int rp_nvtx_add(struct rp_nvtx *x, const struct ct_nvtx_event *e);
int rp_nvtx_add_name(struct rp_nvtx *x, const struct ct_nvtx_naming *m);
/* Pair the events into ranges.  0, or -1 when out of memory. */
int rp_nvtx_finish(struct rp_nvtx *x);
void rp_nvtx_free(struct rp_nvtx *x);
/* The name_id of a domain (0: the default domain or unnamed) or of a category of a domain (0: unnamed). */
uint32_t rp_nvtx_domain_name(const struct rp_nvtx *x, uint16_t domain);
uint32_t rp_nvtx_category_name(const struct rp_nvtx *x, uint16_t domain, uint32_t category);

#endif
