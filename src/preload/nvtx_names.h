/* NVTX's names as the tracer keeps them: messages to string ids (a per-thread cache in front of the
 * recorder's intern table), and the handles it gives out for domains and registered strings. */
#ifndef CT_PRELOAD_NVTX_NAMES_H
#define CT_PRELOAD_NVTX_NAMES_H

#include <stdint.h>
#include <wchar.h>

/* What an nvtxDomainHandle_t and an nvtxStringHandle_t of ours point to; `theirs` is the handle of the
 * injection library forwarded to (nvtx.c), NULL without one.  Never freed: handles stay valid. */
struct ct_nvtx_domain {
    uint16_t id; /* >= 1; 0 is the default domain (a NULL handle) */
    uint32_t name_id;
    void *theirs;
};
struct ct_nvtx_string {
    uint32_t id;
    void *theirs;
};

/* The string id of a message (0: none, or tracing is off).  A message seen before on this thread costs a
 * hash and a compare: no lock. */
uint32_t ct_nvtx_ascii_id(const char *s);
uint32_t ct_nvtx_wide_id(const wchar_t *s);
/* wchar_t (UTF-32) as UTF-8 into buf (cut to fit); NULL for NULL. */
const char *ct_nvtx_utf8(const wchar_t *s, char *buf, size_t size);

/* The domain of that name (the same handle for the same name, as NVTX wants), NULL when out of memory or
 * past 65535 domains. */
struct ct_nvtx_domain *ct_nvtx_domain(const char *name);
/* A registered string. */
struct ct_nvtx_string *ct_nvtx_string(const char *s);

#endif
