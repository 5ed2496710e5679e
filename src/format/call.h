/* A call as every reader of traces sees it: what the decoder (decoder.h) makes of a call record or a launch
 * repeat.  Its own header so that code that only uses calls (the report) needs nothing that decodes. */
#ifndef CT_FORMAT_CALL_H
#define CT_FORMAT_CALL_H

#include "cudatrace/format.h"

union ct_payload {
    struct ct_pl_alloc alloc;
    struct ct_pl_free free;
    struct ct_pl_launch launch;
    struct ct_pl_copy copy;
};

/* A call as readers see it.  The payload follows the call record directly, as in the file, so &c.h reads
 * as a CT_REC_CALL record of c.h.size bytes. */
struct ct_call {
    struct ct_rec_call c; /* times in ns; c.h.size is sizeof c plus the payload's size */
    union ct_payload pl;
    unsigned family;      /* which member of pl holds the payload (enum ct_family; CT_FAM_NONE: none) */
};

#endif
