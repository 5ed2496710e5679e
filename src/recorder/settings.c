#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/auxv.h>

#include "cudatrace/format.h"
#include "recorder/settings.h"
#include "recorder/warn.h"

int ct_secure_mode(void)
{
    return getauxval(AT_SECURE) != 0;
}

const char *ct_env(const char *name)
{
    return ct_secure_mode() ? NULL : getenv(name);
}

int ct_parse_size(const char *s, size_t *out)
{
    char *end;
    unsigned long long v;
    unsigned shift = 0;

    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || end == s)
        return -1;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: break;
    }
    if (shift && (*end == 'i' || *end == 'I')) /* "4Mi" */
        end++;
    if (shift && (*end == 'b' || *end == 'B')) /* "4MB", "4MiB" */
        end++;
    if (*end || v > (SIZE_MAX >> shift))
        return -1;
    *out = (size_t)v << shift;
    return 0;
}

int ct_parse_uint(const char *s, unsigned *out)
{
    char *end;
    unsigned long v;

    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    errno = 0;
    v = strtoul(s, &end, 10);
    if (errno || *end || v > UINT32_MAX)
        return -1;
    *out = (unsigned)v;
    return 0;
}

int ct_parse_bool(const char *s, int *out)
{
    static const char *const yes[] = {"1", "yes", "true", "on"}, *const no[] = {"0", "no", "false", "off", ""};

    if (!s)
        return -1;
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        if (strcasecmp(s, yes[i]) == 0)
            return *out = 1, 0;
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        if (strcasecmp(s, no[i]) == 0)
            return *out = 0, 0;
    return -1;
}

int ct_parse_mode(const char *s, unsigned *out)
{
    char *end;
    unsigned long v;

    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    errno = 0;
    v = strtoul(s, &end, 8);
    if (errno || *end || v > 0777)
        return -1;
    *out = (unsigned)v;
    return 0;
}

static size_t round_pow2(size_t v)
{
    size_t p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

/* A value named in a table (any case): its index. */
static int parse_name(const char *s, const char *const *names, int n, int *out)
{
    for (int i = 0; s && i < n; i++)
        if (strcasecmp(s, names[i]) == 0)
            return *out = i, 0;
    return -1;
}

int ct_parse_stacks(const char *s, int *out)
{
    static const char *const names[] = {"none", "alloc", "all"};
    return parse_name(s, names, 3, out);
}

int ct_parse_python_stacks(const char *s, int *out)
{
    static const char *const names[] = {"off", "auto"};
    return parse_name(s, names, 2, out);
}

int ct_parse_capture(const char *s, struct ct_capture_spec *out)
{
    if (s && strcasecmp(s, "all") == 0)
        return out->mode = CT_CAPTURE_ALL, 0;
    if (s && (strcasecmp(s, "profiler") == 0 || strcasecmp(s, "cudaProfilerApi") == 0)) /* nsys's name */
        return out->mode = CT_CAPTURE_PROFILER, 0;
    if (s && strncasecmp(s, "nvtx:", 5) == 0) { /* nsys -c nvtx -p RANGE@DOMAIN: the last '@' splits */
        const char *name = s + 5, *at = strrchr(name, '@');
        size_t len = at ? (size_t)(at - name) : strlen(name);
        if (len == 0 || len >= sizeof out->range || (at && (!at[1] || strlen(at + 1) >= sizeof out->domain)))
            return -1;
        memcpy(out->range, name, len);
        out->range[len] = '\0';
        strcpy(out->domain, at ? at + 1 : "");
        return out->mode = CT_CAPTURE_NVTX, 0;
    }
    return -1;
}

int ct_parse_gpu_time(const char *s, int *out)
{
    static const char *const names[] = {[CT_GPU_REQ_OFF] = "off",       [CT_GPU_REQ_SAMPLE] = "sample",
                                        [CT_GPU_REQ_EVENTS] = "events", [CT_GPU_REQ_AUTO] = "auto",
                                        [CT_GPU_REQ_ALL] = "all",       [CT_GPU_REQ_ACTIVITY] = "activity"};
    return parse_name(s, names, CT_GPU_REQ_ACTIVITY + 1, out);
}

static int name_char(char c)
{
    return c == '_' || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* A pattern of CUDATRACE_APIS: name characters, * and ?, and bracket expressions of name characters and
 * ranges ([DS], [!_], [a-z]), as fnmatch reads them. */
static int apis_pattern_ok(const char *p, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (p[i] == '[') {
            size_t j = i + 1;
            if (j < len && (p[j] == '!' || p[j] == '^'))
                j++;
            const size_t first = j;
            while (j < len && (name_char(p[j]) || (p[j] == '-' && j > first)))
                j++;
            if (j == first || j >= len || p[j] != ']')
                return 0;
            i = j;
        } else if (!name_char(p[i]) && p[i] != '*' && p[i] != '?') {
            return 0;
        }
    }
    return 1;
}

int ct_parse_apis(const char *s, struct ct_apis_spec *out)
{
    if (!s)
        return -1;
    out->n = 0;
    while (*s) {
        while (*s == ' ')
            s++;
        const int exclude = *s == '-';
        const char *p = s + exclude, *end = p;
        while (*end && *end != ',')
            end++;
        size_t len = (size_t)(end - p);
        while (len && p[len - 1] == ' ')
            len--;
        if (len == 0 || len >= CT_APIS_PATTERN_MAX || out->n == CT_APIS_MAX)
            return -1;
        if (!apis_pattern_ok(p, len))
            return -1;
        memcpy(out->e[out->n].pattern, p, len);
        out->e[out->n].pattern[len] = '\0';
        out->e[out->n++].exclude = exclude;
        s = *end ? end + 1 : end;
        if (*end && !*s)
            return -1; /* a trailing comma: an empty entry */
    }
    return 0;
}

void ct_settings_capture(struct ct_capture_spec *c)
{
    memset(c, 0, sizeof *c);
    ct_parse_capture(ct_env("CUDATRACE_CAPTURE"), c); /* a bad value: all, and ct_settings_load says so */
}

const char *ct_settings_nvtx_forward(void)
{
    const char *v = ct_env("CUDATRACE_NVTX_FORWARD");
    return v && *v ? v : NULL;
}

static void load_stacks(struct ct_settings *s)
{
    const char *v;
    unsigned u;
    int m;

    if ((v = ct_env("CUDATRACE_STACKS")) != NULL) {
        if (ct_parse_stacks(v, &m) == 0)
            s->stacks = m;
        else
            ct_warn("CUDATRACE_STACKS=\"%.64s\" is not none, alloc or all; using alloc", v);
    }
    if ((v = ct_env("CUDATRACE_STACK_DEPTH")) != NULL) {
        if (ct_parse_uint(v, &u) == 0 && u >= 1 && u <= CT_MAX_STACK_DEPTH)
            s->stack_depth = u;
        else
            ct_warn("CUDATRACE_STACK_DEPTH=\"%.64s\" is not a number of frames from 1 to %u; using %u", v,
                    CT_MAX_STACK_DEPTH, CT_DEFAULT_STACK_DEPTH);
    }
    if ((v = ct_env("CUDATRACE_PYTHON_STACKS")) != NULL && ct_parse_python_stacks(v, &s->python_stacks) != 0)
        ct_warn("CUDATRACE_PYTHON_STACKS=\"%.64s\" is not auto or off; using auto", v);
#ifndef HAVE_LIBUNWIND
    /* Asked for explicitly: say why there will be none.  The default says nothing. */
    if (s->stacks != CT_STACKS_NONE && (v = ct_env("CUDATRACE_STACKS")) != NULL)
        ct_warn("CUDATRACE_STACKS=%s: this build has no libunwind; call stacks are not recorded", v);
    s->stacks = CT_STACKS_NONE;
#endif
}

static void load_gpu(struct ct_settings *s)
{
    const char *v;
    unsigned u;
    int m;

    if ((v = ct_env("CUDATRACE_GPU_TIME")) != NULL) {
        if (ct_parse_gpu_time(v, &m) == 0)
            s->gpu_time = m;
        else
            ct_warn("CUDATRACE_GPU_TIME=\"%.64s\" is not auto, all, activity, events, sample or off; using auto", v);
    }
    if ((v = ct_env("CUDATRACE_GPU_SAMPLE")) != NULL) {
        if (ct_parse_uint(v, &u) == 0 && u >= 1 && u <= CT_MAX_GPU_SAMPLE)
            s->gpu_sample = u;
        else
            ct_warn("CUDATRACE_GPU_SAMPLE=\"%.64s\" is not a number from 1 to %u; using %u", v, CT_MAX_GPU_SAMPLE,
                    CT_DEFAULT_GPU_SAMPLE);
    }
    if ((v = ct_env("CUDATRACE_CUPTI")) != NULL) {
        if (*v == '/' && strlen(v) < sizeof s->cupti)
            strcpy(s->cupti, v);
        else
            ct_warn("CUDATRACE_CUPTI=\"%.64s\" is not an absolute file name; libcupti is looked for as usual", v);
    }
}

void ct_settings_load(struct ct_settings *s)
{
    const char *v;
    size_t size;
    unsigned u;
    int b;

    memset(s, 0, sizeof *s);
    strcpy(s->output, CT_DEFAULT_OUTPUT);
    s->buffer_size = CT_DEFAULT_BUFFER_SIZE;
    s->flush_ms = CT_DEFAULT_FLUSH_MS;
    s->file_mode = CT_DEFAULT_FILE_MODE;
    s->stacks = CT_DEFAULT_STACKS;
    s->stack_depth = CT_DEFAULT_STACK_DEPTH;
    s->python_stacks = 1;
    s->gpu_time = CT_GPU_REQ_AUTO;
    s->gpu_sample = CT_DEFAULT_GPU_SAMPLE;

    if ((v = ct_env("CUDATRACE_OUTPUT")) != NULL) {
        if (*v && strlen(v) < sizeof s->output)
            strcpy(s->output, v);
        else
            ct_warn("CUDATRACE_OUTPUT=\"%.64s\" is %s; using %s", v, *v ? "too long" : "empty", CT_DEFAULT_OUTPUT);
    }
    if ((v = ct_env("CUDATRACE_BUFFER_SIZE")) != NULL) {
        if (ct_parse_size(v, &size) == 0 && size >= CT_MIN_BUFFER_SIZE && size <= CT_MAX_BUFFER_SIZE)
            s->buffer_size = round_pow2(size);
        else
            ct_warn("CUDATRACE_BUFFER_SIZE=\"%.64s\" is not a size from 64K to 1G (e.g. 4M); using %uM", v, (unsigned)(CT_DEFAULT_BUFFER_SIZE >> 20));
    }
    if ((v = ct_env("CUDATRACE_FLUSH_MS")) != NULL) {
        if (ct_parse_uint(v, &u) == 0 && u >= CT_MIN_FLUSH_MS && u <= CT_MAX_FLUSH_MS)
            s->flush_ms = u;
        else
            ct_warn("CUDATRACE_FLUSH_MS=\"%.64s\" is not a number of milliseconds from %u to %u; using %u", v,
                    CT_MIN_FLUSH_MS, CT_MAX_FLUSH_MS, CT_DEFAULT_FLUSH_MS);
    }
    if ((v = ct_env("CUDATRACE_QUIET")) != NULL) {
        if (ct_parse_bool(v, &b) == 0)
            s->quiet = b;
        else
            ct_warn("CUDATRACE_QUIET=\"%.64s\" is not 1 or 0; using 0", v);
    }
    if ((v = ct_env("CUDATRACE_FILE_MODE")) != NULL) {
        if (ct_parse_mode(v, &u) == 0)
            s->file_mode = u;
        else
            ct_warn("CUDATRACE_FILE_MODE=\"%.64s\" is not an octal mode up to 0777; using 0600", v);
    }
    load_stacks(s);
    load_gpu(s);
    /* Used long before (ct_settings_capture); warned about here, with the others, once tracing starts. */
    if ((v = ct_env("CUDATRACE_FILE_LIST")) != NULL) {
        if (*v == '/' && strlen(v) < sizeof s->file_list)
            strcpy(s->file_list, v);
        else
            ct_warn("CUDATRACE_FILE_LIST=\"%.64s\" is not an absolute file name; the trace file is not listed", v);
    }
    struct ct_capture_spec c;
    if ((v = ct_env("CUDATRACE_CAPTURE")) != NULL && ct_parse_capture(v, &c) != 0)
        ct_warn("CUDATRACE_CAPTURE=\"%.64s\" is not all, profiler or nvtx:RANGE[@DOMAIN]; using all (every call is "
                "recorded)", v);
}
