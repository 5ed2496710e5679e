#include "config.h"

#include "report/cmd/cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/model/parallel.h"
#include "report/model/trace.h"

/* The --output given, for rp_output_clash. */
static const char *output_given;

int rp_output_clash(const struct rp_command *cmd, int n, char *const *paths)
{
    struct stat out, in;
    if (!output_given || stat(output_given, &out) != 0 || !S_ISREG(out.st_mode))
        return 0;
    for (int i = 0; i < n; i++)
        if (strcmp(paths[i], "-") != 0 && stat(paths[i], &in) == 0 && in.st_dev == out.st_dev &&
            in.st_ino == out.st_ino)
            return rp_usage_error(cmd, "--output %s is the input %s: writing it would destroy that input",
                                  output_given, paths[i]);
    return 0;
}

void rp_common_init(struct rp_common *o)
{
    o->format = -1;
    o->unit = rp_timeunit_ns;
    o->output = NULL;
}

int rp_common_option(struct rp_common *o, const struct rp_command *cmd, int opt, const char *arg,
                     const char *formats)
{
    switch (opt) {
    case 'f': {
        int f = rp_format_parse(arg);
        if (f < 0 || !strstr(formats, arg))
            return rp_usage_error(cmd, "unknown --format '%s' (one of %s)", arg, formats), -1;
        o->format = f;
        return 1;
    }
    case 'u':
        if (rp_timeunit_parse(arg, &o->unit) < 0)
            return rp_usage_error(cmd, "unknown --timeunit '%s' (ns, us, ms, s, or nsec, usec, msec, sec, seconds ...)",
                                  arg), -1;
        return 1;
    case 'o':
        o->output = output_given = arg;
        return 1;
    case 'j': {
        char *end;
        errno = 0;
        const unsigned long long n = isdigit((unsigned char)*arg) ? strtoull(arg, &end, 10) : 0;
        if (!isdigit((unsigned char)*arg) || errno || *end || n < 1 || n > 1024)
            return rp_usage_error(cmd, "--jobs wants a number of threads from 1 to 1024, not '%s'", arg), -1;
        rp_jobs_set((unsigned)n);
        return 1;
    }
    default:
        return 0;
    }
}

void rp_help(const struct rp_command *cmd)
{
    fputs(cmd->help, stdout);
}

int rp_usage_error(const struct rp_command *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, RP_PROG " %s: ", cmd->name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry '" RP_PROG " %s --help'.\n", cmd->name);
    return RP_EXIT_USAGE;
}

int rp_usage_hint(const struct rp_command *cmd)
{
    fprintf(stderr, "Try '" RP_PROG " %s --help'.\n", cmd->name);
    return RP_EXIT_USAGE;
}

int rp_open_files(struct rp_trace *t, const struct rp_command *cmd, int argc, char **argv, int first, int single)
{
    if (first >= argc)
        return rp_usage_error(cmd, "no trace file given");
    if (single && argc - first > 1)
        return rp_usage_error(cmd, "one trace file at a time");
    int rc = rp_output_clash(cmd, argc - first, argv + first);
    if (rc != 0)
        return rc;
    rc = rp_trace_open(t, argv + first, (size_t)(argc - first));
    if ((rc == RP_EXIT_OK || rc == RP_EXIT_DAMAGED) && cmd != &rp_cmd_info) /* info says so in its table */
        rp_warn_incomplete(t);
    return rc;
}

FILE *rp_output_open(const struct rp_common *o)
{
    if (!o->output || !strcmp(o->output, "-"))
        return stdout;
    FILE *f = fopen(o->output, "w");
    if (!f)
        fprintf(stderr, RP_PROG ": %s: %s\n", o->output, strerror(errno));
    return f;
}

int rp_output_close(FILE *out, const struct rp_common *o, int rc)
{
    int bad = fflush(out) != 0 || ferror(out);
    const char *name = out == stdout ? "standard output" : o->output;
    if (out != stdout && fclose(out) != 0)
        bad = 1;
    if (bad) {
        fprintf(stderr, RP_PROG ": error writing %s\n", name);
        return RP_EXIT_FAILED;
    }
    return rc;
}

int rp_parse_u64(const struct rp_command *cmd, const char *opt, const char *arg, unsigned long long *v)
{
    char *end;
    errno = 0;
    *v = strtoull(arg, &end, 10);
    if (errno || !isdigit((unsigned char)*arg) || *end) /* strtoull takes " -1" as a huge number */
        return rp_usage_error(cmd, "%s wants a non-negative number, not '%s'", opt, arg), -1;
    return 0;
}

int rp_parse_group_by(const struct rp_command *cmd, const char *arg, int *by_python)
{
    if (strcmp(arg, "stack") != 0 && strcmp(arg, "python") != 0)
        return rp_usage_error(cmd, "--group-by takes stack or python, not %s", arg), -1;
    *by_python = strcmp(arg, "python") == 0;
    return 0;
}

int rp_parse_time(const struct rp_command *cmd, const char *opt, const char *arg, int64_t *ns)
{
    char *end;
    struct rp_timeunit u = rp_timeunit_ns;
    errno = 0;
    double v = strtod(arg, &end);
    /* Written so that NaN fails too: it compares false with everything. */
    if (errno || end == arg || (*end && rp_timeunit_parse(end, &u) < 0) || !(v >= 0 && v * u.ns <= 9e18))
        return rp_usage_error(cmd, "%s wants a time such as 1500, 2.5us, 10ms or 1s, not '%s'", opt, arg), -1;
    *ns = (int64_t)(v * u.ns + 0.5);
    return 0;
}
