/* GPU time from CUPTI's activity records (activity.c): the backend, and its hand-over of CUPTI to the
 * program. */
#ifndef CT_GPUTIME_ACTIVITY_H
#define CT_GPUTIME_ACTIVITY_H

#include "gputime/backend.h"

extern const struct ct_gpu_backend ct_gpu_activity;

/* Stop using CUPTI (the program wants it): what CUPTI holds of ours is flushed to the next collection, the
 * activity kinds are disabled and the subscriber released.  Nothing when it is not running. */
void ct_gpu_activity_yield(void);
/* Is it timing calls now? */
int ct_gpu_activity_running(void);

#endif
