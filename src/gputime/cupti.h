/* libcupti, found at run time (never a link-time dependency of libcudatrace.so): the one the program already
 * has loaded, else CUDATRACE_CUPTI, else one of the usual places (doc/gpu-time.md, "Where libcupti comes
 * from"), and the CUPTI functions GPU time's activity source uses from it. */
#ifndef CT_GPUTIME_CUPTI_H
#define CT_GPUTIME_CUPTI_H

#include "cuda/api.h"

/* CUPTI's parts, not cupti.h: it defines the legacy v1 structs that cuda/api.h has cuda.h define. */
#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_result.h>
#include <cupti_version.h>
#include <stddef.h>

struct ct_cupti {
    void *handle;
    char path[256]; /* where it was found, for messages */
    CUptiResult (*get_version)(uint32_t *version);
    CUptiResult (*subscribe)(CUpti_SubscriberHandle *sub, CUpti_CallbackFunc fn, void *data);
    CUptiResult (*unsubscribe)(CUpti_SubscriberHandle sub);
    CUptiResult (*enable_callback)(uint32_t on, CUpti_SubscriberHandle sub, CUpti_CallbackDomain d, CUpti_CallbackId id);
    CUptiResult (*callback_name)(CUpti_CallbackDomain d, uint32_t id, const char **name);
    CUptiResult (*register_callbacks)(CUpti_BuffersCallbackRequestFunc req, CUpti_BuffersCallbackCompleteFunc done);
    CUptiResult (*enable)(CUpti_ActivityKind kind);
    CUptiResult (*disable)(CUpti_ActivityKind kind);
    CUptiResult (*flush_all)(uint32_t flags);
    CUptiResult (*next_record)(uint8_t *buf, size_t valid, CUpti_Activity **rec);
    CUptiResult (*dropped)(CUcontext ctx, uint32_t stream, size_t *n);
    CUptiResult (*timestamp)(uint64_t *ns);
    CUptiResult (*result_string)(CUptiResult r, const char **s);
    CUptiResult (*set_attribute)(CUpti_ActivityAttribute a, size_t *size, void *value); /* may be NULL */
};

/* Find and load libcupti (`path`: CUDATRACE_CUPTI, "" to look for one) and its functions into *c: 0, or -1
 * with the reason in why (one line, for the warning). */
int ct_cupti_load(struct ct_cupti *c, const char *path, char *why, size_t size);

/* CUPTI's text for r ("CUPTI_ERROR_..." or a number). */
const char *ct_cupti_error(const struct ct_cupti *c, CUptiResult r);

/* The real function `name` of the libcupti the program uses (loaded by it, or the one found above), for
 * the interposition layer's wrappers of the program's own CUPTI calls; NULL when there is none. */
void *ct_cupti_function(const char *name);

/* Does `addr` lie in a libcupti?  Its own look-ups of driver functions pass through untraced. */
int ct_in_cupti(const void *addr);

#endif
