/* summary --by rank|pid|host: the files grouped (one group per rank, process or host), and the spread table
 * that compares the groups: per API function and kernel, the least, median and most total time of a group,
 * and which group took the most, to find stragglers. */
#ifndef CT_REPORT_SUMMARY_BY_GROUP_H
#define CT_REPORT_SUMMARY_BY_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "report/model/map.h"
#include "report/summary/parts.h"
#include "report/model/trace.h"

/* By device, the GPU tables only: a group is the spans on one device (summary.c), not files. */
enum rp_group_by { RP_BY_RANK = 0, RP_BY_PID = 1, RP_BY_HOST = 2, RP_BY_DEVICE = 3 };
/* rank, pid, host, device: the enum, or -1. */
int rp_group_by_parse(const char *s);

struct rp_group {
    size_t *files;   /* indexes of its inputs, ascending */
    size_t nfiles;
    char label[160]; /* "rank 0 (host, pid)", "host, pid", "host" */
};
struct rp_groups {
    struct rp_group *v;
    size_t n;
};
/* Groups in rank, pid or host order (files without a rank, by --by rank, last, one group each).  0 or -1. */
struct rp_sum_input;
int rp_groups_make(struct rp_groups *g, const struct rp_sum_input *in, size_t n, enum rp_group_by by);
void rp_groups_free(struct rp_groups *g);

struct rp_spread_row {
    char *kind, *name;
    double *total; /* per group, ns; < 0: the group has none */
};
struct rp_spread {
    size_t ngroups;
    struct rp_spread_row *rows;
    size_t n, cap;
    struct rp_strmap by_key;
};
int rp_spread_init(struct rp_spread *s, size_t ngroups);
/* Group `group`'s total of (kind, name).  0 or -1 (out of memory). */
int rp_spread_add(struct rp_spread *s, const char *kind, const char *name, size_t group, uint64_t total_ns);
/* Table "spread": Kind, Groups, Min/Med/Max Total, Max/Min, Slowest, Name; by Max - Min, descending. */
void rp_spread_print(struct rp_sum_out *o, struct rp_spread *s, const struct rp_groups *g);
void rp_spread_free(struct rp_spread *s);

#endif
