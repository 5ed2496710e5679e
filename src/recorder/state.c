#include "config.h"

#include "recorder/hot.h"
#include "recorder/state.h"
#include "recorder/variants.h"

struct ct_hot_flags ct_hot = {.kernel_name_generation = 1}; /* kernel_names.h: 0 is no generation */

const struct ct_rec_client *_Atomic ct_rec_client; /* variants.h; lifecycle.c attaches it */
