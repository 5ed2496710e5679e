/* Remembered walks (src/recorder/stack_memo.c): a stack seen before is told by the words that decided its
 * walk, so two stacks that start at the same address must still get their own ids when any frame differs,
 * and a remembered stack must get the id its first walk gave.  Runs the recorder for real (stacks on every
 * call, a trace file in a temporary directory) and captures stacks directly. */
#include "config.h"

#include <CUnit/Basic.h>
#include <alloca.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder/recorder.h"
#include "recorder/stack_memo.h"
#include "recorder/stacks.h"
#include "recorder_test.h"

#define ROUNDS 40

/* Each frame its own: never inlined, cloned or made a tail call. */
#define FRAME __attribute__((noipa))

static uintptr_t leaf_at; /* where leaf's frame was, each time */
static volatile int probing, sink;
static volatile unsigned wide = 256, narrow = 128;

FRAME static uint32_t leaf(void)
{
    leaf_at = (uintptr_t)__builtin_frame_address(0);
    return probing ? 0 : ct_stack_capture() + (uint32_t)sink;
}

/* The same code twice, so the same frame: leaf is at one address under either, only the return address
 * into path_a or path_b differs. */
FRAME static uint32_t path_a(void) { return leaf() + (uint32_t)sink; }
FRAME static uint32_t path_b(void) { return leaf() + (uint32_t)sink; }

/* padded has a frame pointer (its alloca needs one); called from via_wide with no padding and from
 * via_narrow with padding that makes up the difference of their allocas, leaf is at one address, while
 * padded's frame pointer, and so where its caller's frame is, differs. */
FRAME static uint32_t padded(unsigned pad)
{
    char *p = alloca(pad + 1);
    p[0] = (char)sink;
    return leaf() + (uint32_t)p[0];
}

FRAME static uint32_t via_wide(unsigned pad)
{
    char *p = alloca(wide);
    p[0] = (char)sink;
    return padded(pad) + (uint32_t)p[0];
}

FRAME static uint32_t via_narrow(unsigned pad)
{
    char *p = alloca(narrow);
    p[0] = (char)sink;
    return padded(pad) + (uint32_t)p[0];
}

/* Capture from two paths in turn, ROUNDS times each, both called from one place (so that only the frames
 * below differ): every capture of a path gets the id of its first, the two ids differ, and (where walks are
 * remembered) all but the first few come from memos.  With `search`, pad_a and pad_b are found here (every
 * call in this function starts at one stack address): a pad_a of 0, 16, 32 or 48 and a pad_b 16 to 48 more
 * that put leaf at one address under both. */
static void alternate(uint32_t (*a)(unsigned), uint32_t (*b)(unsigned), unsigned pad_a, unsigned pad_b,
                      int search)
{
    uint32_t (*const path[2])(unsigned) = {a, b};
    unsigned pad[2] = {pad_a, pad_b};
    uint32_t id[2] = {0, 0};
    uintptr_t at[2];
    unsigned long hits = ct_stack_memo_hits();

    for (int found = !search, p = 0; !found; p++) {
        CU_ASSERT_FATAL(p < 12);
        pad[0] = (unsigned)p / 3 * 16;
        pad[1] = pad[0] + (unsigned)p % 3 * 16 + 16;
        probing = 1;
        for (int k = 0; k < 2; k++) {
            path[k](pad[k]);
            at[k] = leaf_at;
        }
        probing = 0;
        found = at[0] == at[1];
    }
    for (int i = 0; i < 2 * ROUNDS; i++) {
        uint32_t got = path[i % 2](pad[i % 2]);
        at[i % 2] = leaf_at;
        CU_ASSERT_FATAL(got != 0);
        if (i < 2)
            id[i] = got;
        CU_ASSERT_EQUAL(got, id[i % 2]);
        if (i % 2)
            CU_ASSERT_FATAL(at[0] == at[1]); /* else this test would prove nothing */
    }
    CU_ASSERT(id[0] != id[1]);
    if (CT_STACK_MEMO)
        CU_ASSERT(ct_stack_memo_hits() - hits >= 2 * ROUNDS - 4);
}

static uint32_t call_a(unsigned pad) { return path_a() + pad; }
static uint32_t call_b(unsigned pad) { return path_b() + pad; }

static void test_other_caller(void) { alternate(call_a, call_b, 0, 0, 0); }

static void test_moved_frame_pointer(void)
{
    /* The padding that puts leaf at the same address under both, found without capturing. */
    unsigned pad = 0;
    probing = 1;
    via_wide(0);
    uintptr_t want = leaf_at;
    while (pad <= 4096) {
        via_narrow(pad);
        if (leaf_at == want)
            break;
        pad += 8;
    }
    probing = 0;
    CU_ASSERT_FATAL(pad <= 4096);
    alternate(via_wide, via_narrow, 0, pad, 0);
}

/* realigned realigns its stack (an over-aligned local) and calls alloca, so GCC finds its frame's top through
 * a word below its frame pointer; entered from caller_1 and caller_2 at stack pointers that differ by less
 * than the alignment, it puts leaf at one address either way, while its callers are elsewhere. */
FRAME static uint32_t leaf_with(char *b)
{
    b[1] = (char)sink;
    return leaf() + (uint32_t)b[1];
}

FRAME static uint32_t realigned(unsigned n)
{
    __attribute__((aligned(64))) char b[64]; /* passed on, so really aligned: the frame is realigned */
    char *p = alloca(n);
    p[0] = (char)sink;
    b[0] = p[0];
    return leaf_with(b) + (uint32_t)p[0];
}

#define CALLER(name)                                                                                           \
    FRAME static uint32_t name(unsigned pad)                                                                   \
    {                                                                                                          \
        char *p = alloca(pad + 1);                                                                             \
        p[0] = (char)sink;                                                                                     \
        return realigned(8) + (uint32_t)p[0];                                                                  \
    }
CALLER(caller_1)
CALLER(caller_2)

static void test_realigned(void) { alternate(caller_1, caller_2, 0, 0, 1); }

/* A stack at a new depth is walked again, and its id is its own. */
FRAME static uint32_t deeper(int n) { return n ? deeper(n - 1) + (uint32_t)sink : leaf(); }

static void test_depths(void)
{
    uint32_t ids[6];
    for (int round = 0; round < 3; round++)
        for (int d = 0; d < 6; d++) {
            uint32_t id = deeper(d);
            CU_ASSERT_FATAL(id != 0);
            if (round == 0)
                ids[d] = id;
            CU_ASSERT_EQUAL(id, ids[d]);
            for (int e = 0; e < d && round == 0; e++)
                CU_ASSERT(ids[e] != id);
        }
}

/* Another thread has memos of its own (freed when it ends), and the same stacks there get the same ids. */
static void *in_thread(void *arg)
{
    (void)arg;
    alternate(call_a, call_b, 0, 0, 0);
    return NULL;
}

static void test_thread(void)
{
    pthread_t t;
    CU_ASSERT_FATAL(pthread_create(&t, NULL, in_thread, NULL) == 0);
    CU_ASSERT(pthread_join(t, NULL) == 0);
}

int main(void)
{
    struct recorder_test rt;

    if (recorder_test_start(&rt, "all") < 0)
        return 99;

    CU_pSuite s;
    if (CU_initialize_registry() != CUE_SUCCESS || !(s = CU_add_suite("stack memo", NULL, NULL)) ||
        !CU_add_test(s, "same place, another caller", test_other_caller) ||
        !CU_add_test(s, "same place, the frame pointer moved", test_moved_frame_pointer) ||
        !CU_add_test(s, "same place, a realigned frame moved", test_realigned) ||
        !CU_add_test(s, "other depths", test_depths) || !CU_add_test(s, "another thread", test_thread))
        return 99;
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    recorder_test_end(&rt);
    return failed ? 1 : 0;
}
