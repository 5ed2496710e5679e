/* What the summary's tables share: summary.c's host tables (api, kernels, copies, memory, errors) and
 * gpu_tables.c's GPU tables.  The output state, rows found by name, and the nsys statistics columns. */
#ifndef CT_REPORT_SUMMARY_PARTS_H
#define CT_REPORT_SUMMARY_PARTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/model/map.h"
#include "report/model/stats.h"
#include "report/model/table.h"
#include "report/model/text.h"

struct rp_sum_out {
    FILE *f;
    enum rp_format fmt;
    const struct rp_timeunit *unit;
    unsigned long long top; /* 0: all rows */
    int first, labelled;
    int64_t start;          /* report clock of the trace start */
    const char *group;      /* --by: the process the tables are of ("rank 0 (host, pid)"), else NULL */
};

/* Print a table and free it (with o->group: its key becomes "KEY[GROUP]" and its title names the group). */
void rp_sum_emit(struct rp_sum_out *o, struct rp_table *t);

/* A numeric column title with the time unit: "Total Time (us)#", or with `est` "Total Time (us, est.)#". */
const char *rp_unit_title(char *buf, size_t size, const char *what, const struct rp_timeunit *u, int est);

/* Append `s` to a ", "-separated list unless it is already in it (the header's lists of files, hosts, ...). */
void rp_list_add(char *list, size_t size, const char *s);

/* A row of statistics under a name. */
struct rp_named_stats {
    char *name;
    struct rp_stats st;
};
/* The row of `name` in a vector of rows of `elem` bytes that start with a struct rp_named_stats, created
 * zeroed on first sight; (size_t)-1 when out of memory.  The map's keys are the rows' names (free the rows'
 * names, and the map, together). */
size_t rp_named_row(void **rows, size_t *n, size_t *cap, size_t elem, struct rp_strmap *map, const char *name);
void rp_named_stats_free(struct rp_named_stats *ns);
/* Rows of statistics by name (the nvtx table's: "STYLE\tDOMAIN:MESSAGE"). */
struct rp_named_rows {
    struct rp_named_stats *v;
    size_t n, cap;
    struct rp_strmap by_name;
};
/* The row of name (created empty), NULL when out of memory. */
struct rp_named_stats *rp_named_rows_get(struct rp_named_rows *r, const char *name);
/* src's rows added to dst's by name.  0 or -1. */
int rp_named_rows_merge(struct rp_named_rows *dst, const struct rp_named_rows *src);
void rp_named_rows_free(struct rp_named_rows *r);

/* Order of rows: larger total first, then by name. */
int rp_cmp_total_desc(double a, double b, const char *na, const char *nb);

/* The nsys statistics columns (cuda_api_sum, cuda_gpu_kern_sum): Time (%), Total Time, COUNT, Avg, Med,
 * Min, Max, StdDev, then `extra` (may be NULL) and NAME.  `prefix` goes before each time title ("Host "
 * where the times are the host's, not the GPU's).  With `timed` (may be NULL) a column of that title
 * follows COUNT; with `est` the total's title says it is an estimate.  0, or -1 when out of memory. */
struct rp_stats_columns {
    const char *prefix, *count, *timed, *extra, *name;
    int est;
};
int rp_stats_table(struct rp_table *t, const char *key, const char *title, const struct rp_stats_columns *c,
                   const struct rp_timeunit *u);
/* The cells of those columns for statistics s (8: Time (%) of `all`, total, count, avg, med, min, max,
 * stddev; no timed column). */
void rp_stats_cells(char cells[][48], struct rp_stats *s, double all, const struct rp_timeunit *u);
/* A row of those columns without a timed column: the cells of s, then `extra` (only where the table has that
 * column) and `name`. */
void rp_stats_row(struct rp_table *t, struct rp_stats *s, double all, const struct rp_timeunit *u, const char *extra,
                  const char *name);

#endif
