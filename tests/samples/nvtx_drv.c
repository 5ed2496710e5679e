/* NVTX annotations over driver calls, with the toolkit's header-only NVTX 3 (no library linked: NVTX loads
 * the injection library NVTX_INJECTION64_PATH names, which libcudatrace.so sets to itself).  What it does,
 * in order, for tests/integration/nvtx.sh and tests/gpu/expect/nvtx_drv.sh:
 *   - names its main thread "nvtx-main" (prctl) before its first driver call;
 *   - a push/pop range "setup" around the context and module set-up;
 *   - ITERS iterations of "step" (push/pop), each holding "forward" (2 launches of kernelF, pushed with
 *     attributes: color, category 1, named "compute") and "backward" (1 launch of kernelB);
 *   - a mark "checkpoint" and a wide-character range "wide-ü" holding a cuCtxSynchronize;
 *   - a start/end range "io" started on the main thread and ended by a worker thread, which names itself
 *     "nvtx-worker" (nvtxNameOsThread) and launches kernelF twice in the range "load" of domain "mylib",
 *     its message a registered string;
 *   - renames its main thread "main-renamed" (pthread_setname_np) and launches kernelB once more.
 * Prints the launches made. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <nvtx3/nvToolsExt.h>

#include "drv_sample.h"

#define ITERS 3

static const char ptx[] = ".version 8.0\n.target sm_75\n.address_size 64\n"
                          ".visible .entry kernelF()\n{\n\tret;\n}\n"
                          ".visible .entry kernelB()\n{\n\tret;\n}\n";

static CUcontext ctx;
static CUfunction kf, kb;
static nvtxRangeId_t io;
static int launches;

static void launch(CUfunction f)
{
    CHECK(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL));
    launches++;
}

static void *worker(void *arg)
{
    (void)arg;
    nvtxNameOsThreadA((uint32_t)gettid(), "nvtx-worker");
    nvtxDomainHandle_t lib = nvtxDomainCreateA("mylib");
    nvtxEventAttributes_t a = {0};
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
    a.message.registered = nvtxDomainRegisterStringA(lib, "load");
    CHECK(cuCtxSetCurrent(ctx));
    nvtxDomainRangePushEx(lib, &a);
    launch(kf);
    launch(kf);
    CHECK(cuCtxSynchronize());
    nvtxDomainRangePop(lib);
    nvtxRangeEnd(io);
    return NULL;
}

int main(void)
{
    CUdevice dev;
    CUmodule mod;
    pthread_t t;

    prctl(PR_SET_NAME, "nvtx-main", 0, 0, 0);
    nvtxNameCategoryA(1, "compute");
    nvtxRangePushA("setup");
    sample_primary_context(&dev, &ctx);
    CHECK(cuModuleLoadData(&mod, ptx));
    CHECK(cuModuleGetFunction(&kf, mod, "kernelF"));
    CHECK(cuModuleGetFunction(&kb, mod, "kernelB"));
    nvtxRangePop();

    nvtxEventAttributes_t fwd = {0};
    fwd.version = NVTX_VERSION;
    fwd.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    fwd.colorType = NVTX_COLOR_ARGB;
    fwd.color = 0xFF00A000;
    fwd.category = 1;
    fwd.messageType = NVTX_MESSAGE_TYPE_ASCII;
    fwd.message.ascii = "forward";
    for (int i = 0; i < ITERS; i++) {
        nvtxRangePushA("step");
        nvtxRangePushEx(&fwd);
        launch(kf);
        launch(kf);
        nvtxRangePop();
        nvtxRangePushA("backward");
        launch(kb);
        nvtxRangePop();
        nvtxRangePop();
    }
    nvtxMarkA("checkpoint");
    nvtxRangePushW(L"wide-\u00fc");
    CHECK(cuCtxSynchronize());
    nvtxRangePop();

    io = nvtxRangeStartA("io");
    sample_require(pthread_create(&t, NULL, worker, NULL) == 0, "a worker thread");
    pthread_join(t, NULL);

    pthread_setname_np(pthread_self(), "main-renamed");
    launch(kb);
    CHECK(cuCtxSynchronize());
    CHECK(cuModuleUnload(mod));
    printf("nvtx_drv: %d launches\n", launches);
    return 0;
}
