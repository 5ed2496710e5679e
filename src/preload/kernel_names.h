/* Kernel names by handle, interned once and cached: a launch costs one lock-free look-up. */
#ifndef CT_PRELOAD_KERNEL_NAMES_H
#define CT_PRELOAD_KERNEL_NAMES_H

#include <stdint.h>

#include "recorder/hot.h"

/* Moves on when a module or library is unloaded (a handle may then name another kernel): a name id found
 * for a handle holds while this has not changed.  Read with __atomic_load_n. */
#define ct_kernel_name_generation (ct_hot.kernel_name_generation) /* recorder/hot.h; starts at 1 */

/* String id of the name of a CUfunction or CUkernel handle (cuFuncGetName, else cuKernelGetName), 0 if the
 * driver cannot name it. */
uint32_t ct_kernel_name_id(const void *handle);
/* String id of the symbol naming a host function (cuLaunchHostFunc), 0 if it has none. */
uint32_t ct_host_fn_name_id(const void *fn);

#endif
