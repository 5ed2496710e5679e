/* What every subcommand shares: its entry point and help text, the common options (--format, --timeunit,
 * --output, --help), the output file, and usage errors. */
#ifndef CT_REPORT_CMD_CLI_H
#define CT_REPORT_CMD_CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "report/model/text.h"

#define RP_PROG "cudatrace-report"

struct rp_command {
    const char *name;
    const char *summary; /* one line for the command list */
    const char *help;    /* the full --help text */
    int (*run)(int argc, char **argv);
};
extern const struct rp_command rp_cmd_summary, rp_cmd_calls, rp_cmd_export, rp_cmd_info, rp_cmd_memory, rp_cmd_stacks,
    rp_cmd_analyze;

struct rp_common {
    int format; /* enum rp_format, or -1 for the default of the output (table on a terminal, else csv) */
    struct rp_timeunit unit;
    const char *output; /* NULL: stdout */
};

/* The long options every subcommand takes: format, timeunit, output, jobs, help. */
#define RP_COMMON_LONGOPTS                                                                                     \
    {"format", required_argument, NULL, 'f'}, {"timeunit", required_argument, NULL, 'u'},                     \
        {"output", required_argument, NULL, 'o'}, {"jobs", required_argument, NULL, 'j'},                      \
        {"help", no_argument, NULL, 'h'}
#define RP_COMMON_SHORTOPTS "f:u:o:j:h"
/* The help of -j in the commands but summary (which says more). */
#define RP_JOBS_HELP                                                                                           \
    "  -j, --jobs=N         check and index up to N files at once, on N threads (default: the\n"              \
    "                       CPUs this process may run on); calls are then read in time order on\n"            \
    "                       one thread.  The output is the same for every N\n"

void rp_common_init(struct rp_common *o);
/* Handle one getopt result that may be a common option (`formats` lists the accepted --format values, e.g.
 * "table,csv,json").  Returns 1 if handled, 0 if not a common option, -1 after a usage message. */
int rp_common_option(struct rp_common *o, const struct rp_command *cmd, int opt, const char *arg,
                     const char *formats);
/* Print the command's help on stdout. */
void rp_help(const struct rp_command *cmd);
/* "cudatrace-report CMD: MESSAGE" and a hint at --help on stderr; returns RP_EXIT_USAGE. */
int rp_usage_error(const struct rp_command *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* After getopt's own message about a bad option: only the pointer to --help.  Returns RP_EXIT_USAGE. */
int rp_usage_hint(const struct rp_command *cmd);

/* The trace files argv[first..argc) after the options (exactly one when `single`), read with rp_trace_open; a
 * usage error when there is none, or more than one for a single-file command.  Returns RP_EXIT_OK or
 * RP_EXIT_DAMAGED with *t open, else the exit status to leave with (nothing open). */
struct rp_trace;
int rp_open_files(struct rp_trace *t, const struct rp_command *cmd, int argc, char **argv, int first, int single);

/* A usage error (printed, RP_EXIT_USAGE) when the --output given names a regular file that is one of
 * paths[0..n), else 0: writing the output would destroy that input.  rp_open_files checks its files. */
int rp_output_clash(const struct rp_command *cmd, int n, char *const *paths);
/* stdout, or the --output file (message printed and NULL when it cannot be created). */
FILE *rp_output_open(const struct rp_common *o);
/* Flush and close (unless stdout); RP_EXIT_FAILED with a message if writing failed, else `rc`. */
int rp_output_close(FILE *out, const struct rp_common *o, int rc);

/* A "--name=N" number: 0 or -1 after a usage message. */
int rp_parse_u64(const struct rp_command *cmd, const char *opt, const char *arg, unsigned long long *v);
/* --group-by=stack|python: *by_python 0 or 1; 0, or -1 after a usage message. */
int rp_parse_group_by(const struct rp_command *cmd, const char *arg, int *by_python);

/* A time since the trace start: a number with an optional unit suffix (ns, us, ms, s; default ns), e.g.
 * "1.5ms".  0, or -1 after a usage message. */
int rp_parse_time(const struct rp_command *cmd, const char *opt, const char *arg, int64_t *ns);

#endif
