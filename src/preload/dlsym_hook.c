/* Our `dlsym`: hands out trampolines for driver functions looked up by name.
 *
 * glibc's dlsym resolves RTLD_NEXT (and the namespace of RTLD_DEFAULT) relative to the object its return
 * address lies in.  A C wrapper that calls it would make every RTLD_NEXT look-up relative to libcudatrace,
 * so another interposer asking for its "next" malloc would get the wrong one.  So `dlsym` is a small
 * assembly entry that asks ct_dlsym_hook whether the look-up is ours and otherwise *jumps* to glibc's dlsym
 * with the caller's return address still on the stack: untouched look-ups behave exactly as without us.
 * (The same technique as other interposers that must wrap dlsym, e.g. HAMi-core's tail jump.)
 *
 * Defined unversioned, it catches callers bound to dlsym@GLIBC_2.34 and to dlsym@GLIBC_2.2.5. */
#include "config.h"

#include "preload/interpose.h"
#if HAVE_CUPTI
#include "gputime/cupti.h"
#endif

#include <dlfcn.h>
#include <link.h>

int ct_dlsym_hook(void *handle, const char *name, const void *caller, void **out);

/* glibc's dlsym, the target of the jump (read by the assembly below; set before the hook returns 0). */
__attribute__((visibility("hidden"))) void *ct_dlsym_next;

#if defined(__x86_64__)
__asm__(".text\n"
        ".globl dlsym\n"
        ".type dlsym, @function\n"
        "dlsym:\n"
        "    .cfi_startproc\n"
        "    endbr64\n"
        "    push %rdi\n"
        "    .cfi_adjust_cfa_offset 8\n"
        "    push %rsi\n"
        "    .cfi_adjust_cfa_offset 8\n"
        "    sub $8, %rsp\n"            /* the hook's answer; keeps the stack 16-byte aligned */
        "    .cfi_adjust_cfa_offset 8\n"
        "    mov 24(%rsp), %rdx\n"      /* the caller's return address */
        "    mov %rsp, %rcx\n"
        "    call ct_dlsym_hook@PLT\n"
        "    test %eax, %eax\n"
        "    jz 1f\n"
        "    mov (%rsp), %rax\n"
        "    add $24, %rsp\n"
        "    .cfi_remember_state\n"
        "    .cfi_adjust_cfa_offset -24\n"
        "    ret\n"
        "    .cfi_restore_state\n"
        "1:  add $8, %rsp\n"
        "    .cfi_adjust_cfa_offset -8\n"
        "    pop %rsi\n"
        "    .cfi_adjust_cfa_offset -8\n"
        "    pop %rdi\n"
        "    .cfi_adjust_cfa_offset -8\n"
        "    jmp *ct_dlsym_next(%rip)\n"
        "    .cfi_endproc\n"
        ".size dlsym, .-dlsym\n");
#else
/* Elsewhere a plain wrapper: look-ups we do not handle are made from libcudatrace, which changes what
 * RTLD_NEXT finds for the caller. */
CT_EXPORT void *dlsym(void *handle, const char *name);
void *dlsym(void *handle, const char *name)
{
    void *r;
    if (ct_dlsym_hook(handle, name, __builtin_extract_return_addr(__builtin_return_address(0)), &r))
        return r;
    return ((void *(*)(void *, const char *))ct_dlsym_next)(handle, name);
}
#endif

static struct link_map *map_of(const void *addr)
{
    Dl_info info;
    struct link_map *lm = NULL;
    return dladdr1(addr, &info, (void **)&lm, RTLD_DL_LINKMAP) ? lm : NULL;
}

/* Does the object holding `caller` come before libcudatrace in the link-map chain (the order of the global
 * search scope for objects loaded at start-up)?  Then its RTLD_NEXT would reach our exports first. */
static int precedes_us(const void *caller)
{
    struct link_map *them = map_of(caller), *us = map_of((const void *)&ct_dlsym_hook);
    if (!them || !us || them == us)
        return 0;
    for (struct link_map *m = us->l_prev; m; m = m->l_prev)
        if (m == them)
            return 1;
    return 0;
}

/* The definition a global look-up of `name` finds when our own export is set aside. */
static void *global_lookup(const char *name, const void *ours)
{
    void *r = ct_real_dlsym(RTLD_DEFAULT, name);
    return r == ours ? ct_real_dlsym(RTLD_NEXT, name) : r; /* RTLD_NEXT from us: what lies behind us */
}

/* Not instrumented, in a sanitizer build of the tracer: it runs before the runtime has mapped its shadow. */
#define NO_SANITIZE __attribute__((no_sanitize("address", "thread", "undefined")))

/* glibc's dlsym, found without ct_real_dlsym_fn's pthread_once: a sanitizer's runtime ahead of us in
 * LD_PRELOAD calls our dlsym from inside its own start-up, before its pthread_once interceptor works (TSan
 * crashed there).  Every look-up gives the same answer, so threads that race both make it, harmlessly. */
NO_SANITIZE static void *find_next(void)
{
    void *p = dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34"); /* libc.so.6 since glibc 2.34 */
    return p ? p : dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5"); /* libdl before */
}

static int hook_ours(void *handle, const char *name, const void *caller, void **out);

/* Is the caller the tracer itself?  Its own look-ups want the real functions, ct_guard held or not: a
 * recorder started by an NVTX call (nvtxNameCategoryA before any driver call, as nvtx_drv makes) starts GPU
 * time without it, and GPU time, given the tracer's CUPTI exports, took its own calls for the program's and
 * handed CUPTI over. */
static int in_self(const void *caller)
{
    Dl_info self, them;
    return dladdr((const void *)in_self, &self) && dladdr(caller, &them) && self.dli_fbase == them.dli_fbase;
}

static int in_cupti(const void *caller)
{
#if HAVE_CUPTI
    return ct_in_cupti(caller);
#else
    (void)caller;
    return 0;
#endif
}

NO_SANITIZE int ct_dlsym_hook(void *handle, const char *name, const void *caller, void **out)
{
    void *next = __atomic_load_n(&ct_dlsym_next, __ATOMIC_ACQUIRE);
    if (!next) {
        next = find_next();
        __atomic_store_n(&ct_dlsym_next, next, __ATOMIC_RELEASE);
        if (!next) { /* no glibc dlsym to jump to */
            *out = NULL;
            return 1;
        }
    }
    /* Every name we answer starts with "cu" (cuMemAlloc, cudaGetDriverEntryPoint, cuptiSubscribe).  Others go on before
     * any call into libc: a sanitizer's runtime looks up its interceptors' targets through us before they
     * work, and an intercepted strcmp in ct_symbol_find would jump to NULL. */
    if (ct_guard || !name || name[0] != 'c' || name[1] != 'u')
        return 0;
    return hook_ours(handle, name, caller, out);
}

static int hook_ours(void *handle, const char *name, const void *caller, void **out)
{
    int id = ct_symbol_find(name);
    void *ours = id >= 0 ? ct_trampoline((unsigned)id) : ct_entry_point_export(name);
    if (!ours && !(ours = ct_cupti_export(name)))
        return 0;
    /* The driver's look-ups of its own functions, CUPTI's of the driver's (its own work is not the program's
     * calls), the tracer's own, and RTLD_NEXT from objects behind us, stay untouched. */
    if (ct_in_driver(caller) || in_cupti(caller) || in_self(caller) || (handle == RTLD_NEXT && !precedes_us(caller)))
        return 0;

    ct_guard++;
    void *r = handle == RTLD_DEFAULT || handle == RTLD_NEXT ? global_lookup(name, ours)
                                                            : ct_real_dlsym(handle, name);
    ct_guard--;
    if (r && r != ours) {
        if (id < 0)
            r = ours; /* a runtime's cudaGetDriverEntryPoint*, or a CUPTI function: ours forwards to it */
        else if (ct_driver(0) && r == CT_REAL((unsigned)id))
            r = ours;
        else
            r = ct_wrap(r, ct_variants[id].name, ct_variants[id].version, ct_variants[id].vflags != 0);
    }
    *out = r;
    return 1;
}
