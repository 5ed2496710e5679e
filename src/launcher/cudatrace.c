/* cudatrace: run a program under the tracer without setting LD_PRELOAD by hand.
 *
 *   cudatrace run [-o TEMPLATE] [--capture MODE] [--stacks MODE] [--python-stacks MODE] [--gpu-time MODE]
 *                 [--apis LIST | --trace-all-apis] [--stats] [--] CMD [ARG]...
 *   cudatrace report COMMAND ...      (cudatrace-report COMMAND ...)
 *
 * A C program rather than a shell script: with --stats it must outlive the program, pass signals on, and then
 * die of the program's signal, which a shell does only approximately; and it validates its options with the
 * library's own parsers (src/recorder/settings.c), so the two never disagree.  Without --stats it simply
 * execs the program, which then is the process: exit status and signals are the program's by construction.
 *
 * Where things are: the library is looked for in the build tree (src/launcher/../preload/.libs), in the
 * configured libdir, then in ../lib beside the executable (a relocated prefix, the GPU bundle); the report
 * beside the executable, in the build tree (../report), then on PATH. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "recorder/output.h"
#include "recorder/settings.h"

#define PROG "cudatrace"
#define EXIT_LAUNCHER 125 /* cudatrace itself failed (usage, no library); 126/127: the command could not run */

static const char usage[] =
    "Usage: " PROG " run [OPTION]... [--] COMMAND [ARG]...\n"
    "       " PROG " report REPORT-COMMAND [ARG]...   (runs cudatrace-report)\n"
    "       " PROG " -V|--version\n"
    "Run COMMAND with libcudatrace.so preloaded: every CUDA driver call it makes, and its NVTX\n"
    "annotations, are recorded, in the files of its children and exec'd programs too.\n"
    "\n"
    "Options of run:\n"
    "  -o, --output=TEMPLATE  trace file name (CUDATRACE_OUTPUT; %p pid, %h host, %q{VAR}\n"
    "                         variable VAR, %% a %); default cudatrace-%p.ctrace\n"
    "  -c, --capture=MODE     all, profiler (cuProfilerStart..Stop ranges) or nvtx:RANGE[@DOMAIN]\n"
    "                         (only while that NVTX range is open) (CUDATRACE_CAPTURE)\n"
    "  -s, --stacks=MODE      call stacks of none, alloc or all calls (CUDATRACE_STACKS)\n"
    "      --python-stacks=MODE  auto: a Python program's stacks carry its Python frames;\n"
    "                         off: native frames only (CUDATRACE_PYTHON_STACKS)\n"
    "  -g, --gpu-time=MODE    GPU time of kernels, copies and sets: auto (CUPTI's activity records,\n"
    "                         exact, else timing events on a sample of calls), all (every call:\n"
    "                         activity, else events), activity (CUPTI only), events (every call),\n"
    "                         sample (events, a sample) or off (CUDATRACE_GPU_TIME)\n"
    "  -a, --apis=LIST        the driver functions timed and recorded, in place of the default\n"
    "                         (all but a set of trivial queries such as cuCtxGetDevice, which are\n"
    "                         counted, not timed): all, or comma-separated names or globs, '-' in\n"
    "                         front to exclude (-cuPointerGetAttribute*); excluded ones are counted,\n"
    "                         not timed (CUDATRACE_APIS)\n"
    "      --trace-all-apis   time and record every driver function, the trivial queries too (as\n"
    "                         nsys --cuda-trace-all-apis): --apis=all\n"
    "      --stats            when COMMAND ends, print the summary of every trace file it and its\n"
    "                         children wrote (cudatrace-report summary)\n"
    "  -h, --help             this help\n"
    "\n"
    "The environment keeps what it had: LD_PRELOAD gets the library in front; an NVTX injection\n"
    "library already named by NVTX_INJECTION64_PATH keeps receiving the annotations (the tracer\n"
    "calls on to it).  Other CUDATRACE_* variables pass through (man cudatrace lists them).\n"
    "\n"
    "Exit status: COMMAND's; when COMMAND dies of a signal, cudatrace dies of the same signal.\n"
    "Without --stats cudatrace becomes COMMAND (exec); with it, it waits for COMMAND and passes\n"
    "on the signals it gets (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2), except those a\n"
    "terminal sent to the whole process group.  125: cudatrace's own error (usage, library not\n"
    "found); 126: COMMAND cannot be executed; 127: COMMAND not found.\n";

static char self_dir[PATH_MAX];

static int exists(const char *p) { return access(p, R_OK) == 0; }

/* buf = dir/name; 0 when it does not fit (then it names nothing to try). */
static int join(char *buf, size_t size, const char *dir, const char *name)
{
    int n = snprintf(buf, size, "%s/%s", dir, name);
    return n >= 0 && (size_t)n < size;
}

static const char *find_library(char *buf, size_t size)
{
    char build[PATH_MAX], installed_lib[PATH_MAX];
    const char *dirs[] = {build, CT_LIBDIR, installed_lib};
    if (!join(build, sizeof build, self_dir, "../preload/.libs") ||
        !join(installed_lib, sizeof installed_lib, self_dir, "../lib"))
        return NULL;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        char real[PATH_MAX];
        if (join(buf, size, dirs[i], "libcudatrace.so") && exists(buf) && realpath(buf, real)) {
            size_t n = strlen(real); /* absolute: children that chdir still find it */
            if (n >= size)
                return NULL;
            memcpy(buf, real, n + 1);
            return buf;
        }
    }
    return NULL;
}

static const char *find_report(char *buf, size_t size)
{
    if (join(buf, size, self_dir, "cudatrace-report") && access(buf, X_OK) == 0)
        return buf;
    if (join(buf, size, self_dir, "../report/cudatrace-report") && access(buf, X_OK) == 0)
        return buf;
    return "cudatrace-report"; /* on PATH */
}

static int set(const char *name, const char *value)
{
    if (setenv(name, value, 1) != 0) {
        fprintf(stderr, PROG ": cannot set %s: %s\n", name, strerror(errno));
        return -1;
    }
    return 0;
}

/* Would every process take `tmpl` as its CUDATRACE_OUTPUT (recorder/output.c), rather than warn and fall back
 * to the default?  A literal after it: %q{VAR} of a variable unset here, perhaps set in the command, may
 * expand to nothing, which is no fault of the template. */
static int valid_template(const char *tmpl)
{
    char with[sizeof ((struct ct_settings *)0)->output + 1], name[4 * PATH_MAX];
    size_t len = strlen(tmpl);
    if (len == 0 || len + 1 >= sizeof with) /* the library's own limit */
        return 0;
    memcpy(with, tmpl, len);
    memcpy(with + len, "x", 2);
    return ct_output_expand(with, name, sizeof name, (long)getpid(), "host") == 0;
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, PROG ": ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry '" PROG " --help'.\n");
    return EXIT_LAUNCHER;
}

/* Is the LD_PRELOAD entry [e, e+n) a sanitizer's runtime (libasan.so.8, /usr/lib/.../libtsan.so.2, ...)? */
static int sanitizer_runtime(const char *e, size_t n)
{
    static const char *const names[] = {"libasan", "libtsan", "libubsan", "liblsan", "libhwasan", "libmsan"};
    const char *base = e;
    for (const char *c = e; c < e + n; c++)
        if (*c == '/')
            base = c + 1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strncmp(base, names[i], strlen(names[i])) == 0)
            return 1;
    return 0;
}

/* ld.so splits LD_PRELOAD at these, with no way to escape them. */
#define PRELOAD_SEPARATORS ": "

/* Is the LD_PRELOAD entry [e, e+n) the library: its very name, or another name of the same file (a link,
 * or libcudatrace.so.0 where that is the file)?  A name that only begins like the library's is another
 * file; a name without a '/' is looked for on the library path, not here: only its very name counts. */
static int is_library(const char *e, size_t n, const char *lib, const struct stat *lib_st)
{
    char path[PATH_MAX];
    struct stat st;
    if (n == strlen(lib) && strncmp(e, lib, n) == 0)
        return 1;
    if (!lib_st || n >= sizeof path || memchr(e, '/', n) == NULL)
        return 0;
    memcpy(path, e, n);
    path[n] = '\0';
    return stat(path, &st) == 0 && st.st_dev == lib_st->st_dev && st.st_ino == lib_st->st_ino;
}

/* The entry [e, e+n) appended to the ':'-separated list that starts at v and ends at out; the new end. */
static char *append_entry(char *out, const char *v, const char *e, size_t n)
{
    if (n && out > v)
        *out++ = ':';
    memcpy(out, e, n);
    out[n] = '\0';
    return out + n;
}

/* The environment the traced program gets.  The library goes first in LD_PRELOAD, after the sanitizer
 * runtimes the user preloads (they must come first of all, or a sanitizer-built program refuses to start);
 * an entry that already names it is moved there (so a link to it may stand for a path LD_PRELOAD cannot
 * hold).  -1 when it cannot be done (message printed). */
static int environment(const char *lib)
{
    const char *pre = getenv("LD_PRELOAD"), *nvtx = getenv("NVTX_INJECTION64_PATH");
    struct stat st;
    const struct stat *lib_st = stat(lib, &st) == 0 ? &st : NULL;
    const char *own = NULL; /* the user's entry for the library */
    size_t own_n = 0;
    if (!pre)
        pre = "";
    for (const char *e = pre; *e && !own; e += strcspn(e, PRELOAD_SEPARATORS), e += *e != '\0') {
        size_t n = strcspn(e, PRELOAD_SEPARATORS);
        if (n && is_library(e, n, lib, lib_st))
            own = e, own_n = n;
    }
    if (!own && lib[strcspn(lib, PRELOAD_SEPARATORS)]) {
        fprintf(stderr, PROG ": the library's path has a %s in it, which LD_PRELOAD cannot hold (it splits at "
                        "spaces and colons): %s\n" PROG ": install cudatrace where the path has none, or name "
                        "the library in LD_PRELOAD through a link that has none\n",
                lib[strcspn(lib, ":")] ? "colon" : "space", lib);
        return -1;
    }
    if (!own)
        own = lib, own_n = strlen(lib);
    char *v = malloc(strlen(pre) + own_n + 2), *out = v;
    if (!v)
        return -1;
    const char *e = pre;
    size_t n;
    for (; *e && ((n = strcspn(e, PRELOAD_SEPARATORS)) == 0 || sanitizer_runtime(e, n)); e += n + (e[n] != '\0'))
        out = append_entry(out, v, e, n);
    out = append_entry(out, v, own, own_n);
    for (; *e; e += n + (e[n] != '\0'))
        if ((n = strcspn(e, PRELOAD_SEPARATORS)) && !is_library(e, n, lib, lib_st))
            out = append_entry(out, v, e, n);
    int rc = set("LD_PRELOAD", v);
    free(v);
    if (rc < 0)
        return -1;
    if (nvtx && *nvtx && !is_library(nvtx, strlen(nvtx), lib, lib_st) && set("CUDATRACE_NVTX_FORWARD", nvtx) < 0)
        return -1;
    return set("NVTX_INJECTION64_PATH", lib);
}

/* ---- --stats: run, wait, summarize ---- */

static volatile sig_atomic_t child_pid;
static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};

/* A signal a terminal sent (si_code SI_KERNEL) reached the child too, through its process group: passing it
 * on would deliver it twice.  One sent to cudatrace alone (kill, SI_USER/SI_QUEUE) is passed on. */
static void pass_on(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    if (child_pid > 0 && (si == NULL || si->si_code != SI_KERNEL))
        kill((pid_t)child_pid, sig);
}

static void exec_command(char **argv)
{
    execvp(argv[0], argv);
    int e = errno;
    fprintf(stderr, PROG ": %s: %s\n", argv[0], strerror(e));
    _exit(e == ENOENT ? 127 : 126);
}

/* Add `name` to the list unless empty or there already: 0, or -1 when out of memory. */
static int add_file(char ***files, size_t *n, char *name)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*files)[i], name) == 0)
            return 0;
    if (!*name)
        return 0;
    char **v = realloc(*files, (*n + 1) * sizeof *v);
    if (!v)
        return -1;
    *files = v;
    v[(*n)++] = name;
    return 0;
}

/* The whole of a small file, NUL-terminated, malloc'ed; NULL when it cannot be read. */
static char *read_whole(const char *path)
{
    FILE *f = fopen(path, "r");
    char *s = NULL;
    size_t len = 0, got;
    char buf[4096];
    while (f && (got = fread(buf, 1, sizeof buf, f)) > 0) {
        char *t = realloc(s, len + got + 1);
        if (!t) {
            free(s);
            fclose(f);
            return NULL;
        }
        s = t;
        memcpy(s + len, buf, got);
        len += got;
    }
    if (f)
        fclose(f);
    if (s)
        s[len] = '\0';
    return s;
}

/* The trace files the library listed in `list` (CUDATRACE_FILE_LIST), each once, pointing into the list's
 * text *text (both malloc'ed).  The library writes one line per file: its absolute name, a backslash in it
 * written as \\ and a newline as \n, decoded here in place. */
static size_t listed_files(const char *list, char **text, char ***files)
{
    size_t n = 0;
    *files = NULL;
    if (!(*text = read_whole(list)))
        return 0;
    for (char *line = *text, *next; *line; line = next) {
        char *end = line + strcspn(line, "\n"), *o = line;
        next = *end ? end + 1 : end;
        *end = '\0';
        for (const char *i = line; *i; i++) {
            if (*i == '\\' && (i[1] == '\\' || i[1] == 'n'))
                i++, *o++ = *i == 'n' ? '\n' : '\\';
            else
                *o++ = *i;
        }
        *o = '\0';
        if (add_file(files, &n, line) < 0)
            break;
    }
    return n;
}

static void print_stats(const char *list, const char *report)
{
    char *text, **files;
    size_t n = listed_files(list, &text, &files);
    if (n == 0) {
        fprintf(stderr, PROG ": --stats: the command wrote no trace file (it made no CUDA call)\n");
        free(files);
        free(text);
        return;
    }
    fflush(stdout);
    fprintf(stderr, PROG ": --stats: %zu trace file%s\n", n, n == 1 ? "" : "s");
    char **argv = calloc(n + 4, sizeof *argv);
    if (argv) {
        argv[0] = (char *)report;
        argv[1] = "summary";
        argv[2] = "--";
        memcpy(argv + 3, files, n * sizeof *files);
        pid_t p = fork();
        if (p == 0) {
            signal(SIGPIPE, SIG_DFL); /* the report's own: it stops when its reader is gone */
            execvp(argv[0], argv);
            fprintf(stderr, PROG ": %s: %s\n", argv[0], strerror(errno));
            _exit(127);
        }
        int st;
        while (p > 0 && waitpid(p, &st, 0) < 0 && errno == EINTR) {
        }
        free(argv);
    }
    free(files);
    free(text);
}

/* Die as the program died: of its signal (no second core dump), else with its exit status. */
static int reproduce(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    int sig = WTERMSIG(status);
    struct rlimit no_core = {0, 0};
    sigset_t s;
    setrlimit(RLIMIT_CORE, &no_core);
    signal(sig, SIG_DFL);
    sigemptyset(&s);
    sigaddset(&s, sig);
    sigprocmask(SIG_UNBLOCK, &s, NULL);
    raise(sig);
    return 128 + sig; /* a signal that does not kill (SIGCHLD, ...) */
}

static int run_with_stats(char **argv, const char *report)
{
    char list[PATH_MAX];
    const char *tmp = getenv("TMPDIR");
    snprintf(list, sizeof list, "%s/cudatrace-files.XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp");
    int fd = mkstemp(list);
    if (fd < 0) {
        fprintf(stderr, PROG ": --stats: cannot create %s: %s\n", list, strerror(errno));
        return EXIT_LAUNCHER;
    }
    close(fd);
    if (set("CUDATRACE_FILE_LIST", list) < 0)
        return EXIT_LAUNCHER;

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = pass_on;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
        sigaction(forwarded[i], &sa, NULL);
    int errpipe[2];
    if (pipe2(errpipe, O_CLOEXEC) < 0) {
        fprintf(stderr, PROG ": pipe: %s\n", strerror(errno));
        return EXIT_LAUNCHER;
    }
    pid_t p = fork();
    if (p < 0) {
        fprintf(stderr, PROG ": fork: %s\n", strerror(errno));
        return EXIT_LAUNCHER;
    }
    if (p == 0) {
        for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++)
            signal(forwarded[i], SIG_DFL);
        close(errpipe[0]);
        execvp(argv[0], argv);
        int e = errno;
        if (write(errpipe[1], &e, sizeof e) < 0) {
        }
        _exit(e == ENOENT ? 127 : 126);
    }
    child_pid = p;
    close(errpipe[1]);
    int e = 0, status = 0;
    ssize_t got;
    while ((got = read(errpipe[0], &e, sizeof e)) < 0 && errno == EINTR) {
    }
    close(errpipe[0]);
    while (waitpid(p, &status, 0) < 0 && errno == EINTR) {
    }
    child_pid = 0;
    /* The command's status is what the launcher answers with: a reader of its output that is gone by now
     * (`cudatrace run --stats ... | head`) must not turn it into death by SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);
    if (got == (ssize_t)sizeof e) {
        fprintf(stderr, PROG ": %s: %s\n", argv[0], strerror(e));
        unlink(list);
        return WEXITSTATUS(status);
    }
    print_stats(list, report);
    unlink(list);
    return reproduce(status);
}

static int cmd_run(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'},   {"capture", required_argument, NULL, 'c'},
        {"stacks", required_argument, NULL, 's'},   {"gpu-time", required_argument, NULL, 'g'},
        {"apis", required_argument, NULL, 'a'},     {"stats", no_argument, NULL, 'S'},
        {"help", no_argument, NULL, 'h'},           {"python-stacks", required_argument, NULL, 'P'},
        {"trace-all-apis", no_argument, NULL, 'T'}, {NULL, 0, NULL, 0}};
    int stats = 0, opt, m, apis_given = 0;
    struct ct_capture_spec cap;
    static struct ct_apis_spec apis;
    char lib[PATH_MAX], report[PATH_MAX];

    /* '+': options end at the command's name, so its own options stay its own.  An option checked (bad: what
     * it takes) goes to the program as its variable (env).  getopt's own messages start with argv[0]. */
    argv[0] = (char *)PROG " run";
    while ((opt = getopt_long(argc, argv, "+o:c:s:g:a:h", opts, NULL)) != -1) {
        const char *env = NULL, *bad = NULL;
        switch (opt) {
        case 'o':
            env = "CUDATRACE_OUTPUT";
            if (!valid_template(optarg))
                bad = "--output wants a file name template (%%p pid, %%h host, %%q{VAR} variable VAR, %%%% a %%), "
                      "not '%s'";
            break;
        case 'c':
            env = "CUDATRACE_CAPTURE";
            if (ct_parse_capture(optarg, &cap) != 0)
                bad = "--capture takes all, profiler or nvtx:RANGE[@DOMAIN], not '%s'";
            break;
        case 's':
            env = "CUDATRACE_STACKS";
            if (ct_parse_stacks(optarg, &m) != 0)
                bad = "--stacks takes none, alloc or all, not '%s'";
            break;
        case 'P':
            env = "CUDATRACE_PYTHON_STACKS";
            if (ct_parse_python_stacks(optarg, &m) != 0)
                bad = "--python-stacks takes auto or off, not '%s'";
            break;
        case 'g':
            env = "CUDATRACE_GPU_TIME";
            if (ct_parse_gpu_time(optarg, &m) != 0)
                bad = "--gpu-time takes auto, all, activity, events, sample or off, not '%s'";
            break;
        case 'T':
            optarg = (char *)"all"; /* --apis=all (nothing writes to optarg) */
            /* fall through */
        case 'a':
            env = "CUDATRACE_APIS";
            if (apis_given++)
                bad = "--apis or --trace-all-apis given twice (the second: '%s'): give one";
            else if (!*optarg || ct_parse_apis(optarg, &apis) != 0)
                bad = "--apis takes all, or comma-separated function names or globs, each with an optional "
                      "leading '-' (e.g. -cuCtxGetDevice), not '%s'";
            break;
        case 'S': stats = 1; break;
        case 'h': fputs(usage, stdout); return 0;
        default: fprintf(stderr, "Try '" PROG " --help'.\n"); return EXIT_LAUNCHER;
        }
        if (bad)
            return usage_error(bad, optarg);
        if (env && set(env, optarg) < 0)
            return EXIT_LAUNCHER;
    }
    if (optind >= argc)
        return usage_error("%s", "run: no command given");
    if (!find_library(lib, sizeof lib)) {
        fprintf(stderr, PROG ": cannot find libcudatrace.so (looked in %s/../preload/.libs, " CT_LIBDIR
                        " and %s/../lib)\n", self_dir, self_dir);
        return EXIT_LAUNCHER;
    }
    if (environment(lib) < 0)
        return EXIT_LAUNCHER;
    find_report(report, sizeof report);
    if (!stats)
        exec_command(argv + optind);
    return run_with_stats(argv + optind, report);
}

int main(int argc, char **argv)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        snprintf(self_dir, sizeof self_dir, "%s", exe);
    }
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_LAUNCHER : 0;
    }
    if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
        printf(PROG " %s\n", PACKAGE_VERSION);
        return 0;
    }
    if (!strcmp(argv[1], "run"))
        return cmd_run(argc - 1, argv + 1);
    if (!strcmp(argv[1], "report")) {
        char report[PATH_MAX];
        argv[1] = (char *)find_report(report, sizeof report);
        execvp(argv[1], argv + 1);
        fprintf(stderr, PROG ": %s: %s\n", argv[1], strerror(errno));
        return 127;
    }
    return usage_error("unknown command '%s' (run or report)", argv[1]);
}
