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

/* A kept buffer of room for n values, as exact_room grows it (4, 8, 16, ...), so that later adds find it
 * as they expect.  0 when it cannot grow. */
static int exact_reserve(struct rp_stats *s, uint64_t n)
{
    uint64_t cap = 4;
    while (cap < n)
        cap *= 2;
    uint64_t *e = realloc(s->exact, cap * sizeof *e);
    if (!e)
        return 0;
    s->exact = e;
    return 1;
}

/* Move the kept values into the histogram.  0, or -1 when out of memory. */
static int histogram(struct rp_stats *s, uint64_t kept)
{
    int rc = !(s->octave = calloc(RP_STATS_OCTAVES, sizeof *s->octave));
    for (uint64_t i = 0; s->exact && i < kept; i++)
        rc |= hist_add(s, s->exact[i], 1);
    free(s->exact);
    s->exact = NULL;
    s->histogrammed = 1;
    return rc ? -1 : 0;
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
    s->sq += (unsigned __int128)v * v;

    if (!s->histogrammed) {
        if (s->n <= RP_STATS_EXACT && exact_room(s)) {
            s->exact[s->n - 1] = v;
            return 0;
        }
        /* The row outgrew exact mode (or its buffer could not grow): move the kept values into the
         * histogram. */
        if (histogram(s, s->n - 1) < 0)
            return -1;
    }
    return hist_add(s, v, 1);
}

int rp_stats_merge(struct rp_stats *dst, const struct rp_stats *src)
{
    if (!src->n)
        return 0;
    const uint64_t had = dst->n;
    if (!dst->n || src->min < dst->min)
        dst->min = src->min;
    if (src->max > dst->max)
        dst->max = src->max;
    dst->n += src->n;
    dst->total += src->total;
    dst->sq += src->sq;
    if (!dst->histogrammed && !src->histogrammed && dst->n <= RP_STATS_EXACT && exact_reserve(dst, dst->n)) {
        memcpy(dst->exact + had, src->exact, src->n * sizeof *src->exact);
        return 0;
    }
    int rc = 0;
    if (!dst->histogrammed)
        rc = histogram(dst, had);
    if (!dst->octave)
        return -1;
    if (!src->histogrammed) {
        for (uint64_t i = 0; src->exact && i < src->n; i++)
            rc |= hist_add(dst, src->exact[i], 1);
        return rc;
    }
    for (unsigned o = 0; src->octave && o < RP_STATS_OCTAVES; o++)
        for (unsigned b = 0; src->octave[o] && b < SUB; b++)
            if (src->octave[o][b]) {
                if (!dst->octave[o] && !(dst->octave[o] = calloc(SUB, sizeof(uint64_t))))
                    return -1;
                dst->octave[o][b] += src->octave[o][b];
            }
    return rc;
}

int rp_stats_put_bucket(struct rp_stats *s, unsigned octave, unsigned sub, uint64_t count)
{
    if (octave >= RP_STATS_OCTAVES || sub >= SUB)
        return -1;
    if (!s->histogrammed) {
        free(s->exact);
        s->exact = NULL;
        s->histogrammed = 1;
    }
    if (!s->octave && !(s->octave = calloc(RP_STATS_OCTAVES, sizeof *s->octave)))
        return -1;
    if (!s->octave[octave] && !(s->octave[octave] = calloc(SUB, sizeof(uint64_t))))
        return -1;
    s->octave[octave][sub] += count;
    return 0;
}

double rp_stats_mean(const struct rp_stats *s)
{
    return s->n ? (double)s->total / (double)s->n : 0.0;
}

/* With total = q n + r (0 <= r < n): n (n - 1) var = n sq - total^2 = n (sq - q^2 n - 2 q r) - r^2, whose
 * first term is exact in the 128-bit integers (sq >= total^2 / n keeps it from going below 0). */
double rp_stats_stddev(const struct rp_stats *s)
{
    if (s->n < 2)
        return 0.0;
    const uint64_t q = s->total / s->n, r = s->total % s->n;
    const unsigned __int128 t = s->sq - (unsigned __int128)q * q * s->n - (unsigned __int128)2 * q * r;
    const long double var = ((long double)t - (long double)r * (long double)r / (long double)s->n) / (long double)(s->n - 1);
    return var > 0 ? (double)sqrtl(var) : 0.0;
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
