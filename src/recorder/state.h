/* The recorder's state: one word that every traced call reads (so it sits with the other hot flags,
 * hot.h), moved only by lifecycle.c.  A module of its own so that the writer and the hot path can read it
 * without depending on the code that moves it. */
#ifndef CT_RECORDER_STATE_H
#define CT_RECORDER_STATE_H

#include <stdatomic.h>

#include "recorder/hot.h"

enum ct_rec_state {
    CT_ST_UNINIT = 0, /* not started (or the child of a fork, not restarted yet) */
    CT_ST_ON,         /* recording */
    CT_ST_OFF,        /* could not start: the program runs untraced */
    CT_ST_DONE,       /* file closed */
};
#define ct_state (ct_hot.state) /* hot.h */

#endif
