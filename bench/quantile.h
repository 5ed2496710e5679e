/* The benchmarks' medians and quartiles, one definition for the C and the nvcc-built (C++) programs:
 * sort, then the quantile p of the sorted v[0..n) interpolated between order statistics (R's default,
 * type 7, as bench/run-overhead's awk computes it too). */
#ifndef BENCH_QUANTILE_H
#define BENCH_QUANTILE_H

#include <stddef.h>
#include <stdlib.h>

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline void bench_sort(double *v, size_t n) { qsort(v, n, sizeof *v, bench_cmp_double); }

static inline double bench_quantile(const double *v, size_t n, double p)
{
    double h = (double)(n - 1) * p;
    size_t lo = (size_t)h;
    return lo + 1 < n ? v[lo] + (h - (double)lo) * (v[lo + 1] - v[lo]) : v[lo];
}

#endif
