/* The interposition layer's internal API: finding the real driver, identifying the variant of a driver
 * pointer, and handing out trampolines.  Used by the exported hooks (cuGetProcAddress, dlsym,
 * cudaGetDriverEntryPoint), the decoders and the metadata. */
#ifndef CT_PRELOAD_INTERPOSE_H
#define CT_PRELOAD_INTERPOSE_H

#include "preload/trampoline.h"
#include "preload/wrappers.h"

/* The real driver function of an exported symbol, for the tracer's own calls: NULL if the driver does not
 * export it.  Callers hold ct_guard.  CT_DRIVER(cuPointerGetAttributes) has type
 * PFN_cuPointerGetAttributes_v7000. */
#define CT_DRIVER(sym) ((CT_PFN_##sym)ct_driver_fn(CT_ID_##sym))
void *ct_driver_fn(unsigned id);

/* Lend the recorder and GPU time what they need of this layer (attach.c): first thing at start, before any
 * call into them (capture.c). */
void ct_attach(void);

/* Find the driver: an already loaded libcuda.so.1 only, or (load != 0) load it.  Returns its handle or NULL.
 * Thread-safe; once found, the real-pointer table is complete. */
void *ct_driver(int load);

/* glibc's own dlsym (ours is the exported `dlsym`), and its address (NULL if glibc has none). */
void *ct_real_dlsym(void *handle, const char *symbol);
void *ct_real_dlsym_fn(void);

/* Variant id of an exported symbol name, or -1. */
int ct_symbol_find(const char *symbol);

/* The trampoline of variant `id`, as the data pointer a caller receives. */
void *ct_trampoline(unsigned id);

/* Is `p` one of our trampolines? */
int ct_is_trampoline(const void *p);

/* Which variant's real function is `p`?  Several variants may share one address (aliases in a driver):
 * then the one `symbol` asked at `version` with this per-thread flag names it, if any.  -1 if unknown. */
int ct_identify(const void *p, const char *symbol, unsigned version, int per_thread);

/* What to hand back for a driver pointer `p` that a look-up of `symbol` returned: the trampoline of its
 * variant, `p` itself if it is already ours or NULL, else `p` untouched and counted as untraced. */
void *ct_wrap(void *p, const char *symbol, unsigned version, int per_thread);

/* Does `addr` lie in the real driver's code?  (Finds an already loaded driver.) */
int ct_in_driver(const void *addr);

/* Our export of CUPTI's function `name` (a call of it hands CUPTI over to the program), or NULL
 * (cupti_hooks.c). */
void *ct_cupti_export(const char *name);

/* Our export of cudaGetDriverEntryPoint[ByVersion][_ptsz] named `symbol`, or NULL (entrypoint.c). */
void *ct_entry_point_export(const char *symbol);

#endif
