/* The recorder run for real inside a unit test: its trace file in a temporary directory of its own. */
#ifndef CT_TESTS_UNIT_RECORDER_TEST_H
#define CT_TESTS_UNIT_RECORDER_TEST_H

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "recorder/recorder.h"

struct recorder_test {
    char dir[32], out[64];
};

/* Start the recorder, quiet, with CUDATRACE_STACKS=stacks (other settings: set them before).  0, or -1 when
 * it did not start (the test cannot run). */
static inline int recorder_test_start(struct recorder_test *t, const char *stacks)
{
    snprintf(t->dir, sizeof t->dir, "/tmp/ct-unit.XXXXXX");
    if (!mkdtemp(t->dir))
        return -1;
    snprintf(t->out, sizeof t->out, "%s/t.ctrace", t->dir);
    setenv("CUDATRACE_OUTPUT", t->out, 1);
    setenv("CUDATRACE_QUIET", "1", 1);
    setenv("CUDATRACE_STACKS", stacks, 1);
    ct_rec_init();
    return atomic_load(&ct_state) == CT_ST_ON ? 0 : -1;
}

/* Stop the recorder and remove its file and directory. */
static inline void recorder_test_end(const struct recorder_test *t)
{
    ct_rec_shutdown();
    unlink(t->out);
    rmdir(t->dir);
}

#endif
