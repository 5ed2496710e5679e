/* cudatrace-report statistics: mean and deviation from integer sums, merges equal to one row fed everything, exact medians up to RP_STATS_EXACT values, the
 * histogram's documented bound (within 1/256 of the exact median) beyond, bounded memory. */
#include "config.h"

#include <CUnit/Basic.h>
#include <malloc.h>
#include <math.h>
#include <stdlib.h>

#include "report/model/stats.h"

static int cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static double exact_median(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp);
    return ((double)v[(n - 1) / 2] + (double)v[n / 2]) / 2.0;
}

static void test_small_exact(void)
{
    struct rp_stats s;
    rp_stats_init(&s);
    CU_ASSERT_EQUAL(rp_stats_median(&s), 0.0);
    CU_ASSERT_EQUAL(rp_stats_stddev(&s), 0.0);
    uint64_t v[] = {3000, 1000, 800};
    for (int i = 0; i < 3; i++)
        rp_stats_add(&s, v[i]);
    CU_ASSERT_EQUAL(s.n, 3);
    CU_ASSERT_EQUAL(s.total, 4800);
    CU_ASSERT_EQUAL(s.min, 800);
    CU_ASSERT_EQUAL(s.max, 3000);
    CU_ASSERT_DOUBLE_EQUAL(rp_stats_mean(&s), 1600.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(rp_stats_median(&s), 1000.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(rp_stats_stddev(&s), sqrt((600.0 * 600 + 1400.0 * 1400 + 800.0 * 800) / 2), 1e-9);
    rp_stats_add(&s, 100); /* even count: mean of the middle two */
    CU_ASSERT_DOUBLE_EQUAL(rp_stats_median(&s), 900.0, 1e-9);
    rp_stats_add(&s, 5); /* values may come after a median was taken */
    CU_ASSERT_DOUBLE_EQUAL(rp_stats_median(&s), 800.0, 1e-9);
    rp_stats_free(&s);
}

static void test_exact_up_to_limit(void)
{
    struct rp_stats s;
    uint64_t *v = malloc(RP_STATS_EXACT * sizeof *v);
    rp_stats_init(&s);
    srand(7);
    for (size_t i = 0; i < RP_STATS_EXACT; i++)
        rp_stats_add(&s, v[i] = (uint64_t)rand() * 97 % 10000019);
    CU_ASSERT_FALSE(s.histogrammed);
    CU_ASSERT_DOUBLE_EQUAL(rp_stats_median(&s), exact_median(v, RP_STATS_EXACT), 1e-9);
    free(v);
    rp_stats_free(&s);
}

/* Beyond the exact limit: the median within 1/256 of the exact one, on several distributions. */
static void test_histogram_bound(void)
{
    enum { N = 200001 };
    uint64_t *v = malloc(N * sizeof *v);
    for (int dist = 0; dist < 4; dist++) {
        struct rp_stats s;
        double mean = 0;
        rp_stats_init(&s);
        srand(100 + dist);
        for (size_t i = 0; i < N; i++) {
            double u = (rand() + 1.0) / (RAND_MAX + 2.0);
            switch (dist) {
            case 0: v[i] = 1000 + (uint64_t)(u * 1e6); break;            /* uniform */
            case 1: v[i] = (uint64_t)exp(3 + 15 * u); break;             /* log-uniform, 20 ns .. 65 ms */
            case 2: v[i] = 50 + (uint64_t)(u * 70); break;               /* small values: exact buckets */
            default: v[i] = (uint64_t)(-log(u) * 5000.0) + 1; break;     /* exponential */
            }
            rp_stats_add(&s, v[i]);
            mean += (double)v[i];
        }
        CU_ASSERT_TRUE(s.histogrammed);
        CU_ASSERT_DOUBLE_EQUAL(rp_stats_mean(&s), mean / N, 1e-6 * mean / N);
        double exact = exact_median(v, N), est = rp_stats_median(&s);
        CU_ASSERT_TRUE(fabs(est - exact) <= exact / 256.0);
        if (dist == 2)
            CU_ASSERT_DOUBLE_EQUAL(est, exact, 1e-9); /* below 128 every value has its bucket */
        rp_stats_free(&s);
    }
    free(v);
}

/* Extremes: 0, 1 and the largest values land in buckets, the estimate stays within [min, max]. */
static void test_extremes(void)
{
    struct rp_stats s;
    rp_stats_init(&s);
    for (int i = 0; i < RP_STATS_EXACT + 10; i++)
        rp_stats_add(&s, i % 2 ? UINT64_MAX : 0);
    double m = rp_stats_median(&s);
    CU_ASSERT_TRUE(m >= 0 && m <= (double)UINT64_MAX);
    CU_ASSERT_EQUAL(s.min, 0);
    CU_ASSERT_EQUAL(s.max, UINT64_MAX);
    rp_stats_free(&s);
}

/* A row costs what its values need (a report has a row per distinct name): a few values keep a small
 * buffer and no table of octaves; the buffer doubles as values come, and the median stays exact. */
static void test_small_rows(void)
{
    struct rp_stats s;
    CU_ASSERT_TRUE(sizeof s <= 96);
    rp_stats_init(&s);
    rp_stats_add(&s, 7);
    CU_ASSERT_PTR_NULL(s.octave);
    CU_ASSERT_TRUE(malloc_usable_size(s.exact) < 64);
    for (uint64_t v = 1; v <= 8; v++)
        rp_stats_add(&s, v * 10);
    CU_ASSERT_PTR_NULL(s.octave);
    CU_ASSERT_TRUE(malloc_usable_size(s.exact) < 256);
    CU_ASSERT_DOUBLE_EQUAL(rp_stats_median(&s), 40.0, 1e-9); /* 7, 10, ..., 80 */
    rp_stats_free(&s);
}

/* Memory stays bounded: a million values of one magnitude touch few octaves. */
static void test_bounded(void)
{
    struct rp_stats s;
    rp_stats_init(&s);
    for (int i = 0; i < 1000000; i++)
        rp_stats_add(&s, 4096 + (uint64_t)(i % 4096));
    int octaves = 0;
    for (int o = 0; o < RP_STATS_OCTAVES; o++)
        octaves += s.octave[o] != NULL;
    CU_ASSERT_EQUAL(octaves, 1);
    CU_ASSERT_PTR_NULL(s.exact);
    rp_stats_free(&s);
}

/* Same statistics, to the bit (the merge must give what one row fed every value gives). */
static void assert_same(struct rp_stats *a, struct rp_stats *b)
{
    CU_ASSERT_EQUAL(a->n, b->n);
    CU_ASSERT_EQUAL(a->total, b->total);
    CU_ASSERT_EQUAL(a->min, b->min);
    CU_ASSERT_EQUAL(a->max, b->max);
    CU_ASSERT(rp_stats_mean(a) == rp_stats_mean(b));
    CU_ASSERT(rp_stats_stddev(a) == rp_stats_stddev(b));
    CU_ASSERT(rp_stats_median(a) == rp_stats_median(b));
}

/* Rows split in pieces (exact + exact staying exact, exact + exact overflowing into the histogram, histogram +
 * exact, exact + histogram, histogram + histogram) and merged in either order equal the whole row. */
static void test_merge(void)
{
    static const size_t sizes[][2] = {{3, 5}, {600, 600}, {2000, 7}, {7, 2000}, {3000, 5000}, {0, 9}, {9, 0}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        struct rp_stats whole, a, b, ab, ba;
        rp_stats_init(&whole), rp_stats_init(&a), rp_stats_init(&b), rp_stats_init(&ab), rp_stats_init(&ba);
        uint64_t x = 12345 + k;
        for (size_t i = 0; i < sizes[k][0] + sizes[k][1]; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            const uint64_t v = (x >> 33) % 1000000 + (i % 3 ? 0 : 5000000);
            CU_ASSERT_EQUAL(rp_stats_add(&whole, v), 0);
            CU_ASSERT_EQUAL(rp_stats_add(i < sizes[k][0] ? &a : &b, v), 0);
        }
        CU_ASSERT_EQUAL(rp_stats_merge(&ab, &a), 0);
        CU_ASSERT_EQUAL(rp_stats_merge(&ab, &b), 0);
        CU_ASSERT_EQUAL(rp_stats_merge(&ba, &b), 0);
        CU_ASSERT_EQUAL(rp_stats_merge(&ba, &a), 0);
        assert_same(&ab, &whole);
        assert_same(&ba, &whole);
        CU_ASSERT_EQUAL(ab.histogrammed, whole.histogrammed);
        CU_ASSERT_EQUAL(rp_stats_add(&ab, 7), 0); /* a merged row still takes values */
        CU_ASSERT_EQUAL(rp_stats_add(&whole, 7), 0);
        assert_same(&ab, &whole);
        rp_stats_free(&whole), rp_stats_free(&a), rp_stats_free(&b), rp_stats_free(&ab), rp_stats_free(&ba);
    }
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite suite = CU_add_suite("report_stats", NULL, NULL);
    CU_add_test(suite, "small sets are exact", test_small_exact);
    CU_add_test(suite, "exact up to RP_STATS_EXACT", test_exact_up_to_limit);
    CU_add_test(suite, "histogram median within 1/256", test_histogram_bound);
    CU_add_test(suite, "extreme values", test_extremes);
    CU_add_test(suite, "small rows", test_small_rows);
    CU_add_test(suite, "bounded memory", test_bounded);
    CU_add_test(suite, "merges equal the whole", test_merge);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
