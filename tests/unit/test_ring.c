/* The per-thread ring: records of every size come out whole and in order across many wrap-arounds, pads
 * never reach the spans, and a full ring refuses a record instead of overwriting unread ones. */
#include "config.h"

#include <CUnit/Basic.h>
#include <string.h>

#include "format/record.h"
#include "recorder/ring.h"

/* Consume everything: check each record's sequence and what the walk says of it, return how many. */
static unsigned consume(struct ct_ring *r, uint32_t *expect)
{
    struct iovec iov[3];
    struct ct_span_stats st;
    uint64_t end, joined = 0;
    unsigned got = 0;
    int n = ct_ring_spans(r, iov, &end, &st);

    for (int i = 0; i < n; i++) {
        const unsigned char *p = iov[i].iov_base, *stop = p + iov[i].iov_len;
        CU_ASSERT((const unsigned char *)iov[i].iov_base >= r->buf);
        CU_ASSERT(stop <= r->buf + r->size);
        while (p < stop) {
            const struct ct_rec_hdr *h = (const void *)p;
            CU_ASSERT_EQUAL_FATAL(h->type, CT_REC_CALL);
            CU_ASSERT_EQUAL(((const struct ct_rec_call *)h)->seq, *expect);
            (*expect)++;
            got++;
            p += h->size;
            joined += h->size;
        }
        CU_ASSERT_EQUAL(p, stop);
    }
    CU_ASSERT_EQUAL(st.records, got);
    CU_ASSERT_EQUAL(st.calls, got);
    CU_ASSERT_EQUAL(st.lost, 0);
    /* The last record starts where the joined spans end, less its size. */
    if (got) {
        const struct ct_rec_hdr *last = (const void *)((const unsigned char *)iov[n - 1].iov_base +
                                                       st.at[(got - 1) % CT_SPAN_LAST] -
                                                       (joined - iov[n - 1].iov_len));
        CU_ASSERT_EQUAL(st.at[(got - 1) % CT_SPAN_LAST] + last->size, joined);
    }
    ct_ring_release(r, end);
    return got;
}

static void test_wrap_order(void)
{
    struct ct_ring *r = ct_ring_new(64 << 10, 1);
    uint32_t next = 0, expect = 0;

    CU_ASSERT_FATAL(r != NULL);
    for (int round = 0; round < 2000; round++) {
        /* A varying batch of varying sizes (48..48+8*37 bytes) so pads land everywhere. */
        for (int k = 0; k < (round % 50) + 1; k++) {
            size_t size = 48 + 8 * ((next * 7) % 38);
            struct ct_rec_call *c = ct_ring_fits(r, size) ? ct_ring_take(r, size) : ct_ring_reserve(r, size);
            CU_ASSERT_FATAL(c != NULL);
            memset(c, 0xee, size);
            ct_put_hdr(&c->h, CT_REC_CALL, size, 1);
            c->seq = next++;
            ct_ring_commit(r);
        }
        consume(r, &expect);
    }
    CU_ASSERT_EQUAL(expect, next);
    ct_ring_free(r);
}

static void test_full(void)
{
    struct ct_ring *r = ct_ring_new(64 << 10, 1);
    uint32_t next = 0, expect = 0;
    unsigned fitted = 0;

    CU_ASSERT_FATAL(r != NULL);
    for (;;) {
        struct ct_rec_call *c = ct_ring_reserve(r, sizeof *c);
        if (!c)
            break;
        ct_put_hdr(&c->h, CT_REC_CALL, sizeof *c, 1);
        c->seq = next++;
        ct_ring_commit(r);
        fitted++;
    }
    CU_ASSERT_EQUAL(fitted, (64u << 10) / 48); /* every byte usable, nothing overwritten */
    CU_ASSERT_EQUAL(consume(r, &expect), fitted);
    /* An uncommitted reservation is not published. */
    CU_ASSERT_PTR_NOT_NULL(ct_ring_reserve(r, 48));
    CU_ASSERT_EQUAL(consume(r, &expect), 0);
    ct_ring_free(r);
}

/* A big ring starts CT_RING_STARTER bytes before the end of its memory (ring.h): its first records sit there,
 * the first wrap asks for huge pages once, and every byte is still usable and in order across it. */
static void test_big_ring_starter(void)
{
    const size_t size = CT_RING_HUGE_MIN;
    struct ct_ring *r = ct_ring_new(size, 1);
    uint32_t next = 0, expect = 0;
    unsigned fitted = 0;

    CU_ASSERT_FATAL(r != NULL);
    CU_ASSERT_EQUAL((uintptr_t)r->buf % CT_RING_HUGE, 0);
    CU_ASSERT_EQUAL(r->huge_pending, 1);
    /* 64-byte records end exactly at the end of the memory: the wrap must still be noticed. */
    for (unsigned i = 0; i < CT_RING_STARTER / 64; i++) {
        CU_ASSERT_EQUAL(r->huge_pending, 1); /* until the record that reaches the end */
        struct ct_rec_call *c = ct_ring_fits(r, 64) ? ct_ring_take(r, 64) : ct_ring_reserve(r, 64);
        CU_ASSERT_FATAL(c != NULL);
        CU_ASSERT((unsigned char *)c >= r->buf + size - CT_RING_STARTER);
        ct_put_hdr(&c->h, CT_REC_CALL, 64, 1);
        c->seq = next++;
        ct_ring_commit(r);
    }
    CU_ASSERT_EQUAL(r->huge_pending, 0);
    CU_ASSERT_EQUAL(consume(r, &expect), CT_RING_STARTER / 64);
    for (;;) {
        struct ct_rec_call *c = ct_ring_fits(r, 64) ? ct_ring_take(r, 64) : ct_ring_reserve(r, 64);
        if (!c)
            break;
        ct_put_hdr(&c->h, CT_REC_CALL, 64, 1);
        c->seq = next++;
        ct_ring_commit(r);
        fitted++;
    }
    CU_ASSERT_EQUAL(fitted, size / 64); /* the whole memory, from its start */
    CU_ASSERT_EQUAL(consume(r, &expect), fitted);
    CU_ASSERT_EQUAL(expect, next);
    ct_ring_free(r);
}

int main(void)
{
    CU_pSuite s;
    unsigned failed;

    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    s = CU_add_suite("ring", NULL, NULL);
    CU_add_test(s, "order across wrap-arounds", test_wrap_order);
    CU_add_test(s, "full ring", test_full);
    CU_add_test(s, "big ring: starter region and first wrap", test_big_ring_starter);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
