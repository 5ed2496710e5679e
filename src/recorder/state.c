#include "config.h"

#include "recorder/hot.h"
#include "recorder/state.h"

CT_HOT_DATA _Atomic int ct_state;
