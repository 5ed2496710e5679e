#include "config.h"

#include "recorder/hot.h"
#include "recorder/state.h"

struct ct_hot_flags ct_hot = {.kernel_name_generation = 1}; /* kernel_names.h: 0 is no generation */
