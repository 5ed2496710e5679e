#include "config.h"

#include <elf.h>
#include <limits.h>
#include <link.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/record.h"
#include "recorder/meta_queue.h"
#include "recorder/modules.h"
#include "recorder/alloc.h"

/* One object as the loader reported it.  A library loaded where an unloaded one lay can have the same base and
 * range: the name (dlpi_name, as given) and the build id tell them apart.  A file replaced at the same path
 * with the same build id (or none) is not told apart: the report could only read the file now at that path. */
struct module {
    uint64_t base, lo, hi;
    int internal;
    int replaced; /* a later object overlaps its range: it was unloaded */
    char *name;   /* dlpi_name */
    uint8_t idlen;
    uint8_t id[CT_BUILD_ID_MAX];
};

static struct module *mods;
static size_t nmods, cap;
static unsigned long long seen_adds = ~0ull, seen_subs = ~0ull;

/* The internal modules' ranges again, for ct_modules_internal_hot: appended under the caller's lock, each
 * published by the release store of its count, never changed after. */
#define HOT_MAX 32
static struct { uint64_t lo, hi; } hot[HOT_MAX];
static _Atomic unsigned nhot;

/* Object names whose frames are the tracer's, the unwinder's, the driver's or the runtime's. */
static int internal_name(const char *path)
{
    static const char *const prefixes[] = {"libcuda.so", "libcudart.so", "libunwind", "libcudatrace"};
    const char *base = strrchr(path, '/');

    base = base ? base + 1 : path;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(base, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    return 0;
}

/* The NT_GNU_BUILD_ID note of a loaded object, read from its mapped PT_NOTE segments. */
static size_t build_id(const struct dl_phdr_info *info, const uint8_t **id)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *n = (const void *)p;
            const unsigned char *name = p + sizeof *n, *desc = name + ((n->n_namesz + 3) & ~3u);
            if (desc + n->n_descsz > end)
                break;
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
                *id = desc;
                return n->n_descsz;
            }
            p = desc + ((n->n_descsz + 3) & ~3u);
        }
    }
    return 0;
}

/* Whether the object is the one recorded at its place: same range, name and build id, not replaced since (a
 * library loaded again after another one took its range needs a record again). */
static int known(const struct dl_phdr_info *info, uint64_t lo, uint64_t hi)
{
    const uint8_t *id = NULL;
    size_t idlen = (size_t)-1;

    for (size_t i = 0; i < nmods; i++) {
        const struct module *m = &mods[i];
        if (m->replaced || m->base != info->dlpi_addr || m->lo != lo || m->hi != hi ||
            strcmp(m->name, info->dlpi_name) != 0)
            continue;
        if (idlen == (size_t)-1) { /* read only for a candidate: most objects differ in range */
            idlen = build_id(info, &id);
            if (idlen > CT_BUILD_ID_MAX)
                idlen = CT_BUILD_ID_MAX; /* as recorded */
        }
        if (m->idlen == idlen && (!idlen || memcmp(m->id, id, idlen) == 0))
            return 1;
    }
    return 0;
}

static void add(const struct dl_phdr_info *info, uint64_t lo, uint64_t hi)
{
    static char exe[PATH_MAX], abs[PATH_MAX];
    const char *path = info->dlpi_name;
    const uint8_t *id = NULL;
    size_t idlen = build_id(info, &id), plen;
    int internal;
    unsigned char *rec;

    if (!*path) { /* the program itself */
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = '\0';
        path = exe;
    } else if (path[0] != '/' && realpath(path, abs)) {
        /* The loader keeps a relative LD_PRELOAD or dlopen path as given: the report may run elsewhere. */
        path = abs;
    }
    /* The tracer is internal whatever it is called: it holds this very function. */
    internal = internal_name(path) || ((uint64_t)(uintptr_t)&ct_modules_scan >= lo &&
                                       (uint64_t)(uintptr_t)&ct_modules_scan < hi);
    if (idlen > CT_BUILD_ID_MAX)
        idlen = CT_BUILD_ID_MAX; /* as ct_put_module keeps it */
    if (nmods == cap) {
        size_t nc = cap ? cap * 2 : 64;
        struct module *m = ct_realloc(mods, nc * sizeof *m);
        if (!m)
            return;
        mods = m;
        cap = nc;
    }
    plen = strlen(path);
    char *name = ct_strdup(info->dlpi_name);
    if (!name || !(rec = ct_malloc(ct_size_module(plen)))) {
        ct_free(name);
        return;
    }
    ct_put_module(rec, info->dlpi_addr, lo, hi, path, plen, id, idlen, internal ? CT_MOD_INTERNAL : 0);
    if (ct_meta_push(rec, ct_size_module(plen), 1) == 0) {
        /* An older object overlapping this one was unloaded: it is no longer what these addresses are. */
        for (size_t i = 0; i < nmods; i++)
            if (mods[i].lo < hi && lo < mods[i].hi)
                mods[i].replaced = 1;
        struct module *m = &mods[nmods++];
        *m = (struct module){.base = info->dlpi_addr, .lo = lo, .hi = hi, .internal = internal, .name = name,
                             .idlen = (uint8_t)idlen};
        if (idlen)
            memcpy(m->id, id, idlen);
        name = NULL;
        unsigned n = atomic_load_explicit(&nhot, memory_order_relaxed);
        if (internal && n < HOT_MAX) {
            hot[n].lo = lo;
            hot[n].hi = hi;
            atomic_store_explicit(&nhot, n + 1, memory_order_release);
        }
    }
    ct_free(name);
    ct_free(rec);
}

static int visit(struct dl_phdr_info *info, size_t size, void *arg)
{
    uint64_t lo = UINT64_MAX, hi = 0;

    (void)size;
    (void)arg;
    seen_adds = info->dlpi_adds;
    seen_subs = info->dlpi_subs;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uint64_t a = info->dlpi_addr + ph->p_vaddr;
        if (a < lo)
            lo = a;
        if (a + ph->p_memsz > hi)
            hi = a + ph->p_memsz;
    }
    if (lo < hi && !known(info, lo, hi))
        add(info, lo, hi);
    return 0;
}

/* Only the counters: stop at the first object. */
static int moved(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    *(int *)arg = info->dlpi_adds != seen_adds || info->dlpi_subs != seen_subs;
    return 1;
}

void ct_modules_scan(int force)
{
    int changed = 1;

    if (!force)
        dl_iterate_phdr(moved, &changed);
    if (changed)
        dl_iterate_phdr(visit, NULL);
}

int ct_modules_internal(uint64_t addr)
{
    /* Newest first: an address reused after a dlclose belongs to the object loaded last. */
    for (size_t i = nmods; i-- > 0;)
        if (addr >= mods[i].lo && addr < mods[i].hi && !mods[i].replaced)
            return mods[i].internal;
    return -1;
}

int ct_modules_internal_hot(uint64_t addr)
{
    unsigned n = atomic_load_explicit(&nhot, memory_order_acquire);

    for (unsigned i = 0; i < n; i++)
        if (addr >= hot[i].lo && addr < hot[i].hi)
            return 1;
    return 0;
}
