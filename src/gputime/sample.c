/* GPU time's sampling (sample.h): each thread's table of kinds. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gputime/sample.h"
#include "recorder/alloc.h"

__thread struct ct_gpu_kind *ct_gpu_kinds __attribute__((tls_model("initial-exec")));
__thread uint32_t ct_gpu_overflow_left __attribute__((tls_model("initial-exec")));

/* A thread's table goes with the thread (a key's destructor: threads come and go by the thousand). */
static pthread_key_t kinds_key;
static pthread_once_t kinds_once = PTHREAD_ONCE_INIT;
static int kinds_keyed;

static void kinds_free(void *t)
{
    if (ct_gpu_kinds == t)
        ct_gpu_kinds = NULL;
    ct_free(t);
}

static void kinds_key_make(void) { kinds_keyed = pthread_key_create(&kinds_key, kinds_free) == 0; }

struct ct_gpu_kind *ct_gpu_kinds_make(void)
{
    pthread_once(&kinds_once, kinds_key_make);
    struct ct_gpu_kind *t = ct_aligned_alloc(64, CT_GPU_KINDS * sizeof *t); /* a set on two whole lines */
    if (t)
        memset(t, 0, CT_GPU_KINDS * sizeof *t);
    if (t && kinds_keyed && pthread_setspecific(kinds_key, t) != 0) {
        ct_free(t);
        t = NULL;
    }
    return ct_gpu_kinds = t;
}
