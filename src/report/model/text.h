/* Text output helpers shared by every subcommand: output formats, time units, CSV and JSON escaping, and
 * names made safe for a terminal. */
#ifndef CT_REPORT_MODEL_TEXT_H
#define CT_REPORT_MODEL_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* FOLDED: folded stacks (stacks and memory only; tables print nothing in it); HTML: table elements for the
 * HTML report (export --format html), never parsed from a --format option. */
enum rp_format { RP_FMT_TABLE, RP_FMT_CSV, RP_FMT_JSON, RP_FMT_TSV, RP_FMT_FOLDED, RP_FMT_HTML };

/* "table", "csv", "tsv", "json" (and nsys' "column" for table), "folded"; -1 if unknown. */
int rp_format_parse(const char *s);
/* The default: a table on a terminal, csv into a file or pipe (as nsys does). */
enum rp_format rp_format_default(FILE *out);

struct rp_timeunit {
    const char *name; /* "ns", "us", "ms", "s": also the unit in column titles */
    double ns;        /* nanoseconds in one unit */
    int decimals;     /* decimals that show a whole number of ns in this unit: 0, 3, 6, 9 */
};
/* Accepts ns, us, ms, s and nsys's spellings (nsec, usec, msec, sec, nanoseconds, ..., seconds), in any case;
 * 0, or -1 if unknown. */
int rp_timeunit_parse(const char *s, struct rp_timeunit *u);
extern const struct rp_timeunit rp_timeunit_ns;

/* A time in the unit: to the nanosecond ("%.0f" ns, "%.3f" us, ...); with `fraction`, one more decimal in ns
 * (nsys' one decimal for averages) and the same decimals as exact times in the other units. */
const char *rp_fmt_time(char *buf, size_t size, double ns, const struct rp_timeunit *u, int fraction);

/* v in decimal into buf (at least 24 bytes). */
const char *rp_u64s(char *buf, uint64_t v);

/* Digits grouped by commas ("1,234,567.8") for tables: `num` is a plain decimal number. */
const char *rp_group_digits(char *buf, size_t size, const char *num);

void rp_csv_field(FILE *out, const char *s);  /* quoted only when it must be */
void rp_tsv_field(FILE *out, const char *s);  /* tabs and line breaks become spaces */
/* A field of a delimited format: CSV or TSV. */
static inline void rp_sep_field(FILE *out, const char *s, enum rp_format fmt)
{
    if (fmt == RP_FMT_TSV)
        rp_tsv_field(out, s);
    else
        rp_csv_field(out, s);
}
void rp_json_string(FILE *out, const char *s); /* with the quotes */

/* Table output is read on a terminal, and names come from the trace (thread names, kernel names, NVTX
 * messages, frames): a control character in one would act on the terminal.  rp_text_put writes s with each
 * control character shown as \xHH (C0 and DEL) or \u00HH (a C1 control in UTF-8), every other byte as it is;
 * rp_text_width is the length of what it writes; rp_text_pad writes it padded with blanks to |width|, to
 * the right for a positive width and to the left for a negative one, as printf's "%*s". */
void rp_text_put(FILE *out, const char *s);
size_t rp_text_width(const char *s);
void rp_text_pad(FILE *out, const char *s, int width);

#endif
