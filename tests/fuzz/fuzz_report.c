/* libFuzzer target: the bytes are one trace file, and every cudatrace-report command reads it (the format's
 * reader, decoder, runs and merge, then each command's aggregation and output), as the program would, with
 * the output going to /dev/null; summary and analyze also read the bytes as the payload of their partials.
 * Built with clang -fsanitize=fuzzer by scripts/fuzz; the same file, linked with replay.c instead of
 * libFuzzer, replays the committed corpus in `make check`. */
#include "config.h"

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cudatrace/format.h"
#include "report/cmd/cli.h"
#include "report/model/bytes.h"
#include "report/model/trace.h"
#include "report/analyze/partfile.h"
#include "report/summary/partial.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a file the report can open twice (pass 1 and the merge), without touching the disk; and as
 * a second file whose header names another pid (the report takes the same process's trace once): the
 * two-file runs merge two processes. */
static int fd = -1, fd2 = -1;
static char path[64], path2[64];
/* The SQLite export and summary's partial need real files: in a directory of their own, replaced by each run. */
static char dbdir[] = "/tmp/ct-fuzz.XXXXXX", db[64], part[64], wrapped[64], apart[64], awrapped[64];

static void remove_db(void)
{
    unlink(db);
    unlink(part);
    unlink(wrapped);
    unlink(apart);
    unlink(awrapped);
    rmdir(dbdir);
}

/* The input as the payload of a partial (summary's or analyze's magic and version) whose header holds
 * (doc/partials.md): the checksums would turn away nearly every mutation before the decoder saw it. */
static void write_wrapped(const char *to, const char *magic, uint32_t version, const uint8_t *data, size_t size)
{
    struct rp_bytes b = {0};
    rp_put_raw(&b, magic, RP_PARTIAL_MAGIC_LEN);
    rp_put_u32le(&b, version);
    rp_put_u32le(&b, 0);
    rp_put_u64le(&b, size);
    rp_put_u32le(&b, rp_crc32(0, data, size));
    rp_put_u32le(&b, rp_crc32(0, b.p, b.n));
    rp_put_raw(&b, data, size);
    FILE *f = fopen(to, "wb");
    if (!f || b.oom || fwrite(b.p, 1, b.n, f) != b.n || fclose(f) != 0)
        abort();
    rp_bytes_free(&b);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fd = memfd_create("ct-fuzz", 0);
    fd2 = memfd_create("ct-fuzz-2", 0);
    if (fd < 0 || fd2 < 0) {
        perror("memfd_create");
        abort();
    }
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    snprintf(path2, sizeof path2, "/proc/self/fd/%d", fd2);
    if (!mkdtemp(dbdir)) {
        perror("mkdtemp");
        abort();
    }
    snprintf(db, sizeof db, "%s/t.sqlite", dbdir);
    snprintf(part, sizeof part, "%s/t.ctpart", dbdir);
    snprintf(wrapped, sizeof wrapped, "%s/w.ctpart", dbdir);
    snprintf(apart, sizeof apart, "%s/a.ctpart", dbdir);
    snprintf(awrapped, sizeof awrapped, "%s/aw.ctpart", dbdir);
    atexit(remove_db);
    return 0;
}

/* Each command with each output format that has code of its own; the two-file run merges two processes.
 * Output goes to /dev/null, unless the run names its own. */
#define F path
#define F2 path2
static char *const runs[][11] = {
    /* -j 1 first, and so for every run (the setting stays): a thread costs more under the sanitizers than a
     * run; files aggregated apart and merged (what -j 2 does on threads) are fuzzed through the partials
     * read back, and the threads by report-jobs.sh under TSan. */
    {"summary", "-j", "1", "-f", "json", F, NULL},
    {"summary", "-f", "table", "-u", "us", F, F2, NULL},            /* the time-ordered merge */
    {"summary", "--partial", "-o", part, F, F2, NULL},              /* each file apart, written, */
    {"summary", "-f", "json", "--by", "rank", part, F, NULL},       /* read back, merged with a trace */
    {"summary", "-f", "csv", part, NULL},
    {"summary", "-f", "csv", wrapped, NULL},                        /* the input as a partial's payload */
    {"summary", "-f", "csv", "-t", "1", F, NULL},
    {"calls", "-f", "json", F, F2, NULL},
    {"calls", "-f", "table", "--errors", "--from=1us", "--to=1s", F, NULL},
    {"calls", "-f", "csv", "--api=cu*Alloc*", F, NULL},
    {"memory", "-f", "json", F, NULL},
    {"memory", "-f", "table", F, NULL},
    {"memory", "-f", "csv", F, NULL},
    {"stacks", "-f", "json", F, NULL},
    {"stacks", "-f", "table", "-t", "0", F, NULL},
    {"stacks", "-f", "folded", F, NULL},
    {"memory", "-f", "folded", "-w", "leaked", F, NULL},
    {"analyze", "-f", "json", "--idle-gap=0", "--min-repeats=1", "--min-launches=1", F, F2, NULL},
    {"analyze", "-f", "table", "-t", "0", "--warmup=0", F, NULL},
    {"analyze", "-f", "csv", "-g", "python", F, NULL},
    {"analyze", "--partial", "-o", apart, F, F2, NULL},             /* analyze's partial, written, */
    {"analyze", "-f", "json", "--min-repeats=1", apart, F, NULL},  /* read back, merged with a trace */
    {"analyze", "-f", "table", awrapped, NULL},                     /* the input as its partial's payload */
    {"export", "-f", "chrome", F, F2, NULL},
    {"export", "-f", "csv", F, NULL},
    {"export", "-f", "json", F, NULL},
    {"export", "-f", "perfetto", F, F2, NULL},
    {"export", "-f", "html", F, F2, NULL},
#ifdef HAVE_SQLITE
    {"export", "-f", "sqlite", "-o", db, F, NULL},
#endif
    {"info", "-f", "json", F, NULL},
    {"info", "-f", "table", F, NULL},
};
#undef F
#undef F2

static const struct rp_command *command(const char *name)
{
    static const struct rp_command *const all[] = {&rp_cmd_summary, &rp_cmd_calls, &rp_cmd_memory,
                                                   &rp_cmd_stacks, &rp_cmd_analyze, &rp_cmd_export, &rp_cmd_info};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (!strcmp(all[i]->name, name))
            return all[i];
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fd < 0)
        LLVMFuzzerInitialize(NULL, NULL);
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size || ftruncate(fd2, 0) != 0 ||
        pwrite(fd2, data, size, 0) != (ssize_t)size)
        abort();
    const size_t pid_at = offsetof(struct ct_file_header, pid);
    uint32_t pid;
    if (size >= pid_at + sizeof pid) {
        memcpy(&pid, data + pid_at, sizeof pid);
        pid ^= 1;
        if (pwrite(fd2, &pid, sizeof pid, (off_t)pid_at) != (ssize_t)sizeof pid)
            abort();
    }
    write_wrapped(wrapped, RP_PARTIAL_MAGIC, RP_PARTIAL_VERSION, data, size);
    write_wrapped(awrapped, RP_AN_PARTIAL_MAGIC, RP_AN_PARTIAL_VERSION, data, size);
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char *argv[14] = {NULL};
        int argc = 0;
        char prog[64];
        snprintf(prog, sizeof prog, "%s", runs[i][0]);
        argv[argc++] = prog;
        int own_output = 0;
        for (int j = 1; runs[i][j]; j++) {
            argv[argc++] = runs[i][j];
            own_output |= !strcmp(runs[i][j], "-o");
        }
        if (!own_output) {
            argv[argc++] = "-o";
            argv[argc++] = "/dev/null";
        }
        optind = 0; /* glibc: start getopt afresh */
        int rc = command(runs[i][0])->run(argc, argv);
        if (rc == 1) /* a usage error: the table above is wrong, not the input */
            abort();
    }
    return 0;
}
