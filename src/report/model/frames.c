/* The frames of resolved stacks as text and JSON (frames.h). */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/model/frames.h"
#include "report/model/text.h"

static const char *basename_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The part of path after its last site-packages/ or dist-packages/ directory (an installed package's own
 * path: "torch/nn/modules/module.py"); NULL when it lies in none. */
static const char *in_packages(const char *path)
{
    const char *best = NULL;
    for (const char *p = path; (p = strstr(p, "-packages/")) != NULL; p++)
        if (p - path >= 5 && (strncmp(p - 5, "/site", 5) == 0 || strncmp(p - 5, "/dist", 5) == 0))
            best = p + strlen("-packages/");
    return best;
}

/* A Python frame's file as shown: from the package directory in site-packages or dist-packages, else the
 * base name. */
static const char *py_file_shown(const char *path)
{
    const char *p = in_packages(path);
    return p ? p : basename_of(path);
}

/* Is "/lib/python3.N/" (or lib64) in path: the standard library's directory? */
static int in_stdlib(const char *path)
{
    for (const char *p = path; (p = strstr(p, "/python3.")) != NULL; p++) {
        const char *q = p + strlen("/python3.");
        if (!(p - path >= 4 && strncmp(p - 4, "/lib", 4) == 0) && !(p - path >= 6 && strncmp(p - 6, "/lib64", 6) == 0))
            continue;
        while (*q >= '0' && *q <= '9')
            q++;
        if (q > p + strlen("/python3.") && *q == '/')
            return 1;
    }
    return 0;
}

/* Is a Python file the program's own code?  Not when it lies in a site-packages or dist-packages directory
 * (installed packages: torch, numpy, ...), in the standard library (a directory lib/python3.N or
 * lib64/python3.N), or is a frozen module ("<frozen importlib._bootstrap>").  Everything else is: the
 * script, its modules, a package installed from a source tree in development mode. */
static int py_user_code(const char *path)
{
    return strncmp(path, "<frozen ", 8) != 0 && !in_packages(path) && !in_stdlib(path);
}

int rp_py_user_frame(const struct rp_stack *s)
{
    int first = -1;
    for (unsigned i = 0; s && i < s->nframes; i++)
        if (s->frames[i].python) {
            if (py_user_code(s->frames[i].srcfile))
                return (int)i;
            if (first < 0)
                first = (int)i;
        }
    return first;
}

const char *rp_frame_text(const struct rp_frame *fr, unsigned level, char *buf, size_t size)
{
    if (fr->python) {
        snprintf(buf, size, "%s:%u %s", py_file_shown(fr->srcfile), fr->line, fr->function);
        return buf;
    }
    const struct rp_inlined *in = level < fr->ninlined ? &fr->inlined[level] : NULL;
    const char *src = in ? in->srcfile : fr->srcfile;
    unsigned line = in ? in->line : fr->line;
    int n;
    if (in)
        n = snprintf(buf, size, "%s (inlined)", in->function);
    else if (fr->function)
        n = snprintf(buf, size, "%s+0x%" PRIx64, fr->function, fr->offset);
    else
        n = snprintf(buf, size, "0x%" PRIx64, fr->addr);
    if (src && n >= 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, " (%s:%u)", basename_of(src), line);
    if (n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, " [%s]", fr->module ? basename_of(fr->module->path) : "?");
    return buf;
}

void rp_frame_json(FILE *out, const struct rp_frame *fr, unsigned level)
{
    const struct rp_inlined *in = level < fr->ninlined ? &fr->inlined[level] : NULL;
    const char *src = in ? in->srcfile : fr->srcfile;
    if (fr->python) {
        fputs("{\"python\":true,\"function\":", out);
        rp_json_string(out, fr->function);
        fputs(",\"file\":", out);
        rp_json_string(out, fr->srcfile);
        fprintf(out, ",\"line\":%u}", fr->line);
        return;
    }
    fprintf(out, "{\"address\":\"0x%" PRIx64 "\"", fr->addr);
    if (in) {
        fputs(",\"function\":", out);
        rp_json_string(out, in->function);
        fputs(",\"inlined\":true", out);
    } else if (fr->function) {
        fputs(",\"function\":", out);
        rp_json_string(out, fr->function);
        fprintf(out, ",\"offset\":%" PRIu64, fr->offset);
    }
    if (fr->module) {
        fputs(",\"module\":", out);
        rp_json_string(out, fr->module->path);
    }
    if (src) {
        fputs(",\"file\":", out);
        rp_json_string(out, src);
        fprintf(out, ",\"line\":%u", in ? in->line : fr->line);
    }
    putc('}', out);
}

void rp_stack_json(FILE *out, const struct rp_stack *s)
{
    int first = 1;
    putc('[', out);
    for (unsigned i = 0; s && i < s->nframes; i++)
        for (unsigned l = 0; l <= s->frames[i].ninlined; l++) {
            if (!first)
                putc(',', out);
            first = 0;
            rp_frame_json(out, &s->frames[i], l);
        }
    putc(']', out);
}

char *rp_stack_key(const struct rp_stack *s)
{
    size_t len = 1, used = 0;
    for (unsigned i = 0; s && i < s->nframes; i++)
        len += (s->frames[i].python ? strlen(s->frames[i].srcfile) + strlen(s->frames[i].function)
                : s->frames[i].module ? strlen(s->frames[i].module->path) : 1) + 20;
    char *key = malloc(len);
    if (!key)
        return NULL;
    key[0] = '\0';
    for (unsigned i = 0; s && i < s->nframes; i++) {
        const struct rp_frame *fr = &s->frames[i];
        if (fr->python) {
            used += (size_t)snprintf(key + used, len - used, "%s:%u %s;", fr->srcfile, fr->line, fr->function);
            continue;
        }
        used += (size_t)snprintf(key + used, len - used, "%s+%" PRIx64 ";", fr->module ? fr->module->path : "?",
                                 fr->module ? fr->addr - fr->module->base : fr->addr);
    }
    return key;
}

void rp_stack_text(FILE *out, const struct rp_stack *s, const char *indent)
{
    char buf[1024];
    unsigned shown = 0;
    if (!s || !s->nframes)
        fprintf(out, "%s(no call stack recorded)\n", indent);
    for (unsigned i = 0; s && i < s->nframes; i++)
        for (unsigned l = 0; l <= s->frames[i].ninlined; l++) {
            fprintf(out, "%s#%u ", indent, shown++);
            rp_text_put(out, rp_frame_text(&s->frames[i], l, buf, sizeof buf)); /* read on a terminal */
            putc('\n', out);
        }
}

char *rp_stack_line(const struct rp_stack *s)
{
    char buf[1024];
    size_t len = 0, cap = 256;
    char *line = malloc(cap);
    if (!line)
        return NULL;
    line[0] = '\0';
    for (unsigned i = 0; s && i < s->nframes; i++)
        for (unsigned lv = 0; lv <= s->frames[i].ninlined; lv++) {
            size_t l = strlen(rp_frame_text(&s->frames[i], lv, buf, sizeof buf)) + 3;
            if (len + l + 1 > cap) {
                char *n = realloc(line, cap = (len + l + 1) * 2);
                if (!n) {
                    free(line);
                    return NULL;
                }
                line = n;
            }
            len += (size_t)sprintf(line + len, "%s%s", len ? " | " : "", buf);
        }
    return line;
}

void rp_folded_name(FILE *out, const char *name)
{
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        putc(*p == ';' ? ',' : *p < 0x20 || *p == 0x7f ? '?' : *p, out);
}

/* Level `level` of a frame as a folded frame: no offsets nor addresses of a known function, so that calls
 * from one function make one frame. */
static void frame_folded(FILE *out, const struct rp_frame *fr, unsigned level)
{
    char buf[1024];
    if (fr->python) {
        snprintf(buf, sizeof buf, "%s (%s:%u)", fr->function, py_file_shown(fr->srcfile), fr->line);
    } else if (level < fr->ninlined) {
        snprintf(buf, sizeof buf, "%s", fr->inlined[level].function);
    } else if (fr->function) {
        snprintf(buf, sizeof buf, "%s", fr->function);
    } else {
        snprintf(buf, sizeof buf, "0x%" PRIx64 " [%s]", fr->module ? fr->addr - fr->module->base : fr->addr,
                 fr->module ? basename_of(fr->module->path) : "?");
    }
    rp_folded_name(out, buf);
}

void rp_stack_folded(FILE *out, const struct rp_stack *s)
{
    int first = 1;
    for (unsigned i = s ? s->nframes : 0; i-- > 0;)
        for (unsigned l = s->frames[i].ninlined + 1; l-- > 0;) {
            if (!first)
                putc(';', out);
            first = 0;
            frame_folded(out, &s->frames[i], l);
        }
}
