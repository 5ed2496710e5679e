/* Times `cudatrace-report summary`, `calls`, `analyze` and the Perfetto, SQLite and HTML exports on a
 * generated trace: wall seconds and the peak resident memory of the report process (getrusage of the
 * child), and each export's size per call, so the speed and memory claims of the man page and
 * doc/performance.md are measured.
 *
 *   report_bench REPORT GEN [N]   N calls (default 10,000,000), written by GEN (tests/integration/report-gen)
 *                                 into a temporary file, read by REPORT, then removed with the exports.
 * Prints numbers only; no pass/fail on time. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Run argv with stdout to /dev/null; returns its exit status, *secs and *maxrss_kb of that child. */
static int run(char *const argv[], double *secs, long *maxrss_kb)
{
    double t0 = now();
    fflush(stdout); /* else the child's freopen writes what is buffered a second time */
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(127);
        execv(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0)
        return -1;
    *secs = now() - t0;
    *maxrss_kb = ru.ru_maxrss;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: report_bench REPORT GEN [N]\n");
        return 2;
    }
    const char *n = argc > 3 ? argv[3] : "10000000";
    char dir[] = "/tmp/report-bench.XXXXXX", path[64];
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(path, sizeof path, "%s/big.ct", dir);
    double secs;
    long rss;
    char *gen[] = {argv[2], "big", (char *)n, path, NULL};
    int rc = run(gen, &secs, &rss);
    struct stat st;
    if (rc != 0 || stat(path, &st) != 0) {
        fprintf(stderr, "report_bench: generating the trace failed (%d)\n", rc);
        return 1;
    }
    printf("trace: %s calls, %.1f MB, generated in %.2f s\n", n, (double)st.st_size / 1e6, secs);
    char out[64];
    snprintf(out, sizeof out, "%s/export", dir);
    /* command, its option, its format (an export writes `out`, whose size is reported) */
    const char *modes[][3] = {{"summary", NULL, "csv"},          {"summary", "--section=api", "csv"},
                              {"calls", "--api=cuMemFree", "csv"}, {"export", NULL, "perfetto"},
                              {"export", NULL, "sqlite"},            {"export", NULL, "html"},
                              {"analyze", NULL, "csv"}};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        const int export = !strcmp(modes[i][0], "export");
        char fmt[32];
        snprintf(fmt, sizeof fmt, "--format=%s", modes[i][2]);
        char *cmd[8] = {argv[1], (char *)modes[i][0], fmt}, **a = cmd + 3;
        if (modes[i][1])
            *a++ = (char *)modes[i][1];
        if (export)
            *a++ = "-o", *a++ = out;
        *a = path;
        rc = run(cmd, &secs, &rss);
        printf("cudatrace-report %s %s: %.2f s, peak RSS %.1f MB, exit %d", modes[i][0],
               export ? fmt : modes[i][1] ? modes[i][1] : "", secs, (double)rss / 1024.0, rc);
        if (export && stat(out, &st) == 0 && st.st_size < 1000000) /* the HTML page: bounded, not per call */
            printf(", %.1f kB", (double)st.st_size / 1e3);
        else if (export && stat(out, &st) == 0)
            printf(", %.1f MB, %.1f bytes per call", (double)st.st_size / 1e6, (double)st.st_size / strtod(n, NULL));
        putchar('\n');
        fflush(stdout);
        unlink(out);
    }
    unlink(path);
    rmdir(dir);
    return 0;
}
