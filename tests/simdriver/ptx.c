/* Just enough of a PTX reader: the `.entry` names and the layout of their parameters (offsets at each
 * parameter's alignment, as the driver packs them), and the names of the device functions a text defines or
 * declares `.extern`, from text that carries .version and .target. */
#include "config.h"

#include "sim.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A copy of the text with comments blanked out, so that `// .entry x` declares nothing. */
static char *strip_comments(const char *text, size_t len)
{
    char *s = malloc(len + 1);
    if (!s)
        return NULL;
    memcpy(s, text, len);
    s[len] = '\0';
    for (char *p = s; *p; p++) {
        if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                *p++ = ' ';
            if (!*p)
                break;
        } else if (p[0] == '/' && p[1] == '*') {
            char *end = strstr(p + 2, "*/");
            char *stop = end ? end + 2 : p + strlen(p);
            memset(p, ' ', (size_t)(stop - p));
            p = stop - 1;
        } else if (*p == '"') { /* file names in .file directives may hold slashes */
            for (p++; *p && *p != '"'; p++)
                ;
            if (!*p)
                break;
        }
    }
    return s;
}

/* The next occurrence of directive `word` (e.g. ".entry") standing as a whole token, or NULL. */
static char *find_token(char *from, const char *word)
{
    size_t n = strlen(word);
    for (char *p = strstr(from, word); p; p = strstr(p + 1, word)) {
        bool starts = p == from || isspace((unsigned char)p[-1]) || p[-1] == '{' || p[-1] == '}' || p[-1] == ';';
        if (starts && (isspace((unsigned char)p[n]) || p[n] == '\0'))
            return p;
    }
    return NULL;
}

static size_t type_size(const char *t)
{
    static const struct {
        const char *name;
        size_t size;
    } types[] = {
        {".b8", 1},  {".u8", 1},  {".s8", 1},  {".b16", 2}, {".u16", 2}, {".s16", 2}, {".f16", 2},
        {".bf16", 2}, {".f16x2", 4}, {".b32", 4}, {".u32", 4}, {".s32", 4}, {".f32", 4}, {".b64", 8},
        {".u64", 8}, {".s64", 8}, {".f64", 8}, {".b128", 16},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        if (strcmp(t, types[i].name) == 0)
            return types[i].size;
    }
    return 0;
}

/* One declaration such as `.param .align 16 .b8 k_param_4[16]` or `.param .u64 .ptr .global .align 4 k_p0`
 * (an .align after .ptr describes the pointee, not the parameter). */
static bool parse_param(char *decl, struct sim_param *out)
{
    size_t count = 1, elem = 0, align = 0;
    char *bracket = strchr(decl, '[');
    if (bracket) {
        count = strtoul(bracket + 1, NULL, 10);
        *bracket = '\0';
    }
    bool is_param = false, pointer = false, want_align = false;
    char *save = NULL;
    for (char *t = strtok_r(decl, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
        if (want_align) {
            if (!pointer)
                align = strtoul(t, NULL, 10);
            want_align = false;
        } else if (strcmp(t, ".param") == 0) {
            is_param = true;
        } else if (strcmp(t, ".align") == 0) {
            want_align = true;
        } else if (strcmp(t, ".ptr") == 0) {
            pointer = true;
        } else if (type_size(t)) {
            elem = type_size(t);
        }
    }
    if (!is_param || elem == 0 || count == 0)
        return false;
    out->size = elem * count;
    out->align = align ? align : elem;
    return true;
}

static void set_error(char *err, size_t errlen, const char *what, const char *name)
{
    if (err && errlen)
        snprintf(err, errlen, "ptxas fatal   : %s%s%s", what, name ? " " : "", name ? name : "");
}

static CUresult parse_entry(char **cursor, struct sim_entry *e, char *err, size_t errlen)
{
    char *p = *cursor + strlen(".entry");
    while (isspace((unsigned char)*p))
        p++;
    char *name = p;
    while (*p && !isspace((unsigned char)*p) && *p != '(' && *p != '{' && *p != ';')
        p++;
    if (p == name) {
        set_error(err, errlen, "syntax error: .entry without a name", NULL);
        return CUDA_ERROR_INVALID_PTX;
    }
    e->name = strndup(name, (size_t)(p - name));
    if (!e->name)
        return CUDA_ERROR_OUT_OF_MEMORY;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '(') {
        char *close = strchr(p, ')');
        if (!close) {
            set_error(err, errlen, "syntax error: unterminated parameter list of", e->name);
            return CUDA_ERROR_INVALID_PTX;
        }
        *close = '\0';
        size_t offset = 0;
        char *save = NULL;
        for (char *d = strtok_r(p + 1, ",", &save); d; d = strtok_r(NULL, ",", &save)) {
            struct sim_param prm;
            if (strspn(d, " \t\r\n") == strlen(d))
                continue;
            if (!parse_param(d, &prm)) {
                set_error(err, errlen, "syntax error: unreadable parameter of", e->name);
                return CUDA_ERROR_INVALID_PTX;
            }
            struct sim_param *grown = realloc(e->params, (e->nparams + 1) * sizeof *grown);
            if (!grown)
                return CUDA_ERROR_OUT_OF_MEMORY;
            e->params = grown;
            prm.offset = (offset + prm.align - 1) / prm.align * prm.align;
            offset = prm.offset + prm.size;
            e->params[e->nparams++] = prm;
        }
        e->param_bytes = offset;
        p = close + 1;
    }
    *cursor = p;
    return CUDA_SUCCESS;
}

static CUresult add_name(char ***list, unsigned int *n, const char *name, size_t len)
{
    char **grown = realloc(*list, (*n + 1) * sizeof *grown);
    if (!grown)
        return CUDA_ERROR_OUT_OF_MEMORY;
    *list = grown;
    if (!(grown[*n] = strndup(name, len)))
        return CUDA_ERROR_OUT_OF_MEMORY;
    (*n)++;
    return CUDA_SUCCESS;
}

/* `[.extern|.visible|.weak] .func [(return parameter)] name (...)`: the name, filed as defined or external. */
static CUresult parse_func(char *s, char **cursor, struct sim_ptx *out)
{
    char *start = *cursor, *p = start + strlen(".func");
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '(') {
        char *close = strchr(p, ')');
        if (!close)
            return CUDA_ERROR_INVALID_PTX;
        p = close + 1;
        while (isspace((unsigned char)*p))
            p++;
    }
    char *name = p;
    while (*p && !isspace((unsigned char)*p) && *p != '(' && *p != ';' && *p != '{')
        p++;
    *cursor = p;
    if (p == name)
        return CUDA_ERROR_INVALID_PTX;
    char *q = start;
    while (q > s && isspace((unsigned char)q[-1]))
        q--;
    bool external = q - s >= 7 && strncmp(q - 7, ".extern", 7) == 0;
    return external ? add_name(&out->externs, &out->nexterns, name, (size_t)(p - name))
                    : add_name(&out->funcs, &out->nfuncs, name, (size_t)(p - name));
}

CUresult sim_ptx_parse(const char *text, size_t len, struct sim_ptx *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!text)
        return CUDA_ERROR_INVALID_VALUE;
    char *s = strip_comments(text, strnlen(text, len));
    if (!s)
        return CUDA_ERROR_OUT_OF_MEMORY;
    CUresult r = CUDA_SUCCESS;
    if (!find_token(s, ".version") || !find_token(s, ".target")) {
        if (err && errlen)
            snprintf(err, errlen, "error   : Binary format is not recognized (neither PTX nor a linked image)");
        r = CUDA_ERROR_INVALID_IMAGE;
    }
    /* functions first: reading the entries cuts the text at each parameter list */
    for (char *p = s; r == CUDA_SUCCESS && (p = find_token(p, ".func"));) {
        if ((r = parse_func(s, &p, out)) == CUDA_ERROR_INVALID_PTX)
            set_error(err, errlen, "syntax error: unreadable .func declaration", NULL);
    }
    for (char *p = s; r == CUDA_SUCCESS && (p = find_token(p, ".entry"));) {
        struct sim_entry *grown = realloc(out->entries, (out->nentries + 1) * sizeof *grown);
        if (!grown) {
            r = CUDA_ERROR_OUT_OF_MEMORY;
            break;
        }
        out->entries = grown;
        memset(&out->entries[out->nentries], 0, sizeof *grown);
        r = parse_entry(&p, &out->entries[out->nentries++], err, errlen);
    }
    free(s);
    if (r != CUDA_SUCCESS)
        sim_ptx_free(out);
    return r;
}

void sim_ptx_free(struct sim_ptx *ptx)
{
    for (unsigned int i = 0; i < ptx->nentries; i++) {
        free(ptx->entries[i].name);
        free(ptx->entries[i].params);
    }
    free(ptx->entries);
    for (unsigned int i = 0; i < ptx->nfuncs; i++)
        free(ptx->funcs[i]);
    free(ptx->funcs);
    for (unsigned int i = 0; i < ptx->nexterns; i++)
        free(ptx->externs[i]);
    free(ptx->externs);
    memset(ptx, 0, sizeof *ptx);
}
