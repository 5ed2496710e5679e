/* What makes two launches the same (recorder_hot.h, ct_rec_same_launch): a launch is written as a repeat
 * only when every byte of its payload equals its slot's, whichever way it comes in (the shortcut before the
 * name is looked up, ct_rec_launch_again, or ct_rec_launch), so no payload field can be decoded and left
 * out of the comparison.  Runs the recorder for real (a trace file in a temporary directory). */
#include "config.h"

#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder/recorder.h"
#include "recorder/recorder_hot.h"
#include "recorder_test.h"

#define API 3 /* cuLaunchKernel_ptsz in tests/integration/recorder-variants.c */

static uint64_t now_ticks = 1000;

/* The record the last launch wrote, whole: its type, and its payload when it is a full call. */
struct written {
    unsigned type;
    size_t size;
    struct ct_pl_launch pl;
};

static struct written last_record(uint64_t head_before)
{
    struct ct_ring *r = ct_rec_ring;
    struct written w = {0};

    CU_ASSERT_FATAL(r != NULL);
    const struct ct_rec_hdr *h = (const void *)(r->buf + (head_before & r->mask));
    w.type = h->type;
    w.size = ct_ring_head(r) - head_before;
    CU_ASSERT_EQUAL(w.size, h->size); /* exactly one record */
    if (h->type == CT_REC_CALL)
        memcpy(&w.pl, (const struct ct_rec_call *)h + 1, sizeof w.pl);
    return w;
}

/* As a generated launch trampoline does: the payload without its name first, the shortcut, then the name
 * and the full path. */
static struct written trampoline(const struct ct_pl_launch *shape, uint32_t name_id, uint32_t name_gen)
{
    struct ct_pl_launch pl = *shape;
    uint64_t before = ct_rec_ring ? ct_ring_head(ct_rec_ring) : 0, t0 = now_ticks, t1 = t0 + 50;

    now_ticks += 100;
    pl.name_id = 0;
    if (!ct_rec_launch_again(API, 0, t0, t1, &pl, name_gen)) {
        pl.name_id = name_id;
        ct_rec_launch(API, 0, t0, t1, &pl, 0, name_gen);
    }
    return last_record(before);
}

/* ct_rec_launch alone, with the payload's name in it. */
static struct written direct(const struct ct_pl_launch *pl, uint32_t name_gen)
{
    uint64_t before = ct_ring_head(ct_rec_ring), t0 = now_ticks, t1 = t0 + 50;

    now_ticks += 100;
    ct_rec_launch(API, 0, t0, t1, pl, 0, name_gen);
    return last_record(before);
}

static int is_repeat(unsigned type) { return type == CT_REC_LAUNCH_SHORT || type == CT_REC_LAUNCH_REPEAT; }

static struct ct_pl_launch base(void)
{
    struct ct_pl_launch pl;
    memset(&pl, 0, sizeof pl);
    pl.function = 0x7f0000123400;
    pl.stream = 0x5000;
    pl.grid[0] = 64, pl.grid[1] = 2, pl.grid[2] = 1;
    pl.block[0] = 256, pl.block[1] = 1, pl.block[2] = 1;
    pl.shared_mem = 1024;
    pl.kind = CT_LAUNCH_KERNEL;
    return pl;
}

static void test_repeat(void)
{
    struct ct_pl_launch pl = base();
    struct written w = trampoline(&pl, 7, 1);

    CU_ASSERT_EQUAL(w.type, CT_REC_CALL);
    pl.name_id = 7;
    CU_ASSERT(memcmp(&w.pl, &pl, sizeof pl) == 0);
    CU_ASSERT(is_repeat(trampoline(&pl, 7, 1).type));
    CU_ASSERT(is_repeat(direct(&pl, 1).type));
}

/* Every byte of the payload but the name, changed alone: a full record with exactly that payload. */
static void test_every_byte(void)
{
    const size_t name_at = offsetof(struct ct_pl_launch, name_id);

    for (size_t k = 0; k < sizeof(struct ct_pl_launch); k++) {
        if (k >= name_at && k < name_at + sizeof(uint32_t))
            continue;
        struct ct_pl_launch pl = base(), changed;
        trampoline(&pl, 7, 1);
        CU_ASSERT_FATAL(is_repeat(trampoline(&pl, 7, 1).type)); /* the slot holds pl */
        changed = pl;
        ((unsigned char *)&changed)[k] ^= 0x10;
        struct written w = trampoline(&changed, 7, 1);
        CU_ASSERT_EQUAL(w.type, CT_REC_CALL);
        changed.name_id = 7;
        CU_ASSERT(memcmp(&w.pl, &changed, sizeof changed) == 0);
    }
    /* The same through ct_rec_launch alone, the name's bytes included. */
    for (size_t k = 0; k < sizeof(struct ct_pl_launch); k++) {
        struct ct_pl_launch pl = base(), changed;
        pl.name_id = 7;
        direct(&pl, 1);
        CU_ASSERT_FATAL(is_repeat(direct(&pl, 1).type));
        changed = pl;
        ((unsigned char *)&changed)[k] ^= 0x10;
        CU_ASSERT_EQUAL(direct(&changed, 1).type, CT_REC_CALL);
    }
}

/* The shortcut takes the slot's name while the generation of kernel names stands; once it moves, the name
 * is looked up again and compared with the rest. */
static void test_name_generation(void)
{
    struct ct_pl_launch pl = base();

    pl.function = 0x7f0000abcd00;
    CU_ASSERT_EQUAL(trampoline(&pl, 7, 1).type, CT_REC_CALL);
    CU_ASSERT(is_repeat(trampoline(&pl, 7, 1).type));
    CU_ASSERT(is_repeat(trampoline(&pl, 7, 2).type));      /* generation moved, same name: still a repeat */
    struct written w = trampoline(&pl, 9, 3);              /* moved again, and the handle names another kernel */
    CU_ASSERT_EQUAL(w.type, CT_REC_CALL);
    CU_ASSERT_EQUAL(w.pl.name_id, 9);
}

int main(void)
{
    struct recorder_test rt;

    setenv("CUDATRACE_FLUSH_MS", "10000", 1); /* the test reads records out of the ring before a drain */
    if (recorder_test_start(&rt, "none") < 0)
        return 99;

    CU_pSuite s;
    if (CU_initialize_registry() != CUE_SUCCESS || !(s = CU_add_suite("launch shape", NULL, NULL)) ||
        !CU_add_test(s, "a repeat", test_repeat) || !CU_add_test(s, "every payload byte", test_every_byte) ||
        !CU_add_test(s, "kernel-name generation", test_name_generation))
        return 99;
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    recorder_test_end(&rt);
    return failed ? 1 : 0;
}
