/* Two small open-addressing hash maps for the report: string -> index (rows by name) and
 * (u64, u64) -> (u64, u64) (ids of a file, live allocations).  Both grow; the second supports removal. */
#ifndef CT_REPORT_MODEL_MAP_H
#define CT_REPORT_MODEL_MAP_H

#include <stddef.h>
#include <stdint.h>

struct rp_strmap {
    char **keys;
    size_t *vals;
    size_t cap, n;
    int borrowed; /* the keys are the caller's (rp_strmap_put_ref): neither copied nor freed */
};
/* The index stored for key, or (size_t)-1. */
size_t rp_strmap_get(const struct rp_strmap *m, const char *key);
/* Store key (copied) -> val; 0, or -1 when out of memory. */
int rp_strmap_put(struct rp_strmap *m, const char *key, size_t val);
/* Store key -> val without a copy: the key is the caller's and must outlive the map (a row's own name, where
 * a report has a row per distinct name).  A map takes its keys one way or the other, never both. */
int rp_strmap_put_ref(struct rp_strmap *m, const char *key, size_t val);
void rp_strmap_free(struct rp_strmap *m);

struct rp_u64map_entry {
    uint64_t k1, k2; /* k2's top bit marks a used slot: keys use 63 bits of k2 */
    uint64_t v1, v2;
};
struct rp_u64map {
    struct rp_u64map_entry *e;
    size_t cap, n;
};
struct rp_u64map_entry *rp_u64map_get(const struct rp_u64map *m, uint64_t k1, uint64_t k2);
/* Insert or replace; returns the entry (for its values) or NULL when out of memory. */
struct rp_u64map_entry *rp_u64map_put(struct rp_u64map *m, uint64_t k1, uint64_t k2, uint64_t v1, uint64_t v2);
void rp_u64map_remove(struct rp_u64map *m, struct rp_u64map_entry *e);
void rp_u64map_free(struct rp_u64map *m);

#endif
