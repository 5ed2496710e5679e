/* Duration (or size) statistics of one report row in bounded memory: count, total, min, max, mean and
 * standard deviation, and the median.  Every statistic is a function of the values as a set, kept in integers
 * (the sum of squares in 128 bits), so the statistics of two sets of values merge exactly: rows aggregated
 * per file, on several threads or on several machines (summary --partial), and merged in any order print
 * the same as rows that saw every value.
 *
 * The median is exact while a row has at most RP_STATS_EXACT values (they are kept); beyond that every value
 * goes into a log-bucketed histogram: values below 128 have a bucket each, larger ones fall in one of 128
 * equal sub-buckets of their power of two, and a bucket reports its midpoint.  So a median taken from the
 * histogram is within 1/256 (0.39%) of the exact one, relative, and a row never holds more than
 * 58 x 128 counters however many values it sees (octaves are allocated only when a value lands in them).
 *
 * A report has a row per distinct name (a job may launch a million kernels of distinct names): a row costs
 * what its values need, 72 bytes and 8 per value kept; the kept values' buffer grows by doubling,
 * and the table of octaves exists only once a row is histogrammed. */
#ifndef CT_REPORT_MODEL_STATS_H
#define CT_REPORT_MODEL_STATS_H

#include <stdint.h>

#define RP_STATS_EXACT 1024
#define RP_STATS_SUB_BITS 7
#define RP_STATS_OCTAVES (64 - RP_STATS_SUB_BITS + 1)

struct rp_stats {
    uint64_t n, total, min, max;
    unsigned __int128 sq;  /* the sum of the values' squares (wraps only past 2^128: a row of over 2^48 values
                            * of 18 minutes each) */
    uint64_t *exact;       /* the first values, while n <= RP_STATS_EXACT; NULL once histogrammed */
    uint64_t **octave;     /* once histogrammed: RP_STATS_OCTAVES octaves of 1 << RP_STATS_SUB_BITS counts each */
    int histogrammed;
};

void rp_stats_init(struct rp_stats *s);
/* Returns 0, or -1 when out of memory (the value is still counted in every statistic but the median). */
int rp_stats_add(struct rp_stats *s, uint64_t v);
/* Add every value of src to dst (src unchanged): dst then holds what one row fed both sets would.  0, or -1
 * when out of memory (the median may then miss values). */
int rp_stats_merge(struct rp_stats *dst, const struct rp_stats *src);
/* Reading a row back (a partial): make it histogrammed, and put `count` values in bucket (octave, sub).  0, or
 * -1 when out of memory or the bucket does not exist. */
int rp_stats_put_bucket(struct rp_stats *s, unsigned octave, unsigned sub, uint64_t count);
double rp_stats_mean(const struct rp_stats *s);
/* Sample standard deviation (n - 1 in the denominator, as nsys); 0 for fewer than two values. */
double rp_stats_stddev(const struct rp_stats *s);
/* Median (the mean of the two middle values when n is even); 0 when empty.  May sort the kept values. */
double rp_stats_median(struct rp_stats *s);
void rp_stats_free(struct rp_stats *s);

#endif
