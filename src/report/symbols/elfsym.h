/* Function symbols of an ELF file on disk (.symtab, else .dynsym; from the separate debug file
 * /usr/lib/debug/.build-id/xx/yyyy.debug when the object itself is stripped), for the report's
 * symbolization.  Addresses are the file's (link-time) addresses: process address - load bias. */
#ifndef CT_REPORT_SYMBOLS_ELFSYM_H
#define CT_REPORT_SYMBOLS_ELFSYM_H

#include <stddef.h>
#include <stdint.h>

struct rp_elfsyms;

/* Read the symbols of `path`; NULL when it cannot be read or is not a 64-bit ELF file.  When `build_id` is
 * given and the file's differs (the file changed since the trace), *mismatch is set and NULL returned. */
struct rp_elfsyms *rp_elfsyms_load(const char *path, const uint8_t *build_id, size_t build_id_len, int *mismatch);
/* The (mangled) name of the function holding file address `addr`, with *offset from its start; NULL if none. */
const char *rp_elfsyms_find(const struct rp_elfsyms *s, uint64_t addr, uint64_t *offset);
void rp_elfsyms_free(struct rp_elfsyms *s);

#endif
