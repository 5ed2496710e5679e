/* Capture ranges (capture.h): the switch and what flips it. */
#include "config.h"

#include <pthread.h>

#include "preload/capture.h"
#include "preload/hooks.h"
#include "recorder/hot.h"
#include "recorder/recorder.h"
#include "recorder/settings.h"

CT_HOT_DATA int ct_capture_off;
static int by_profiler_api; /* CUDATRACE_CAPTURE=profiler */
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void capture_read(void)
{
    by_profiler_api = ct_settings_capture() == CT_CAPTURE_PROFILER;
    if (by_profiler_api)
        ct_rec_ranges_only();
    __atomic_store_n(&ct_capture_off, by_profiler_api, __ATOMIC_RELAXED);
}

void ct_capture_init(void) { pthread_once(&once, capture_read); }

__attribute__((constructor)) static void capture_ctor(void) { ct_capture_init(); }

/* Whatever the driver answers: the program asked for a range (without a profiler attached the driver may
 * refuse, and the range is what the user wants traced all the same). */
void ct_hook_cuProfilerStart(CUresult r)
{
    (void)r;
    if (by_profiler_api)
        __atomic_store_n(&ct_capture_off, 0, __ATOMIC_RELAXED);
}

void ct_hook_cuProfilerStop(CUresult r)
{
    (void)r;
    if (by_profiler_api)
        __atomic_store_n(&ct_capture_off, 1, __ATOMIC_RELAXED);
}
