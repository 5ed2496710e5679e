/* Without libdw: function names from the module file's .symtab or .dynsym (elfsym.c); no source lines. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/display_names.h"
#include "report/symbols/elfsym.h"
#include "report/symbols/symbols.h"

int rp_symbols_resolve(const struct rp_module *mod, struct rp_frame **frames, size_t n)
{
    int mismatch;
    struct rp_elfsyms *s = rp_elfsyms_load(mod->path, mod->build_id, mod->build_id_len, &mismatch);
    if (mismatch)
        rp_symbols_say_changed(mod->path);
    for (size_t i = 0; i < n; i++) {
        struct rp_frame *fr = frames[i];
        uint64_t off = 0;
        const char *name = rp_elfsyms_find(s, rp_frame_file_addr(fr), &off);
        fr->offset = name ? off + 1 : fr->addr - mod->base;
        if (name && !(fr->function = rp_demangle(name))) {
            rp_elfsyms_free(s);
            return -1;
        }
        char *at = fr->function ? strchr(fr->function, '@') : NULL; /* a symbol version: memcpy@GLIBC_2.14 */
        if (at && at != fr->function)
            *at = '\0';
    }
    rp_elfsyms_free(s);
    return 0;
}
