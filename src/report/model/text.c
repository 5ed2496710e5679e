#include "config.h"

#include "report/model/text.h"

#include <string.h>
#include <strings.h>
#include <unistd.h>

int rp_format_parse(const char *s)
{
    if (!strcmp(s, "table") || !strcmp(s, "column"))
        return RP_FMT_TABLE;
    if (!strcmp(s, "csv"))
        return RP_FMT_CSV;
    if (!strcmp(s, "json"))
        return RP_FMT_JSON;
    if (!strcmp(s, "tsv"))
        return RP_FMT_TSV;
    if (!strcmp(s, "folded"))
        return RP_FMT_FOLDED;
    return -1;
}

enum rp_format rp_format_default(FILE *out)
{
    return isatty(fileno(out)) ? RP_FMT_TABLE : RP_FMT_CSV;
}

const struct rp_timeunit rp_timeunit_ns = {"ns", 1.0, 0};

int rp_timeunit_parse(const char *s, struct rp_timeunit *u)
{
    static const struct {
        const char *a, *b, *c, *d;
        struct rp_timeunit u;
    } units[] = {
        {"ns", "nsec", "nanoseconds", "nanosecond", {"ns", 1.0, 0}},
        {"us", "usec", "microseconds", "microsecond", {"us", 1e3, 3}},
        {"ms", "msec", "milliseconds", "millisecond", {"ms", 1e6, 6}},
        {"s", "sec", "seconds", "second", {"s", 1e9, 9}},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcasecmp(s, units[i].a) || !strcasecmp(s, units[i].b) || !strcasecmp(s, units[i].c) ||
            !strcasecmp(s, units[i].d)) {
            *u = units[i].u;
            return 0;
        }
    return -1;
}

const char *rp_fmt_time(char *buf, size_t size, double ns, const struct rp_timeunit *u, int fraction)
{
    int decimals = u->decimals == 0 && fraction ? 1 : u->decimals;
    snprintf(buf, size, "%.*f", decimals, ns / u->ns);
    return buf;
}

const char *rp_group_digits(char *buf, size_t size, const char *num)
{
    const char *p = num, *dot;
    size_t n = 0;
    if (*p == '-' && n + 1 < size)
        buf[n++] = *p++;
    dot = p + strspn(p, "0123456789");
    for (const char *q = p; q < dot && n + 2 < size; q++) {
        buf[n++] = *q;
        size_t left = (size_t)(dot - q - 1);
        if (left && left % 3 == 0)
            buf[n++] = ',';
    }
    snprintf(buf + n, size - n, "%s", dot);
    return buf;
}

void rp_tsv_field(FILE *out, const char *s)
{
    for (; *s; s++)
        putc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, out);
}

void rp_csv_field(FILE *out, const char *s)
{
    if (!s[strcspn(s, ",\"\n\r")]) {
        fputs(s, out);
        return;
    }
    putc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            putc('"', out);
        putc(*s, out);
    }
    putc('"', out);
}

/* Length of the valid UTF-8 sequence at p (lead byte >= 0x80), 0 if it is not one: no lead bytes above F4,
 * no overlong forms, no surrogates, nothing above U+10FFFF (RFC 3629), so JSON readers accept the output. */
static size_t utf8_len(const unsigned char *p)
{
    unsigned lo = 0x80, hi = 0xBF; /* the range of the second byte */
    size_t n;
    if (*p >= 0xC2 && *p <= 0xDF)
        n = 2;
    else if (*p >= 0xE0 && *p <= 0xEF)
        n = 3, lo = *p == 0xE0 ? 0xA0 : lo, hi = *p == 0xED ? 0x9F : hi;
    else if (*p >= 0xF0 && *p <= 0xF4)
        n = 4, lo = *p == 0xF0 ? 0x90 : lo, hi = *p == 0xF4 ? 0x8F : hi;
    else
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++) /* stops at the terminating NUL: it is no continuation byte */
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

void rp_json_string(FILE *out, const char *s)
{
    putc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p >= 0x80) { /* names from a damaged file may be any bytes: keep the JSON valid */
            size_t n = utf8_len(p);
            if (n) {
                fwrite(p, 1, n, out);
                p += n - 1;
            } else {
                fputs("\\ufffd", out);
            }
            continue;
        }
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\t': fputs("\\t", out); break;
        case '\r': fputs("\\r", out); break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                putc(*p, out);
        }
    }
    putc('"', out);
}

const char *rp_u64s(char *buf, uint64_t v)
{
    snprintf(buf, 24, "%llu", (unsigned long long)v);
    return buf;
}

/* Bytes of the control character at p, 0 if none: 1 for C0 and DEL, 2 for U+0080..U+009F in UTF-8. */
static size_t control_at(const unsigned char *p)
{
    if (*p < 0x20 || *p == 0x7F)
        return 1;
    return *p == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F ? 2 : 0;
}

void rp_text_put(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    for (;;) {
        size_t plain = 0, c;
        while (p[plain] && !control_at(p + plain))
            plain++;
        fwrite(p, 1, plain, out);
        p += plain;
        if (!*p)
            return;
        c = control_at(p);
        fprintf(out, c == 1 ? "\\x%02x" : "\\u%04x", c == 1 ? p[0] : p[1]);
        p += c;
    }
}

size_t rp_text_width(const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t c = control_at(p);
        n += c == 0 ? 1 : c == 1 ? 4 : 6; /* \xHH, \u00HH */
        p += c ? c : 1;
    }
    return n;
}

void rp_text_pad(FILE *out, const char *s, int width)
{
    size_t w = (size_t)(width < 0 ? -(long)width : width), len = rp_text_width(s);
    if (width < 0)
        rp_text_put(out, s);
    for (; len < w; len++)
        putc(' ', out);
    if (width >= 0)
        rp_text_put(out, s);
}
