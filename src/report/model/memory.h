/* Device memory over time: allocations and frees by kind, the live set (address -> bytes, so memory is
 * bounded by the allocations live at once, not by the calls), peaks and what is left at exit.  Fed calls in
 * time order (struct rp_merge). */
#ifndef CT_REPORT_MODEL_MEMORY_H
#define CT_REPORT_MODEL_MEMORY_H

#include <stdint.h>

#include "cudatrace/format.h"
#include "report/model/bytes.h"
#include "report/model/map.h"
#include "report/model/trace.h"

struct rp_mem_stats {
    uint64_t allocs, alloc_bytes, frees, freed_bytes;
    uint64_t live, live_bytes; /* now; at the end: still allocated at exit */
    uint64_t peak_bytes;
    int64_t peak_t;            /* report clock of the peak; valid when peak_bytes > 0 */
};

#define RP_MEM_KINDS (CT_MEM_ARRAY + 1)
#define RP_MEM_MAX_DEVICES 4096 /* ordinals at or above count as unknown (-1) */

struct rp_memtrack {
    struct rp_u64map live;      /* (address, file and name space) -> (bytes, kind | device | stack id) */
    struct rp_mem_stats kind[RP_MEM_KINDS];
    struct rp_mem_stats device; /* every kind rp_mem_kind_on_device() counts */
    uint64_t unmatched_frees;   /* frees of addresses not allocated in the trace */
    int oom;

    /* Optional detail (the memory command): set `detail` before the first call. */
    int detail;
    struct rp_mem_stats *by_device; /* [(ordinal + 1) * RP_MEM_KINDS + kind]; ordinal -1 (unknown) first */
    size_t ndevices;                /* ordinals + 1 covered by by_device */
    struct rp_u64map sites;         /* (stack id, file | RP_SITE_OFF_DEVICE for pinned and vmm_map) -> (live
                                     * bytes, live allocations) */

    /* Optional: set `record` before the first call to keep every change of a kind's live bytes, in call
     * order, for rp_mem_replay (peaks across files aggregated apart: summary -j, partials).  Each change:
     * svar t0 - the previous change's t0, svar t1 - t0 (the call's times, file clock), u8 kind << 1 | 1 when
     * it grew, var bytes; about 7 bytes. */
    int record;
    struct rp_bytes changes;
    uint64_t nchanges;
    int64_t last_t0, cur_t0, cur_t1;
    /* With record, optional: `record_stacks` keeps each change's call stack id as well (var; the allocating
     * call's for a free), in change_stacks: whose memory the change was (analyze's peak sites). */
    int record_stacks;
    struct rp_bytes change_stacks;
};

/* One file's changes (a tracker's, or read from a partial): n of them in len bytes at p, or with fd >= 0 at
 * offset `at` of that descriptor (spilled there, read through a small buffer); and the file's clock offset
 * onto the report clock. */
struct rp_mem_changes {
    const unsigned char *p;
    size_t len;
    uint64_t n;
    int64_t offset;
    int fd;
    uint64_t at;
};
/* One change as rp_memtrack.changes holds it: the deltas of its call's start from the previous change's
 * start and of its end from its start, its kind, whether it grew, its bytes. */
struct rp_mem_change {
    int64_t dt0, dt1;
    unsigned kind, grew;
    uint64_t bytes;
};
/* The next change at r into c, the one place that decodes one: 0, or -1 when malformed (cut short, or of a
 * kind not known). */
int rp_mem_get_change(struct rp_rd *r, struct rp_mem_change *c);
/* Do the len bytes at p hold exactly n well-formed changes, each of a known kind?  A partial's reader checks
 * this, so that a replay never meets a malformed change (doc/partials.md).  1 or 0. */
int rp_mem_changes_ok(const unsigned char *p, size_t len, uint64_t n);
/* The live bytes and peaks of every kind and of device memory, in m->kind[] and m->device (whose other counts
 * the caller sums), as one tracker fed the files' calls in time order (ties: file order, then call order)
 * would have them.  0, or -1 when a change is malformed (a corrupt partial). */
int rp_mem_replay(struct rp_memtrack *m, const struct rp_mem_changes *files, size_t n);

/* rp_mem_replay, which also counts in applied[i] (n of them) how many of file i's changes were replayed when
 * the device peak was reached: the state each file held at the peak.  All 0 when there is no peak.  0 or -1. */
int rp_mem_replay_peak(struct rp_memtrack *m, const struct rp_mem_changes *files, size_t n, uint64_t *applied);

/* A site key's mark for memory that is not device memory (rp_mem_kind_on_device): the peak of device memory
 * is held by the other sites only; leaks are of every kind.  Bit 63 is the map's own. */
#define RP_SITE_OFF_DEVICE (1ull << 62)

/* A live allocation of the detailed tracker: its kind, device ordinal (-1 unknown) and call stack id. */
static inline unsigned rp_live_kind(const struct rp_u64map_entry *e) { return (unsigned)(e->v2 & 0xff); }
static inline int32_t rp_live_device(const struct rp_u64map_entry *e) { return (int32_t)((e->v2 >> 8) & 0xffffff) - 1; }
static inline uint32_t rp_live_stack(const struct rp_u64map_entry *e) { return (uint32_t)(e->v2 >> 32); }

/* Allocations live in three name spaces: addresses, VMM physical handles (cuMemCreate) and VMM mappings
 * (cuMemMap); a free of one kind may release another kind of the same space (cuMemFreeAsync of cuMemAlloc
 * memory).  0, 1 or 2. */
static inline uint64_t rp_mem_space(unsigned kind) { return kind == CT_MEM_VMM ? 1 : kind == CT_MEM_VMM_MAP ? 2 : 0; }

/* Account one successful call; returns 1 when it changed the live device bytes (an alloc or free of
 * device memory), else 0.  Failed calls and other families are ignored. */
int rp_memtrack_call(struct rp_memtrack *m, const struct rp_call *c);
/* Run the trace's allocations and frees, in time order, through a detailed tracker (detail is set); stop
 * after the `stop`th of them (0: all).  *peak_at (may be NULL) gets the number of the one that set the device
 * peak; `each` (may be NULL) is called after each, with the tracker as it left it.  0, -1 when out of
 * memory, or RP_EXIT_UNREADABLE after a read error (message printed). */
int rp_memtrack_replay(struct rp_trace *t, struct rp_memtrack *m, uint64_t stop, uint64_t *peak_at,
                       void (*each)(void *ctx, const struct rp_call *c, const struct rp_memtrack *m), void *ctx);
void rp_memtrack_free(struct rp_memtrack *m);
/* Free an array of n trackers (one per file, as the exports keep them) and the array; m may be NULL. */
void rp_memtracks_free(struct rp_memtrack *m, size_t n);

#endif
