/* The tracer's heap (src/recorder/alloc.c): blocks of every size class and beyond hold what was written,
 * stay apart, come back aligned, are reused after ct_free, come back cleared from ct_calloc even when reused,
 * and keep their bytes through ct_realloc; sizes that overflow are refused.  In a sanitizer build glibc's
 * allocator serves instead, and the same checks hold. */
#include "config.h"

#include <CUnit/Basic.h>
#include <stdint.h>
#include <string.h>

#include "recorder/alloc.h"

static const size_t sizes[] = {0, 1, 15, 16, 17, 63, 64, 100, 1000, 4096, 20000, 32768, 32769, 100000, 3u << 20};
#define NSIZES (sizeof sizes / sizeof sizes[0])

static void test_sizes_apart(void)
{
    unsigned char *p[NSIZES][4];
    for (size_t i = 0; i < NSIZES; i++)
        for (int j = 0; j < 4; j++) {
            CU_ASSERT_PTR_NOT_NULL_FATAL(p[i][j] = ct_malloc(sizes[i]));
            CU_ASSERT_EQUAL((uintptr_t)p[i][j] % 16, 0);
            memset(p[i][j], (int)(i * 4 + j), sizes[i]);
        }
    for (size_t i = 0; i < NSIZES; i++)
        for (int j = 0; j < 4; j++) {
            size_t bad = 0;
            for (size_t k = 0; k < sizes[i]; k++)
                bad += p[i][j][k] != (unsigned char)(i * 4 + j);
            CU_ASSERT_EQUAL(bad, 0); /* no other block was written over this one */
            ct_free(p[i][j]);
        }
    ct_free(NULL);
}

static void test_aligned(void)
{
    for (size_t a = 1; a <= 64; a *= 2)
        for (size_t i = 0; i < NSIZES; i++) {
            void *p = ct_aligned_alloc(a, sizes[i]);
            CU_ASSERT_PTR_NOT_NULL_FATAL(p);
            CU_ASSERT_EQUAL((uintptr_t)p % a, 0);
            memset(p, 1, sizes[i]);
            ct_free(p);
        }
    CU_ASSERT_PTR_NULL(ct_aligned_alloc(48, 10)); /* not a power of two */
    CU_ASSERT_PTR_NULL(ct_aligned_alloc(128, 10)); /* more than the heap promises */
}

static void test_calloc_cleared(void)
{
    for (size_t i = 0; i < NSIZES; i++) {
        unsigned char *p = ct_malloc(sizes[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        memset(p, 0xa5, sizes[i]);
        ct_free(p);
        unsigned char *q = ct_calloc(1, sizes[i]); /* the block just freed, when the heap reuses it */
        CU_ASSERT_PTR_NOT_NULL_FATAL(q);
        size_t set = 0;
        for (size_t k = 0; k < sizes[i]; k++)
            set += q[k] != 0;
        CU_ASSERT_EQUAL(set, 0);
        ct_free(q);
    }
    CU_ASSERT_PTR_NULL(ct_calloc(SIZE_MAX / 2, 4));
    CU_ASSERT_PTR_NULL(ct_malloc(SIZE_MAX - 8));
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__) /* a sanitizer's allocator delays reuse */
static void test_reuse(void)
{
    void *p = ct_malloc(200);
    ct_free(p);
    void *q = ct_malloc(200);
    CU_ASSERT_PTR_EQUAL(q, p); /* a freed block serves the next request of its class */
    ct_free(q);
}
#endif

static void test_realloc(void)
{
    unsigned char *p = ct_realloc(NULL, 10);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    for (int k = 0; k < 10; k++)
        p[k] = (unsigned char)k;
    for (size_t n = 20; n <= (4u << 20); n *= 3) { /* grow through the classes into mappings */
        CU_ASSERT_PTR_NOT_NULL_FATAL(p = ct_realloc(p, n));
        for (int k = 0; k < 10; k++)
            CU_ASSERT_EQUAL(p[k], k);
        p[n - 1] = 7;
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(p = ct_realloc(p, 12)); /* and back down */
    for (int k = 0; k < 10; k++)
        CU_ASSERT_EQUAL(p[k], k);
    ct_free(p);

    char *s = ct_strdup("a string of the tracer's");
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_STRING_EQUAL(s, "a string of the tracer's");
    ct_free(s);
}

int main(void)
{
    CU_pSuite s;
    unsigned failed;

    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    s = CU_add_suite("alloc", NULL, NULL);
    CU_add_test(s, "sizes hold their bytes, apart", test_sizes_apart);
    CU_add_test(s, "aligned blocks", test_aligned);
    CU_add_test(s, "calloc clears reused blocks", test_calloc_cleared);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    CU_add_test(s, "freed blocks reused", test_reuse);
#endif
    CU_add_test(s, "realloc keeps the bytes", test_realloc);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
