#include "config.h"

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/symbols/elfsym.h"
#include "report/model/sort.h"

struct sym {
    uint64_t addr, size;
    const char *name; /* into names */
};

struct rp_elfsyms {
    struct sym *syms; /* sorted by address */
    size_t n;
    char *names;
};

struct image {
    const unsigned char *p;
    size_t len;
};

static int map_file(const char *path, struct image *im)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO named in a trace must not block */
    if (fd < 0)
        return -1;
    im->p = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= (off_t)sizeof(Elf64_Ehdr)) {
        im->len = (size_t)st.st_size;
        void *p = mmap(NULL, im->len, PROT_READ, MAP_PRIVATE, fd, 0);
        im->p = p == MAP_FAILED ? NULL : p;
    }
    close(fd);
    if (!im->p)
        return -1;
    const Elf64_Ehdr *eh = (const void *)im->p;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > im->len ||
        (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > im->len - eh->e_shoff) {
        munmap((void *)im->p, im->len);
        return -1;
    }
    return 0;
}

static const Elf64_Shdr *section(const struct image *im, unsigned i)
{
    const Elf64_Ehdr *eh = (const void *)im->p;
    return i < eh->e_shnum ? (const Elf64_Shdr *)(im->p + eh->e_shoff) + i : NULL;
}

static int in_file(const struct image *im, const Elf64_Shdr *s)
{
    return s->sh_type != SHT_NOBITS && s->sh_offset <= im->len && s->sh_size <= im->len - s->sh_offset;
}

/* The GNU build id of the file, from its SHT_NOTE sections; 0 when none. */
static size_t file_build_id(const struct image *im, const unsigned char **id)
{
    const Elf64_Ehdr *eh = (const void *)im->p;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        const Elf64_Shdr *s = section(im, i);
        if (s->sh_type != SHT_NOTE || !in_file(im, s))
            continue;
        const unsigned char *p = im->p + s->sh_offset, *end = p + s->sh_size;
        while (p + sizeof(Elf64_Nhdr) <= end) {
            const Elf64_Nhdr *n = (const void *)p;
            const unsigned char *name = p + sizeof *n, *desc = name + ((n->n_namesz + 3) & ~3u);
            if (desc + n->n_descsz > end)
                break;
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(name, "GNU", 4)) {
                *id = desc;
                return n->n_descsz;
            }
            p = desc + ((n->n_descsz + 3) & ~3u);
        }
    }
    return 0;
}

static int cmp_sym(const void *a, const void *b)
{
    const struct sym *x = a, *y = b;
    return (x->addr > y->addr) - (x->addr < y->addr);
}

/* Function symbols of the table of type `type` (SHT_SYMTAB or SHT_DYNSYM). */
static int read_table(const struct image *im, unsigned type, struct rp_elfsyms *out)
{
    const Elf64_Ehdr *eh = (const void *)im->p;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        const Elf64_Shdr *s = section(im, i), *str = s ? section(im, s->sh_link) : NULL;
        if (s->sh_type != type || !str || !in_file(im, s) || !in_file(im, str) || s->sh_entsize != sizeof(Elf64_Sym))
            continue;
        size_t n = s->sh_size / sizeof(Elf64_Sym), k = 0;
        const Elf64_Sym *sy = (const void *)(im->p + s->sh_offset);
        if (!(out->syms = malloc((n ? n : 1) * sizeof *out->syms)) || !(out->names = malloc(str->sh_size + 1)))
            return -1;
        memcpy(out->names, im->p + str->sh_offset, str->sh_size);
        out->names[str->sh_size] = '\0';
        for (size_t j = 0; j < n; j++) {
            unsigned t = ELF64_ST_TYPE(sy[j].st_info);
            if ((t != STT_FUNC && t != STT_GNU_IFUNC) || sy[j].st_shndx == SHN_UNDEF || !sy[j].st_value ||
                sy[j].st_name >= str->sh_size)
                continue;
            out->syms[k++] = (struct sym){sy[j].st_value, sy[j].st_size, out->names + sy[j].st_name};
        }
        out->n = k;
        rp_sort(out->syms, k, sizeof *out->syms, cmp_sym);
        return k ? 1 : 0;
    }
    return 0;
}

static struct rp_elfsyms *load(const char *path, const uint8_t *bid, size_t bidlen, int *mismatch, int debug_file)
{
    struct image im;
    struct rp_elfsyms *s;
    const unsigned char *fid = NULL;
    size_t flen;

    if (map_file(path, &im) < 0)
        return NULL;
    flen = file_build_id(&im, &fid);
    if (bidlen && flen && (flen != bidlen || memcmp(fid, bid, bidlen) != 0)) {
        *mismatch = 1;
        munmap((void *)im.p, im.len);
        return NULL;
    }
    if (!(s = calloc(1, sizeof *s))) {
        munmap((void *)im.p, im.len);
        return NULL;
    }
    int got = read_table(&im, SHT_SYMTAB, s);
    if (got == 0 && !debug_file && bidlen) { /* stripped: its separate debug file has the full table */
        char dbg[128];
        int n = snprintf(dbg, sizeof dbg, "/usr/lib/debug/.build-id/%02x/", bid[0]);
        for (size_t i = 1; i < bidlen && n < (int)sizeof dbg - 8; i++)
            n += snprintf(dbg + n, sizeof dbg - (size_t)n, "%02x", bid[i]);
        snprintf(dbg + n, sizeof dbg - (size_t)n, ".debug");
        struct rp_elfsyms *d = load(dbg, bid, bidlen, mismatch, 1);
        if (d && d->n) {
            rp_elfsyms_free(s);
            munmap((void *)im.p, im.len);
            return d;
        }
        rp_elfsyms_free(d);
    }
    if (got == 0) {
        free(s->syms);
        free(s->names);
        s->syms = NULL, s->names = NULL;
        got = read_table(&im, SHT_DYNSYM, s);
    }
    munmap((void *)im.p, im.len);
    if (got < 0) {
        rp_elfsyms_free(s);
        return NULL;
    }
    return s;
}

struct rp_elfsyms *rp_elfsyms_load(const char *path, const uint8_t *build_id, size_t build_id_len, int *mismatch)
{
    *mismatch = 0;
    return load(path, build_id, build_id_len, mismatch, 0);
}

const char *rp_elfsyms_find(const struct rp_elfsyms *s, uint64_t addr, uint64_t *offset)
{
    size_t lo = 0, hi = s ? s->n : 0;
    while (lo < hi) { /* the first symbol above addr */
        size_t mid = (lo + hi) / 2;
        if (s->syms[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const struct sym *f = &s->syms[lo - 1];
    if (f->size && addr >= f->addr + f->size)
        return NULL; /* between functions */
    *offset = addr - f->addr;
    return f->name;
}

void rp_elfsyms_free(struct rp_elfsyms *s)
{
    if (!s)
        return;
    free(s->syms);
    free(s->names);
    free(s);
}
