/* Symbolization with elfutils libdwfl: one Dwfl session per module file, the file reported at bias 0 so that
 * addresses are the file's own (the same file loaded at other addresses by several processes of a trace is
 * read once).  The file named in the trace is used only when its build id is the trace's.  Separate debug
 * files are found by build id (.build-id/xx/yyyy.debug) under CUDATRACE_DEBUG_DIRS and /usr/lib/debug, then
 * by .gnu_debuglink next to the module, in its .debug/ and under those directories.  debuginfod is never
 * called: find_debuginfo is ours, and does not fall back to dwfl_standard_find_debuginfo (which would). */
#include "config.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/model/display_names.h"
#include "report/symbols/symbols.h"

#define SYSTEM_DEBUG_DIR "/usr/lib/debug"

/* An open regular file (a FIFO or device named in a damaged trace must not block or be read); -1 if not. */
static int open_regular(const char *path)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* Does the ELF file on fd carry another build id than id[0..len)?  A file without one, or an id not given,
 * is no mismatch (as before libdw: such a file cannot be checked). */
static bool other_build_id(int fd, const void *id, size_t len)
{
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    const void *fid;
    ssize_t flen = elf && len ? dwelf_elf_gnu_build_id(elf, &fid) : 0;
    bool other = flen > 0 && ((size_t)flen != len || memcmp(fid, id, len) != 0);
    elf_end(elf);
    return other;
}

/* The .gnu_debuglink search: `link` next to the module, in its .debug/, then under each absolute directory
 * of the path followed by the module's directory (/usr/lib/debug/usr/lib/libfoo.so.debug). */
static int find_by_debuglink(Dwfl_Module *mod, const char *file, const char *link, const char *path,
                             char **found)
{
    const unsigned char *id = NULL;
    GElf_Addr vaddr;
    int idlen = dwfl_module_build_id(mod, &id, &vaddr);
    const char *slash = strrchr(file, '/');
    int dirlen = slash ? (int)(slash - file) : 0;
    const char *dir = slash ? file : "";

    for (const char *p = path; p; p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL) {
        int len = (int)strcspn(p, ":");
        char cand[4096];
        if (*p == '-' || *p == '+') /* the CRC flag of dwfl's syntax */
            p++, len--;
        if (len == 0)
            snprintf(cand, sizeof cand, "%.*s/%s", dirlen, dir, link);
        else if (*p != '/')
            snprintf(cand, sizeof cand, "%.*s/%.*s/%s", dirlen, dir, len, p, link);
        else
            snprintf(cand, sizeof cand, "%.*s%.*s/%s", len, p, dirlen, dir, link);
        if (strcmp(cand, file) == 0)
            continue;
        int fd = open_regular(cand);
        if (fd < 0)
            continue;
        if (other_build_id(fd, id, idlen > 0 ? (size_t)idlen : 0)) {
            close(fd);
            continue;
        }
        *found = strdup(cand);
        return fd;
    }
    return -1;
}

static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
                          const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
                          char **debuginfo_file_name)
{
    int fd = dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
                                          debuglink_crc, debuginfo_file_name);
    if (fd < 0 && *userdata && file_name && debuglink_file && *debuglink_file && !strchr(debuglink_file, '/'))
        fd = find_by_debuglink(mod, file_name, debuglink_file, *(char **)*userdata, debuginfo_file_name);
    return fd;
}

/* dwfl's path syntax (libdwfl.h): "-" no CRC checks, "" the module's directory, ".debug" its subdirectory,
 * then the absolute directories searched by build id and debuglink: CUDATRACE_DEBUG_DIRS's, the system's. */
static char *debug_path(void)
{
    const char *extra = getenv("CUDATRACE_DEBUG_DIRS");
    char *s = NULL;
    if (extra && *extra) {
        if (asprintf(&s, "-:.debug:%s:" SYSTEM_DEBUG_DIR, extra) < 0)
            s = NULL;
    } else
        s = strdup("-:.debug:" SYSTEM_DEBUG_DIR);
    return s;
}

/* The name of a function's DIE: its linkage name demangled (qualified C++ names), else DW_AT_name. */
static char *die_function(Dwarf_Die *die)
{
    Dwarf_Attribute a;
    const char *link = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &a));
    if (!link)
        link = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a));
    if (link)
        return rp_demangle(link);
    const char *name = dwarf_diename(die);
    return strdup(name ? name : "??");
}

static char *dup_or_null(const char *s, int *oom)
{
    char *d = s ? strdup(s) : NULL;
    if (s && !d)
        *oom = 1;
    return d;
}

/* The functions inlined at `a`, innermost first, as eu-addr2line -i finds them: the scopes holding the
 * address, walked out from the innermost; each inlined instance is called from the next function out, at
 * its DW_AT_call_file:DW_AT_call_line.  The line the address itself is at goes to the innermost; the frame
 * keeps the line in the real function.  0, or -1 when out of memory. */
static int inlines(Dwfl_Module *mod, struct rp_frame *fr, GElf_Addr a, const char *src, int line)
{
    Dwarf_Addr bias = 0;
    Dwarf_Die *cu = dwfl_module_addrdie(mod, a, &bias), *scopes = NULL, *chain = NULL, cudie;
    Dwarf_Files *files = NULL;
    int oom = 0, n = cu ? dwarf_getscopes(cu, a - bias, &scopes) : 0;
    int nchain = n > 0 ? dwarf_getscopes_die(&scopes[0], &chain) : 0;

    if (nchain > 0 && dwarf_diecu(&chain[0], &cudie, NULL, NULL))
        dwarf_getsrcfiles(&cudie, &files, NULL);
    for (int i = 0; i < nchain && !oom; i++) {
        int tag = dwarf_tag(&chain[i]);
        if (tag == DW_TAG_subprogram)
            break;
        if (tag != DW_TAG_inlined_subroutine)
            continue;
        struct rp_inlined *in = realloc(fr->inlined, (fr->ninlined + 1) * sizeof *in);
        if (!in) {
            oom = 1;
            break;
        }
        fr->inlined = in;
        in = &in[fr->ninlined++];
        in->function = die_function(&chain[i]);
        in->srcfile = line > 0 ? dup_or_null(src, &oom) : NULL;
        in->line = line > 0 && src ? (unsigned)line : 0;
        oom |= !in->function;
        Dwarf_Attribute attr;
        Dwarf_Word v;
        src = files && dwarf_formudata(dwarf_attr(&chain[i], DW_AT_call_file, &attr), &v) == 0
                  ? dwarf_filesrc(files, v, NULL, NULL)
                  : NULL;
        line = dwarf_formudata(dwarf_attr(&chain[i], DW_AT_call_line, &attr), &v) == 0 ? (int)v : 0;
    }
    if (line > 0 && src && !oom) {
        fr->line = (unsigned)line;
        fr->srcfile = dup_or_null(src, &oom);
    }
    free(scopes);
    free(chain);
    return oom ? -1 : 0;
}

static int resolve(Dwfl_Module *mod, struct rp_frame *fr)
{
    GElf_Addr a = rp_frame_file_addr(fr);
    GElf_Off off = 0;
    GElf_Sym sym;
    const char *name = dwfl_module_addrinfo(mod, a, &off, &sym, NULL, NULL, NULL);

    fr->offset = name ? off + 1 : fr->addr - fr->module->base;
    if (name && !(fr->function = rp_demangle(name)))
        return -1;
    char *at = fr->function ? strchr(fr->function, '@') : NULL; /* a symbol version: memcpy@GLIBC_2.14 */
    if (at && at != fr->function)
        *at = '\0';
    Dwfl_Line *ln = dwfl_module_getsrc(mod, a);
    int line = 0;
    const char *src = ln ? dwfl_lineinfo(ln, NULL, &line, NULL, NULL, NULL) : NULL;
    return inlines(mod, fr, a, src, line);
}

int rp_symbols_resolve(const struct rp_module *m, struct rp_frame **frames, size_t n)
{
    char *path = debug_path();
    if (!path)
        return -1;
    Dwfl_Callbacks cb = {.find_elf = NULL, .find_debuginfo = find_debuginfo, .debuginfo_path = &path};
    int fd = open_regular(m->path), rc = 0;

    elf_version(EV_CURRENT);
    if (fd >= 0 && other_build_id(fd, m->build_id, m->build_id_len)) {
        rp_symbols_say_changed(m->path);
        close(fd);
        fd = -1;
    }
    Dwfl *dwfl = fd >= 0 ? dwfl_begin(&cb) : NULL;
    Dwfl_Module *mod = NULL;
    if (dwfl) {
        dwfl_report_begin(dwfl);
        /* Bias 0: addresses are the file's.  On success the descriptor is dwfl's. */
        if (!(mod = dwfl_report_elf(dwfl, m->path, m->path, fd, 0, false)))
            close(fd);
        dwfl_report_end(dwfl, NULL, NULL);
    } else if (fd >= 0)
        close(fd);
    if (mod) {
        void **userdata = NULL;
        dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
        if (userdata)
            *userdata = &path; /* find_debuginfo's debuglink search reads the same path */
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (mod)
            rc = resolve(mod, frames[i]);
        else
            frames[i]->offset = frames[i]->addr - m->base;
    }
    dwfl_end(dwfl);
    free(path);
    return rc;
}
