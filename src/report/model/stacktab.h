/* The call stacks and module map of one trace file (CT_REC_STACK, CT_REC_MODULE), collected in pass 1, and
 * their frames once symbolized (symbols/symbolize.h). */
#ifndef CT_REPORT_MODEL_STACKTAB_H
#define CT_REPORT_MODEL_STACKTAB_H

#include <stddef.h>
#include <stdint.h>

#include "cudatrace/format.h"
#include "report/model/map.h"

struct rp_module {
    uint64_t base, lo, hi;
    char *path;
    uint8_t build_id[CT_BUILD_ID_MAX];
    uint8_t build_id_len, flags;
};

/* A function inlined at a frame's address: shown as a frame of its own, before the frame. */
struct rp_inlined {
    char *function; /* demangled */
    char *srcfile;  /* NULL when the debug info names none */
    unsigned line;
};

/* One frame: a return address, and what symbolization found (NULL/0 where nothing); or a Python frame
 * (python set, addr 0, no module): function, srcfile and line from the CT_REC_PYSTACK. */
struct rp_frame {
    uint64_t addr;
    int python;
    const struct rp_module *module;
    char *function;   /* demangled */
    uint64_t offset;  /* from the function's start (from the module's base when no function) */
    char *srcfile;    /* from the debug info: in the function itself (the call site of its outermost inline) */
    unsigned line;
    struct rp_inlined *inlined; /* the functions inlined at addr, innermost first */
    unsigned ninlined;
};

struct rp_stack {
    uint32_t id;
    uint16_t nframes, trimmed;
    int python; /* its Python frames (if any) are merged in */
    size_t mods_before; /* module records read before its record: the map when it was taken */
    struct rp_frame *frames;
};

/* Where the modules lie: the address space cut where a module begins or ends, each piece owned by the
 * newest module that covers it (-1: none).  Piece i is [start, the next piece's start). */
struct rp_modpiece {
    uint64_t start;
    long owner;
};

/* A CT_REC_PYSTACK as read, until rp_stacktab_add_python merges it into its stack. */
struct rp_pystack {
    uint32_t id;
    uint16_t nframes;
    struct ct_py_frame *frames;
};

struct rp_stacktab {
    struct rp_module *mods;
    size_t nmods, cmods;
    struct rp_modpiece *pieces; /* built at the first look-up, NULL until then */
    size_t npieces;
    struct rp_stack *stacks;
    size_t n, cap;
    struct rp_u64map ids; /* stack id -> index */
    int resolved;         /* symbols/symbolize.h has run over it */
    struct rp_pystack *py; /* Python frames not yet merged */
    size_t npy, cpy;
};

/* Take a CT_REC_STACK, CT_REC_PYSTACK or CT_REC_MODULE record (others are ignored).  0, or -1 when out of
 * memory. */
int rp_stacktab_add(struct rp_stacktab *t, const struct ct_rec_hdr *h);
/* The stack of `id`, NULL for 0 or an id whose record is missing. */
const struct rp_stack *rp_stacktab_get(const struct rp_stacktab *t, uint32_t id);
/* The module holding `addr` (the newest one where several did), NULL when none.  The first look-up sorts
 * the modules' ranges (after the last rp_stacktab_add); a binary search follows. */
const struct rp_module *rp_stacktab_module(struct rp_stacktab *t, uint64_t addr);
/* The module holding `addr` when stack s was taken: the newest of those recorded before the stack's record (a
 * library loaded later at an unloaded one's range has a later record); failing that, the oldest recorded
 * after it (a record written late).  NULL when none holds it. */
const struct rp_module *rp_stacktab_frame_module(struct rp_stacktab *t, const struct rp_stack *s, uint64_t addr);
/* Put the Python frames read into their stacks, among the native frames where the record places them; their
 * file and function names are string ids, looked up by `name` (NULL: unknown).  Once all records are read.
 * 0, or -1 when out of memory. */
int rp_stacktab_add_python(struct rp_stacktab *t, const char *(*name)(const void *ctx, uint32_t id),
                           const void *ctx);
void rp_stacktab_free(struct rp_stacktab *t);

#endif
