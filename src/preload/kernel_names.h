/* Kernel names by handle, interned once and cached: a launch costs one lock-free look-up. */
#ifndef CUDATRACE_KERNEL_NAMES_H
#define CUDATRACE_KERNEL_NAMES_H

#include <stdint.h>

/* String id of the name of a CUfunction or CUkernel handle (cuFuncGetName, else cuKernelGetName), 0 if the
 * driver cannot name it. */
uint32_t ct_kernel_name_id(const void *handle);
/* String id of the symbol naming a host function (cuLaunchHostFunc), 0 if it has none. */
uint32_t ct_host_fn_name_id(const void *fn);

#endif
