#include "config.h"

#include "report/model/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SUB (1u << RP_STATS_SUB_BITS)

void rp_stats_init(struct rp_stats *s)
{
    memset(s, 0, sizeof *s);
}

/* Octave and sub-bucket of a value: octave 0 holds 0..SUB-1 exactly; octave o >= 1 holds
 * [2^(o+SUB_BITS-1), 2^(o+SUB_BITS)) in SUB buckets. */
static void bucket_of(uint64_t v, unsigned *octave, unsigned *sub)
{
    if (v < SUB) {
        *octave = 0;
        *sub = (unsigned)v;
        return;
    }
    unsigned e = 63u - (unsigned)__builtin_clzll(v); /* floor(log2 v) >= SUB_BITS */
    *octave = e - RP_STATS_SUB_BITS + 1;
    *sub = (unsigned)(v >> (e - RP_STATS_SUB_BITS)) & (SUB - 1);
}

/* The value a bucket stands for: its midpoint (exact in octave 0). */
static double bucket_value(unsigned octave, unsigned sub)
{
    if (octave == 0)
        return sub;
    unsigned shift = octave - 1;
    double lo = ldexp((double)(SUB + sub), (int)shift);
    return lo + ldexp(1.0, (int)shift) / 2.0;
}

static int hist_add(struct rp_stats *s, uint64_t v, uint64_t count)
{
    unsigned o, b;
    bucket_of(v, &o, &b);
    if (!s->octave || (!s->octave[o] && !(s->octave[o] = calloc(SUB, sizeof(uint64_t)))))
        return -1;
    s->octave[o][b] += count;
    return 0;
}

/* Room in the kept values' buffer for value number n (1-based): 4 values, doubled when full.  0 when it
 * cannot grow (the buffer, if any, still holds the first n - 1). */
static int exact_room(struct rp_stats *s)
{
    const uint64_t had = s->n - 1;
    if (had >= 4 && (had & (had - 1)) == 0) { /* full: 4, 8, ... values */
        uint64_t *e = realloc(s->exact, 2 * had * sizeof *e);
        if (!e)
            return 0;
        s->exact = e;
    } else if (had == 0) {
        s->exact = malloc(4 * sizeof *s->exact);
    }
    return s->exact != NULL;
}

int rp_stats_add(struct rp_stats *s, uint64_t v)
{
    s->n++;
    s->total += v;
    if (s->n == 1 || v < s->min)
        s->min = v;
    if (v > s->max)
        s->max = v;
    double d = (double)v - s->mean;
    s->mean += d / (double)s->n;
    s->m2 += d * ((double)v - s->mean);

    if (!s->histogrammed) {
        if (s->n <= RP_STATS_EXACT && exact_room(s)) {
            s->exact[s->n - 1] = v;
            return 0;
        }
        /* The row outgrew exact mode (or its buffer could not grow): move the kept values into the
         * histogram. */
        int rc = !(s->octave = calloc(RP_STATS_OCTAVES, sizeof *s->octave));
        for (uint64_t i = 0; s->exact && i < s->n - 1; i++)
            rc |= hist_add(s, s->exact[i], 1);
        free(s->exact);
        s->exact = NULL;
        s->histogrammed = 1;
        if (rc)
            return -1;
    }
    return hist_add(s, v, 1);
}

double rp_stats_mean(const struct rp_stats *s)
{
    return s->n ? s->mean : 0.0;
}

double rp_stats_stddev(const struct rp_stats *s)
{
    return s->n > 1 ? sqrt(s->m2 / (double)(s->n - 1)) : 0.0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The histogram's estimate of the value of rank k (0-based), clamped to the exact min and max. */
static double hist_rank(const struct rp_stats *s, uint64_t k)
{
    uint64_t seen = 0;
    for (unsigned o = 0; s->octave && o < RP_STATS_OCTAVES; o++) {
        if (!s->octave[o])
            continue;
        for (unsigned b = 0; b < SUB; b++) {
            seen += s->octave[o][b];
            if (seen > k) {
                double v = bucket_value(o, b);
                return v < (double)s->min ? (double)s->min : v > (double)s->max ? (double)s->max : v;
            }
        }
    }
    return (double)s->max; /* a value was lost to an allocation failure */
}

double rp_stats_median(struct rp_stats *s)
{
    if (s->n == 0)
        return 0.0;
    uint64_t lo = (s->n - 1) / 2, hi = s->n / 2;
    if (!s->histogrammed) {
        qsort(s->exact, s->n, sizeof *s->exact, cmp_u64);
        return ((double)s->exact[lo] + (double)s->exact[hi]) / 2.0;
    }
    return (hist_rank(s, lo) + hist_rank(s, hi)) / 2.0;
}

void rp_stats_free(struct rp_stats *s)
{
    free(s->exact);
    for (unsigned o = 0; s->octave && o < RP_STATS_OCTAVES; o++)
        free(s->octave[o]);
    free(s->octave);
    rp_stats_init(s);
}
