/* cudatrace-report: dispatch to the subcommand named first on the command line. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "report/cmd/cli.h"
#include "report/model/trace.h"

static const struct rp_command *const commands[] = {&rp_cmd_summary, &rp_cmd_calls, &rp_cmd_memory,
                                                 &rp_cmd_stacks, &rp_cmd_analyze, &rp_cmd_export, &rp_cmd_info};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fputs("Usage: " RP_PROG " COMMAND [OPTION]... FILE...\n"
          "Report on cudatrace trace files (written by LD_PRELOAD=libcudatrace.so PROGRAM).  A FILE of - is\n"
          "standard input; a pipe or FIFO is copied to a temporary file in $TMPDIR (default /tmp) first.\n\n"
          "Commands:\n",
          out);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-8s %s\n", commands[i]->name, commands[i]->summary);
    fputs("  help     help COMMAND: the options of a command\n\n"
          "  --help     this help          --version  the version\n\n"
          "Exit status: 0 ok, 1 usage, 2 a file is missing, unreadable (a read error), not a trace or of an\n"
          "unsupported format version, 3 a file is truncated or corrupt (what precedes the damage is\n"
          "reported, with a warning), 4 out of memory or output error.  See cudatrace-report(1).\n",
          out);
}

static const struct rp_command *find(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(commands[i]->name, name))
            return commands[i];
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return RP_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
        usage(stdout);
        return RP_EXIT_OK;
    }
    if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
        printf(RP_PROG " (cudatrace) %s\ntrace format version %u (reads versions %u to %u)\n", PACKAGE_VERSION,
               CT_FORMAT_VERSION, CT_FORMAT_VERSION_MIN, CT_FORMAT_VERSION);
        return RP_EXIT_OK;
    }
    if (!strcmp(name, "help")) {
        const struct rp_command *c = argc > 2 ? find(argv[2]) : NULL;
        if (argc > 2 && !c) {
            fprintf(stderr, RP_PROG ": no command '%s'\n", argv[2]);
            return RP_EXIT_USAGE;
        }
        if (c)
            rp_help(c);
        else
            usage(stdout);
        return RP_EXIT_OK;
    }
    const struct rp_command *c = find(name);
    if (!c) {
        fprintf(stderr, RP_PROG ": unknown command '%s'\n\n", name);
        usage(stderr);
        return RP_EXIT_USAGE;
    }
    /* getopt sees the subcommand as the program: argv[0] is what its own messages start with
     * ("cudatrace-report summary: unrecognized option '--bogus'"). */
    char prog[64];
    snprintf(prog, sizeof prog, RP_PROG " %s", c->name);
    argv[1] = prog;
    return c->run(argc - 1, argv + 1);
}
