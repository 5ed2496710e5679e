/* A CUPTI injection library that counts a program's driver calls, per function, as the driver sees them:
 * the program's own and, under cudatrace, the tracer's (which go straight to the real driver functions,
 * past cudatrace's trampolines, but not past CUPTI).  bench/run-own-calls runs each sample with it untraced
 * and traced and prints the difference.
 *
 *   CUDA_INJECTION64_PATH=bench/libcupti_count.so CT_CUPTI_COUNT_OUT=FILE PROGRAM
 *
 * At exit FILE gets one `name count` line per driver function called (CUPTI's functionName), by name.
 * Built with gcc against the toolkit's cupti.h and libcupti (scripts/gpu-bundle, bench/overhead.mk). */
#include <cupti.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Atomic unsigned long long counts[CUPTI_DRIVER_TRACE_CBID_SIZE];
static const char *_Atomic names[CUPTI_DRIVER_TRACE_CBID_SIZE];
static CUpti_SubscriberHandle subscriber;

static void CUPTIAPI on_call(void *data, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *info)
{
    const CUpti_CallbackData *cb = info;
    (void)data;
    if (domain != CUPTI_CB_DOMAIN_DRIVER_API || cb->callbackSite != CUPTI_API_ENTER ||
        cbid >= CUPTI_DRIVER_TRACE_CBID_SIZE)
        return;
    atomic_fetch_add_explicit(&counts[cbid], 1, memory_order_relaxed);
    if (!atomic_load_explicit(&names[cbid], memory_order_relaxed))
        atomic_store_explicit(&names[cbid], cb->functionName, memory_order_relaxed);
}

static int by_name(const void *a, const void *b)
{
    const char *x = names[*(const unsigned *)a], *y = names[*(const unsigned *)b];
    return strcmp(x ? x : "?", y ? y : "?");
}

static void write_counts(void)
{
    const char *path = getenv("CT_CUPTI_COUNT_OUT");
    static unsigned order[CUPTI_DRIVER_TRACE_CBID_SIZE];
    unsigned n = 0;
    FILE *f;

    if (!path || !*path || !(f = fopen(path, "w"))) {
        fprintf(stderr, "cupti_count: cannot write the counts (CT_CUPTI_COUNT_OUT=%s)\n", path ? path : "");
        return;
    }
    for (unsigned i = 0; i < CUPTI_DRIVER_TRACE_CBID_SIZE; i++)
        if (atomic_load(&counts[i]))
            order[n++] = i;
    qsort(order, n, sizeof order[0], by_name);
    for (unsigned i = 0; i < n; i++)
        fprintf(f, "%s %llu\n", names[order[i]] ? names[order[i]] : "?", atomic_load(&counts[order[i]]));
    fclose(f);
}

/* CUDA's injection entry point: called once when the driver initializes. */
__attribute__((visibility("default"))) int InitializeInjection(void)
{
    const char *s;
    if (cuptiSubscribe(&subscriber, on_call, NULL) != CUPTI_SUCCESS ||
        cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API) != CUPTI_SUCCESS) {
        CUptiResult r = cuptiGetLastError();
        cuptiGetResultString(r, &s);
        fprintf(stderr, "cupti_count: cannot subscribe to driver API callbacks: %s\n", s);
        return 0;
    }
    atexit(write_counts);
    return 1;
}
