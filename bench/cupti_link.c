/* What it costs to link CUPTI's kernel records to the launches that made them, per launch, inside one
 * process (doc/gpu-time.md, "Linking a record to its call").  Activity (CONCURRENT_KERNEL, MEMCPY, MEMSET)
 * is on throughout; blocks of back-to-back cuLaunchKernel calls of an empty kernel alternate between
 *   act    activity alone (a subscriber held, no callback enabled);
 *   cb     + a CUPTI callback on cuLaunchKernel that keeps the call's correlation id in a thread-local;
 *   drv    + the DRIVER activity kind with every function but cuLaunchKernel disabled;
 * rotating the order (act cb drv, cb drv act, drv act cb) round after round, each block starting with the
 * GPU idle.  Before CUPTI is touched, blocks without it give `none`.  It also checks what each way
 * delivers: that the callback's ids are the kernel records' ids, one for one, and how many DRIVER records
 * came per launch in drv blocks.
 *
 * Usage: cupti_link [ROUNDS [LAUNCHES_PER_BLOCK]]   (default 30 rounds of 20,000)
 * Prints `link_<mode>_ns=` (median ns per launch), `link_<mode>_ratio=` with `_q1`/`_q3` (per round, over
 * act), `link_none_ns=`, `link_cb_ids_matched=` (of the cb blocks' launches, the share whose callback id is
 * a kernel record's id) and `link_drv_records_per_launch=`.  Build: gcc -std=c11 -O2 cupti_link.c
 * -I$CUDA/include -L$CUDA/lib64/stubs -lcuda -L$CUDA/lib64 -lcupti. */
#define _GNU_SOURCE
#include <cuda.h>
#include <cupti.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "quantile.h"

#define CK(x)                                                                                            \
    do {                                                                                                 \
        CUresult r_ = (x);                                                                               \
        if (r_ != CUDA_SUCCESS) {                                                                        \
            fprintf(stderr, "cupti_link: %s: %d\n", #x, (int)r_);                                        \
            exit(1);                                                                                     \
        }                                                                                                \
    } while (0)
#define CP(x)                                                                                            \
    do {                                                                                                 \
        CUptiResult r_ = (x);                                                                            \
        if (r_ != CUPTI_SUCCESS) {                                                                       \
            const char *s_ = "?";                                                                        \
            cuptiGetResultString(r_, &s_);                                                               \
            fprintf(stderr, "cupti_link: %s: %s\n", #x, s_);                                             \
            exit(1);                                                                                     \
        }                                                                                                \
    } while (0)

static const char ptx[] = ".version 7.0\n.target sm_50\n.address_size 64\n.visible .entry k()\n{\n ret;\n}\n";

enum { ACT, CB, DRV, NMODES };
static const char *const mode_name[NMODES] = {"act", "cb", "drv"};

static __thread uint32_t last_corr;
static uint32_t *cb_ids;
static size_t ncb_ids, cb_room;
static uint32_t *kernel_ids;
static size_t nkernel_ids, kernel_room;
static size_t driver_records;

static void CUPTIAPI on_launch(void *ud, CUpti_CallbackDomain d, CUpti_CallbackId id, const void *info)
{
    const CUpti_CallbackData *cb = info;
    (void)ud, (void)d, (void)id;
    if (cb->callbackSite == CUPTI_API_EXIT)
        last_corr = cb->correlationId;
}

static void CUPTIAPI requested(uint8_t **buf, size_t *size, size_t *max)
{
    *size = 8 << 20;
    *buf = aligned_alloc(8, *size);
    *max = 0;
}

static void CUPTIAPI completed(CUcontext c, uint32_t s, uint8_t *buf, size_t size, size_t valid)
{
    CUpti_Activity *rec = NULL;
    (void)c, (void)s, (void)size;
    while (cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) {
            if (nkernel_ids == kernel_room) {
                kernel_room = kernel_room ? 2 * kernel_room : 1 << 16;
                kernel_ids = realloc(kernel_ids, kernel_room * sizeof *kernel_ids);
            }
            kernel_ids[nkernel_ids++] = ((CUpti_ActivityKernel10 *)rec)->correlationId;
        } else if (rec->kind == CUPTI_ACTIVITY_KIND_DRIVER) {
            driver_records++;
        }
    }
    free(buf);
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static CUfunction fn;
static CUstream stream;
static CUpti_SubscriberHandle sub;

static double block(long n, int keep_ids)
{
    CK(cuStreamSynchronize(stream));
    double t0 = now_ns();
    for (long i = 0; i < n; i++) {
        CK(cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, stream, NULL, NULL));
        if (keep_ids) {
            if (ncb_ids == cb_room) {
                cb_room = cb_room ? 2 * cb_room : 1 << 16;
                cb_ids = realloc(cb_ids, cb_room * sizeof *cb_ids);
            }
            cb_ids[ncb_ids++] = last_corr;
        }
    }
    double t = (now_ns() - t0) / (double)n;
    CK(cuStreamSynchronize(stream));
    return t;
}

static void set_mode(int m, int on)
{
    if (m == CB)
        CP(cuptiEnableCallback(on, sub, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel));
    if (m == DRV)
        CP(on ? cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER) : cuptiActivityDisable(CUPTI_ACTIVITY_KIND_DRIVER));
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 30, per = argc > 2 ? atol(argv[2]) : 20000;
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;

    if (rounds < 2 || per < 100) {
        fprintf(stderr, "usage: cupti_link [ROUNDS>=2 [LAUNCHES>=100]]\n");
        return 2;
    }
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    CK(cuModuleLoadData(&mod, ptx));
    CK(cuModuleGetFunction(&fn, mod, "k"));
    CK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
    block(per, 0);
    double *none = calloc((size_t)rounds, sizeof *none);
    for (long r = 0; r < rounds; r++)
        none[r] = block(per, 0);

    CP(cuptiActivityRegisterCallbacks(requested, completed));
    CP(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
    CP(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY));
    CP(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET));
    CP(cuptiSubscribe(&sub, on_launch, NULL));
    for (CUpti_CallbackId id = 1; id < CUPTI_DRIVER_TRACE_CBID_SIZE; id++)
        if (id != CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel)
            cuptiActivityEnableDriverApi(id, 0);
    block(per, 0); /* CUPTI's first instrumented launches */

    double *ns[NMODES];
    for (int m = 0; m < NMODES; m++)
        ns[m] = calloc((size_t)rounds, sizeof(double));
    size_t drv_launches = 0, drv_before;
    for (long r = 0; r < rounds; r++)
        for (int k = 0; k < NMODES; k++) {
            int m = (int)((r + k) % NMODES);
            set_mode(m, 1);
            drv_before = driver_records;
            ns[m][r] = block(per, m == CB);
            set_mode(m, 0);
            if (m == DRV) {
                CP(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
                drv_launches += (size_t)per;
                (void)drv_before;
            }
        }
    CK(cuCtxSynchronize());
    CP(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));

    bench_sort(none, (size_t)rounds);
    printf("link_none_ns=%.1f\n", bench_quantile(none, (size_t)rounds, 0.5));
    for (int m = 0; m < NMODES; m++) {
        double *ratio = calloc((size_t)rounds, sizeof *ratio);
        for (long r = 0; r < rounds; r++)
            ratio[r] = ns[m][r] / ns[ACT][r];
        bench_sort(ratio, (size_t)rounds);
        double *v = malloc((size_t)rounds * sizeof *v);
        memcpy(v, ns[m], (size_t)rounds * sizeof *v);
        bench_sort(v, (size_t)rounds);
        printf("link_%s_ns=%.1f\nlink_%s_ratio=%.4f\nlink_%s_ratio_q1=%.4f\nlink_%s_ratio_q3=%.4f\n", mode_name[m],
               bench_quantile(v, (size_t)rounds, 0.5), mode_name[m], bench_quantile(ratio, (size_t)rounds, 0.5),
               mode_name[m], bench_quantile(ratio, (size_t)rounds, 0.25), mode_name[m],
               bench_quantile(ratio, (size_t)rounds, 0.75));
    }
    qsort(kernel_ids, nkernel_ids, sizeof *kernel_ids, cmp_u32);
    size_t matched = 0;
    for (size_t i = 0; i < ncb_ids; i++)
        matched += bsearch(&cb_ids[i], kernel_ids, nkernel_ids, sizeof *kernel_ids, cmp_u32) != NULL;
    printf("link_cb_ids_matched=%.4f\n", ncb_ids ? (double)matched / (double)ncb_ids : 0.0);
    printf("link_kernel_records=%zu\n", nkernel_ids);
    printf("link_drv_records_per_launch=%.3f\n", drv_launches ? (double)driver_records / (double)drv_launches : 0.0);
    CP(cuptiUnsubscribe(sub));
    return 0;
}
