/* The program's own CUPTI calls (torch.profiler's Kineto, nvFuser, cupti-python, a profiler of its own): the
 * first call that shows it takes CUPTI (a subscriber, activity buffers, an activity kind, a flush, a
 * finalize) makes GPU time hand CUPTI over before the call goes on (gputime.h, ct_gpu_program_uses_cupti),
 * so that the program gets CUPTI as it would untraced: its subscriber is not refused, and its records are
 * its own.  Exported under CUPTI's names, these win over libcupti's for callers that link it (PLT calls from
 * libtorch_cpu.so), and dlsym_hook.c hands them to callers that look them up. */
#include "config.h"

#if HAVE_CUPTI

#include "cuda/api.h"

/* CUPTI's parts, not cupti.h: it defines the legacy v1 structs that cuda/api.h has cuda.h define. */
#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_result.h>
#include <cupti_version.h>
#include <string.h>

#include "gputime/cupti.h"
#include "gputime/gputime.h"
#include "preload/interpose.h"
#include "recorder/export.h"

/* The real function `name` (the libcupti the program uses), after the hand-over.  CUPTI's calls of its own
 * functions, and the tracer's, hand nothing over. */
static void *take_over(const char *name, const void *caller)
{
    const int program = !ct_guard && !ct_in_cupti(caller);
    ct_guard++; /* the tracer's own CUPTI and dlsym calls from here */
    if (program)
        ct_gpu_program_uses_cupti(name);
    void *fn = ct_cupti_function(name);
    ct_guard--;
    return fn;
}

/* The functions whose call shows that the program takes CUPTI: name, parameters, arguments. */
#define CUPTI_TAKERS(X)                                                                                    \
    X(cuptiSubscribe, (CUpti_SubscriberHandle * s, CUpti_CallbackFunc fn, void *data), (s, fn, data))     \
    X(cuptiSubscribe_v2,                                                                                   \
      (CUpti_SubscriberHandle * s, CUpti_CallbackFunc fn, void *data, CUpti_SubscriberParams *p),           \
      (s, fn, data, p))                                                                                    \
    X(cuptiActivityRegisterCallbacks,                                                                      \
      (CUpti_BuffersCallbackRequestFunc req, CUpti_BuffersCallbackCompleteFunc done), (req, done))         \
    X(cuptiActivityEnable, (CUpti_ActivityKind kind), (kind))                                              \
    X(cuptiActivityEnableContext, (CUcontext ctx, CUpti_ActivityKind kind), (ctx, kind))                   \
    X(cuptiActivityEnableAndDump, (CUpti_ActivityKind kind), (kind))                                       \
    X(cuptiActivityFlushAll, (uint32_t flags), (flags))                                                   \
    X(cuptiFinalize, (void), ())

#define FORWARD(name, params, args)                                                                        \
    CT_EXPORT CUptiResult name params;                                                                     \
    CUptiResult name params                                                                                \
    {                                                                                                      \
        __typeof__(&name) real =                                                                           \
            (__typeof__(&name))take_over(#name, __builtin_extract_return_addr(__builtin_return_address(0))); \
        return real ? real args : CUPTI_ERROR_NOT_INITIALIZED;                                             \
    }
CUPTI_TAKERS(FORWARD)

void *ct_cupti_export(const char *name)
{
#define ENTRY(name, params, args) {#name, (void *)name},
    static const struct {
        const char *name;
        void *fn;
    } ours[] = {CUPTI_TAKERS(ENTRY)};
    if (strncmp(name, "cupti", 5) != 0)
        return NULL;
    for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++)
        if (strcmp(name, ours[i].name) == 0)
            return ours[i].fn;
    return NULL;
}

#else

#include <stddef.h>

#include "preload/interpose.h"

void *ct_cupti_export(const char *name)
{
    (void)name;
    return NULL;
}

#endif
