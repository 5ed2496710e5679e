#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/elfsym.h"
#include "format/grow.h"
#include "report/map.h"
#include "report/display_names.h"
#include "report/symbolize.h"
#include "report/text.h"

extern char **environ;

/* The frames of one module file, gathered across the trace so its symbols are read and addr2line runs once. */
struct modfile {
    const struct rp_module *mod;
    struct rp_frame **frames;
    size_t n, cap;
};

struct work {
    struct rp_strmap by_key; /* path + build id -> index */
    struct modfile *m;
    size_t n, cap;
};

/* The address looked up: the call instruction before the return address. */
static uint64_t file_addr(const struct rp_frame *fr) { return fr->addr - fr->module->base - 1; }

static int gather(struct work *w, struct rp_frame *fr)
{
    char key[4200];
    int len = snprintf(key, sizeof key, "%s#", fr->module->path);
    for (unsigned i = 0; i < fr->module->build_id_len && len < (int)sizeof key - 3; i++)
        len += snprintf(key + len, sizeof key - (size_t)len, "%02x", fr->module->build_id[i]);
    size_t i = rp_strmap_get(&w->by_key, key);
    if (i == (size_t)-1) {
        struct modfile *mf = ct_grow(w->m, &w->cap, w->n + 1, sizeof *mf);
        if (!mf)
            return -1;
        w->m = mf;
        i = w->n;
        if (rp_strmap_put(&w->by_key, key, i) < 0)
            return -1;
        w->m[w->n++] = (struct modfile){fr->module, NULL, 0, 0};
    }
    struct modfile *m = &w->m[i];
    struct rp_frame **f = ct_grow(m->frames, &m->cap, m->n + 1, sizeof *f);
    if (!f)
        return -1;
    m->frames = f;
    m->frames[m->n++] = fr;
    return 0;
}

static int functions(struct modfile *m)
{
    int mismatch;
    struct rp_elfsyms *s = rp_elfsyms_load(m->mod->path, m->mod->build_id, m->mod->build_id_len, &mismatch);
    if (mismatch)
        fprintf(stderr, "cudatrace-report: %s changed since the trace (another build id): its frames are not "
                        "symbolized\n", m->mod->path);
    for (size_t i = 0; i < m->n; i++) {
        struct rp_frame *fr = m->frames[i];
        uint64_t off = 0;
        const char *name = rp_elfsyms_find(s, file_addr(fr), &off);
        fr->offset = name ? off + 1 : fr->addr - fr->module->base;
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

/* Source lines by addr2line: the addresses go in through a temporary file, one "FILE:LINE" comes back each. */
static void lines(struct modfile *m, const char *prog)
{
    char tmpl[] = "/tmp/cudatrace-report-XXXXXX";
    int in, pipefd[2] = {-1, -1};
    FILE *f = NULL;
    pid_t pid = 0;
    struct stat st;

    /* Nothing to read in a missing file; a FIFO named in a (damaged) trace would block addr2line for ever. */
    if (stat(m->mod->path, &st) != 0 || !S_ISREG(st.st_mode) || (in = mkstemp(tmpl)) < 0)
        return;
    unlink(tmpl);
    for (size_t i = 0; i < m->n; i++)
        dprintf(in, "0x%" PRIx64 "\n", file_addr(m->frames[i]));
    lseek(in, 0, SEEK_SET);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (pipe(pipefd) == 0) {
        posix_spawn_file_actions_adddup2(&fa, in, 0);
        posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
        char *argv[] = {(char *)prog, "-e", m->mod->path, NULL};
        if (posix_spawnp(&pid, prog, &fa, NULL, argv, environ) != 0)
            pid = 0;
        close(pipefd[1]);
        if (pid)
            f = fdopen(pipefd[0], "r");
        else
            close(pipefd[0]);
    }
    posix_spawn_file_actions_destroy(&fa);
    close(in);
    char line[4096];
    for (size_t i = 0; f && i < m->n && fgets(line, sizeof line, f); i++) {
        char *colon = strrchr(line, ':');
        line[strcspn(line, "\n")] = '\0';
        char *disc = strstr(line, " (discriminator");
        if (disc)
            *disc = '\0';
        if (!colon || line[0] == '?' || colon[1] == '?' || atoi(colon + 1) <= 0)
            continue;
        *colon = '\0';
        m->frames[i]->line = (unsigned)atoi(colon + 1);
        m->frames[i]->srcfile = strdup(line);
    }
    if (f)
        fclose(f);
    if (pid)
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
        }
}

int rp_symbolize(struct rp_trace *t)
{
    struct work w = {0};
    int rc = 0;
    const char *prog = getenv("CUDATRACE_ADDR2LINE");

    if (!prog)
        prog = "addr2line";
    for (size_t i = 0; i < t->nfiles && rc == 0; i++) {
        struct rp_stacktab *st = &t->files[i].stacks;
        if (st->resolved)
            continue;
        st->resolved = 1;
        for (size_t j = 0; j < st->n && rc == 0; j++)
            for (unsigned k = 0; k < st->stacks[j].nframes && rc == 0; k++) {
                struct rp_frame *fr = &st->stacks[j].frames[k];
                if ((fr->module = rp_stacktab_module(st, fr->addr)) != NULL)
                    rc = gather(&w, fr);
            }
    }
    for (size_t i = 0; i < w.n; i++) {
        if (rc == 0)
            rc = functions(&w.m[i]);
        if (rc == 0 && *prog)
            lines(&w.m[i], prog);
        free(w.m[i].frames);
    }
    free(w.m);
    rp_strmap_free(&w.by_key);
    if (rc)
        fprintf(stderr, "cudatrace-report: out of memory\n");
    return rc;
}

static const char *basename_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

const char *rp_frame_text(const struct rp_frame *fr, char *buf, size_t size)
{
    int n;
    if (fr->function)
        n = snprintf(buf, size, "%s+0x%" PRIx64, fr->function, fr->offset);
    else
        n = snprintf(buf, size, "0x%" PRIx64, fr->addr);
    if (fr->srcfile && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, " (%s:%u)", basename_of(fr->srcfile), fr->line);
    if (n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, " [%s]", fr->module ? basename_of(fr->module->path) : "?");
    return buf;
}

void rp_frame_json(FILE *out, const struct rp_frame *fr)
{
    fprintf(out, "{\"address\":\"0x%" PRIx64 "\"", fr->addr);
    if (fr->function) {
        fputs(",\"function\":", out);
        rp_json_string(out, fr->function);
        fprintf(out, ",\"offset\":%" PRIu64, fr->offset);
    }
    if (fr->module) {
        fputs(",\"module\":", out);
        rp_json_string(out, fr->module->path);
    }
    if (fr->srcfile) {
        fputs(",\"file\":", out);
        rp_json_string(out, fr->srcfile);
        fprintf(out, ",\"line\":%u", fr->line);
    }
    putc('}', out);
}

void rp_stack_json(FILE *out, const struct rp_stack *s)
{
    putc('[', out);
    for (unsigned i = 0; s && i < s->nframes; i++) {
        if (i)
            putc(',', out);
        rp_frame_json(out, &s->frames[i]);
    }
    putc(']', out);
}

char *rp_stack_key(const struct rp_stack *s)
{
    size_t len = 1, used = 0;
    for (unsigned i = 0; s && i < s->nframes; i++)
        len += (s->frames[i].module ? strlen(s->frames[i].module->path) : 1) + 20;
    char *key = malloc(len);
    if (!key)
        return NULL;
    key[0] = '\0';
    for (unsigned i = 0; s && i < s->nframes; i++) {
        const struct rp_frame *fr = &s->frames[i];
        used += (size_t)snprintf(key + used, len - used, "%s+%" PRIx64 ";", fr->module ? fr->module->path : "?",
                                 fr->module ? fr->addr - fr->module->base : fr->addr);
    }
    return key;
}

void rp_stack_text(FILE *out, const struct rp_stack *s, const char *indent)
{
    char buf[1024];
    if (!s || !s->nframes)
        fprintf(out, "%s(no call stack recorded)\n", indent);
    for (unsigned i = 0; s && i < s->nframes; i++)
        fprintf(out, "%s#%u %s\n", indent, i, rp_frame_text(&s->frames[i], buf, sizeof buf));
}

char *rp_stack_line(const struct rp_stack *s)
{
    char buf[1024];
    size_t len = 0, cap = 256;
    char *line = malloc(cap);
    if (!line)
        return NULL;
    line[0] = '\0';
    for (unsigned i = 0; s && i < s->nframes; i++) {
        size_t l = strlen(rp_frame_text(&s->frames[i], buf, sizeof buf)) + 3;
        if (len + l + 1 > cap) {
            char *n = realloc(line, cap = (len + l + 1) * 2);
            if (!n) {
                free(line);
                return NULL;
            }
            line = n;
        }
        len += (size_t)sprintf(line + len, "%s%s", i ? " | " : "", buf);
    }
    return line;
}
