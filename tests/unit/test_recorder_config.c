/* The recorder's configuration: CUDATRACE_* parsing with bad values falling back to the defaults, output
 * name templates, and the exclusive creation of trace files. */
#include "config.h"

#include <CUnit/Basic.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recorder/output.h"
#include "recorder/warn.h"
#include "cudatrace/format.h"
#include "recorder/settings.h"

static char dir[] = "/tmp/ct-test-config-XXXXXX";

static void test_parse_size(void)
{
    size_t v = 0;
    CU_ASSERT_EQUAL(ct_parse_size("65536", &v), 0);
    CU_ASSERT_EQUAL(v, 65536);
    CU_ASSERT_EQUAL(ct_parse_size("4M", &v), 0);
    CU_ASSERT_EQUAL(v, 4u << 20);
    CU_ASSERT_EQUAL(ct_parse_size("512k", &v), 0);
    CU_ASSERT_EQUAL(v, 512u << 10);
    CU_ASSERT_EQUAL(ct_parse_size("1G", &v), 0);
    CU_ASSERT_EQUAL(v, 1u << 30);
    CU_ASSERT_EQUAL(ct_parse_size("8MiB", &v), 0);
    CU_ASSERT_EQUAL(v, 8u << 20);
    CU_ASSERT_EQUAL(ct_parse_size("16MB", &v), 0);
    CU_ASSERT_EQUAL(v, 16u << 20);
    v = 7;
    CU_ASSERT_EQUAL(ct_parse_size("", &v), -1);
    CU_ASSERT_EQUAL(ct_parse_size("-4M", &v), -1);
    CU_ASSERT_EQUAL(ct_parse_size("4X", &v), -1);
    CU_ASSERT_EQUAL(ct_parse_size("M", &v), -1);
    CU_ASSERT_EQUAL(ct_parse_size("4 M", &v), -1);
    CU_ASSERT_EQUAL(ct_parse_size("99999999999999999999", &v), -1);
    CU_ASSERT_EQUAL(ct_parse_size("17179869184G", &v), -1);
    CU_ASSERT_EQUAL(ct_parse_size(NULL, &v), -1);
    CU_ASSERT_EQUAL(v, 7);
}

static void test_parse_others(void)
{
    unsigned u = 0;
    int b = 5;
    CU_ASSERT_EQUAL(ct_parse_uint("10", &u), 0);
    CU_ASSERT_EQUAL(u, 10);
    CU_ASSERT_EQUAL(ct_parse_uint("10ms", &u), -1);
    CU_ASSERT_EQUAL(ct_parse_uint("-1", &u), -1);
    CU_ASSERT_EQUAL(ct_parse_uint("4294967296", &u), -1);
    CU_ASSERT_EQUAL(ct_parse_bool("1", &b), 0);
    CU_ASSERT_EQUAL(b, 1);
    CU_ASSERT_EQUAL(ct_parse_bool("no", &b), 0);
    CU_ASSERT_EQUAL(b, 0);
    CU_ASSERT_EQUAL(ct_parse_bool("TRUE", &b), 0);
    CU_ASSERT_EQUAL(b, 1);
    CU_ASSERT_EQUAL(ct_parse_bool("2", &b), -1);
    CU_ASSERT_EQUAL(ct_parse_mode("0640", &u), 0);
    CU_ASSERT_EQUAL(u, 0640);
    CU_ASSERT_EQUAL(ct_parse_mode("644", &u), 0);
    CU_ASSERT_EQUAL(u, 0644);
    CU_ASSERT_EQUAL(ct_parse_mode("0999", &u), -1);
    CU_ASSERT_EQUAL(ct_parse_mode("01777", &u), -1);
    struct ct_capture_spec c = {.mode = -1};
    CU_ASSERT_EQUAL(ct_parse_capture("Profiler", &c), 0);
    CU_ASSERT_EQUAL(c.mode, CT_CAPTURE_PROFILER);
    CU_ASSERT_EQUAL(ct_parse_capture("all", &c), 0);
    CU_ASSERT_EQUAL(c.mode, CT_CAPTURE_ALL);
    CU_ASSERT_EQUAL(ct_parse_capture("cudaprofilerapi", &c), 0);
    CU_ASSERT_EQUAL(c.mode, CT_CAPTURE_PROFILER);
    CU_ASSERT_EQUAL(ct_parse_capture("range", &c), -1);
    CU_ASSERT_EQUAL(ct_parse_capture("", &c), -1);
    CU_ASSERT_EQUAL(c.mode, CT_CAPTURE_PROFILER); /* untouched */
    CU_ASSERT_EQUAL(ct_parse_capture("nvtx:forward", &c), 0);
    CU_ASSERT_EQUAL(c.mode, CT_CAPTURE_NVTX);
    CU_ASSERT_STRING_EQUAL(c.range, "forward");
    CU_ASSERT_STRING_EQUAL(c.domain, "");
    CU_ASSERT_EQUAL(ct_parse_capture("nvtx:step @ 3@my lib", &c), 0); /* the last '@' splits, as nsys */
    CU_ASSERT_STRING_EQUAL(c.range, "step @ 3");
    CU_ASSERT_STRING_EQUAL(c.domain, "my lib");
    CU_ASSERT_EQUAL(ct_parse_capture("nvtx:", &c), -1);
    CU_ASSERT_EQUAL(ct_parse_capture("nvtx:x@", &c), -1);
    CU_ASSERT_EQUAL(ct_parse_capture("nvtx:@dom", &c), -1);
    b = -1;
    CU_ASSERT_EQUAL(ct_parse_gpu_time("ALL", &b), 0);
    CU_ASSERT_EQUAL(b, CT_GPU_REQ_ALL);
    CU_ASSERT_EQUAL(ct_parse_gpu_time("auto", &b), 0);
    CU_ASSERT_EQUAL(b, CT_GPU_REQ_AUTO);
    CU_ASSERT_EQUAL(ct_parse_gpu_time("Activity", &b), 0);
    CU_ASSERT_EQUAL(b, CT_GPU_REQ_ACTIVITY);
    CU_ASSERT_EQUAL(ct_parse_gpu_time("events", &b), 0);
    CU_ASSERT_EQUAL(b, CT_GPU_REQ_EVENTS);
    CU_ASSERT_EQUAL(ct_parse_gpu_time("sample", &b), 0);
    CU_ASSERT_EQUAL(b, CT_GPU_REQ_SAMPLE);
    CU_ASSERT_EQUAL(ct_parse_gpu_time("off", &b), 0);
    CU_ASSERT_EQUAL(b, CT_GPU_REQ_OFF);
    CU_ASSERT_EQUAL(ct_parse_gpu_time("1", &b), -1);
    CU_ASSERT_EQUAL(ct_parse_gpu_time("cupti", &b), -1);
    CU_ASSERT_EQUAL(ct_parse_gpu_time(NULL, &b), -1);
    CU_ASSERT_EQUAL(b, CT_GPU_REQ_OFF); /* untouched */
}

/* Run ct_settings_load with stderr captured; returns the number of warning lines. */
static int load(struct ct_settings *s)
{
    char log[64], buf[4096];
    int saved = dup(STDERR_FILENO), fd, lines = 0;
    ssize_t n;

    snprintf(log, sizeof log, "%s/stderr", dir);
    fd = open(log, O_RDWR | O_CREAT | O_TRUNC, 0600);
    dup2(fd, STDERR_FILENO);
    ct_warn_take_stderr(); /* messages go only to the stderr the program started with */
    ct_settings_load(s);
    dup2(saved, STDERR_FILENO);
    ct_warn_take_stderr();
    close(saved);
    lseek(fd, 0, SEEK_SET);
    n = read(fd, buf, sizeof buf - 1);
    close(fd);
    unlink(log);
    for (ssize_t i = 0; i < n; i++)
        if (buf[i] == '\n')
            lines++;
    if (n > 0)
        CU_ASSERT_EQUAL(strncmp(buf, "cudatrace: CUDATRACE_", 21), 0);
    return lines;
}

static void unset_all(void)
{
    unsetenv("CUDATRACE_OUTPUT");
    unsetenv("CUDATRACE_BUFFER_SIZE");
    unsetenv("CUDATRACE_FLUSH_MS");
    unsetenv("CUDATRACE_QUIET");
    unsetenv("CUDATRACE_FILE_MODE");
    unsetenv("CUDATRACE_CAPTURE");
    unsetenv("CUDATRACE_GPU_TIME");
    unsetenv("CUDATRACE_GPU_SAMPLE");
    unsetenv("CUDATRACE_CUPTI");
    unsetenv("CUDATRACE_FILE_LIST");
}

static void test_settings_defaults(void)
{
    struct ct_settings s;
    unset_all();
    CU_ASSERT_EQUAL(load(&s), 0);
    CU_ASSERT_STRING_EQUAL(s.output, "cudatrace-%p.ctrace");
    CU_ASSERT_EQUAL(s.buffer_size, 8u << 20);
    CU_ASSERT_EQUAL(s.flush_ms, 100);
    CU_ASSERT_EQUAL(s.quiet, 0);
    CU_ASSERT_EQUAL(s.file_mode, 0600);
    CU_ASSERT_EQUAL(s.gpu_time, CT_GPU_REQ_AUTO);
    CU_ASSERT_EQUAL(s.gpu_sample, 32);
    CU_ASSERT_STRING_EQUAL(s.cupti, "");
}

static void test_settings_values(void)
{
    struct ct_settings s;
    unset_all();
    setenv("CUDATRACE_OUTPUT", "/tmp/x-%h-%p.ctrace", 1);
    setenv("CUDATRACE_BUFFER_SIZE", "100K", 1); /* rounded up to a power of two */
    setenv("CUDATRACE_FLUSH_MS", "250", 1);
    setenv("CUDATRACE_QUIET", "1", 1);
    setenv("CUDATRACE_FILE_MODE", "0640", 1);
    setenv("CUDATRACE_GPU_TIME", "all", 1);
    setenv("CUDATRACE_GPU_SAMPLE", "1", 1);
    setenv("CUDATRACE_CUPTI", "/opt/cupti/libcupti.so.13", 1);
    CU_ASSERT_EQUAL(load(&s), 0);
    CU_ASSERT_EQUAL(s.gpu_time, CT_GPU_REQ_ALL);
    CU_ASSERT_EQUAL(s.gpu_sample, 1);
    CU_ASSERT_STRING_EQUAL(s.cupti, "/opt/cupti/libcupti.so.13");
    CU_ASSERT_STRING_EQUAL(s.output, "/tmp/x-%h-%p.ctrace");
    CU_ASSERT_EQUAL(s.buffer_size, 128u << 10);
    CU_ASSERT_EQUAL(s.flush_ms, 250);
    CU_ASSERT_EQUAL(s.quiet, 1);
    CU_ASSERT_EQUAL(s.file_mode, 0640);
    unset_all();
}

static void test_settings_bad_values(void)
{
    struct ct_capture_spec c;
    struct ct_settings s;
    unset_all();
    setenv("CUDATRACE_OUTPUT", "", 1);
    setenv("CUDATRACE_BUFFER_SIZE", "1K", 1); /* below the minimum */
    setenv("CUDATRACE_FLUSH_MS", "0", 1);
    setenv("CUDATRACE_QUIET", "maybe", 1);
    setenv("CUDATRACE_FILE_MODE", "rw", 1);
    setenv("CUDATRACE_CAPTURE", "sometimes", 1);
    setenv("CUDATRACE_GPU_TIME", "always", 1);
    setenv("CUDATRACE_GPU_SAMPLE", "0", 1);
    setenv("CUDATRACE_CUPTI", "libcupti.so.13", 1); /* not absolute */
    CU_ASSERT_EQUAL(load(&s), 9); /* one line per bad variable */
    CU_ASSERT_EQUAL(s.gpu_time, CT_GPU_REQ_AUTO);
    CU_ASSERT_EQUAL(s.gpu_sample, 32);
    CU_ASSERT_STRING_EQUAL(s.cupti, "");
    ct_settings_capture(&c);
    CU_ASSERT_EQUAL(c.mode, CT_CAPTURE_ALL); /* silent: the warning is load's */
    CU_ASSERT_STRING_EQUAL(s.output, "cudatrace-%p.ctrace");
    CU_ASSERT_EQUAL(s.buffer_size, 8u << 20);
    CU_ASSERT_EQUAL(s.flush_ms, 100);
    CU_ASSERT_EQUAL(s.quiet, 0);
    CU_ASSERT_EQUAL(s.file_mode, 0600);
    setenv("CUDATRACE_BUFFER_SIZE", "2G", 1); /* above the maximum */
    setenv("CUDATRACE_FLUSH_MS", "10001", 1);
    unsetenv("CUDATRACE_OUTPUT");
    unsetenv("CUDATRACE_QUIET");
    unsetenv("CUDATRACE_FILE_MODE");
    unsetenv("CUDATRACE_GPU_TIME");
    unsetenv("CUDATRACE_GPU_SAMPLE");
    unsetenv("CUDATRACE_CUPTI");
    setenv("CUDATRACE_CAPTURE", "PROFILER", 1);
    CU_ASSERT_EQUAL(load(&s), 2);
    ct_settings_capture(&c);
    CU_ASSERT_EQUAL(c.mode, CT_CAPTURE_PROFILER);
    setenv("CUDATRACE_CAPTURE", "nvtx:train@app", 1);
    ct_settings_capture(&c);
    CU_ASSERT_EQUAL(c.mode, CT_CAPTURE_NVTX);
    CU_ASSERT_STRING_EQUAL(c.domain, "app");
    setenv("CUDATRACE_FILE_LIST", "relative.txt", 1);
    CU_ASSERT_EQUAL(load(&s), 3);
    CU_ASSERT_STRING_EQUAL(s.file_list, "");
    setenv("CUDATRACE_FILE_LIST", "/tmp/list.txt", 1);
    CU_ASSERT_EQUAL(load(&s), 2);
    CU_ASSERT_STRING_EQUAL(s.file_list, "/tmp/list.txt");
    CU_ASSERT_EQUAL(s.buffer_size, 8u << 20);
    CU_ASSERT_EQUAL(s.flush_ms, 100);
    unset_all();
}

static void expand_ok(const char *tmpl, const char *want)
{
    char out[256];
    CU_ASSERT_EQUAL(ct_output_expand(tmpl, out, sizeof out, 4242, "node7"), 0);
    CU_ASSERT_STRING_EQUAL(out, want);
}

static void test_expand(void)
{
    char out[16];

    setenv("CT_TEST_RANK", "3", 1);
    unsetenv("CT_TEST_UNSET");
    expand_ok("cudatrace-%p.ctrace", "cudatrace-4242.ctrace");
    expand_ok("%h/%p", "node7/4242");
    expand_ok("r%q{CT_TEST_RANK}-%p", "r3-4242");
    expand_ok("r%q{CT_TEST_UNSET}-%p", "r-4242");
    expand_ok("100%%-%p%%", "100%-4242%");
    expand_ok("plain", "plain");
    CU_ASSERT_EQUAL(ct_output_expand("%x", out, sizeof out, 1, "h"), -1);
    CU_ASSERT_EQUAL(ct_output_expand("t-%", out, sizeof out, 1, "h"), -1);
    CU_ASSERT_EQUAL(ct_output_expand("%q{RANK", out, sizeof out, 1, "h"), -1);
    CU_ASSERT_EQUAL(ct_output_expand("%q{}", out, sizeof out, 1, "h"), -1);
    CU_ASSERT_EQUAL(ct_output_expand("%q", out, sizeof out, 1, "h"), -1);
    CU_ASSERT_EQUAL(ct_output_expand("%q{CT_TEST_UNSET}", out, sizeof out, 1, "h"), -1); /* empty */
    CU_ASSERT_EQUAL(ct_output_expand("a-very-long-name-%p", out, sizeof out, 1, "h"), -1);
    unsetenv("CT_TEST_RANK");
}

static void test_alt_names(void)
{
    char out[64];
    CU_ASSERT_EQUAL(ct_output_alt_name("cudatrace-12.ctrace", 1, out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "cudatrace-12.1.ctrace");
    CU_ASSERT_EQUAL(ct_output_alt_name("d.x/trace", 2, out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "d.x/trace.2");
    CU_ASSERT_EQUAL(ct_output_alt_name("d/.hidden", 3, out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "d/.hidden.3");
    CU_ASSERT_EQUAL(ct_output_alt_name("a.b.ctrace", 10, out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "a.b.10.ctrace");
    CU_ASSERT_EQUAL(ct_output_alt_name("x.ctrace", 1, out, 5), -1);
}

static void test_create(void)
{
    char name[128], got[128], link_name[128], other[128];
    struct stat st;
    int fd;

    snprintf(name, sizeof name, "%s/t.ctrace", dir);
    fd = ct_output_create(name, 0600, got, sizeof got);
    CU_ASSERT_FATAL(fd >= 0);
    CU_ASSERT_STRING_EQUAL(got, name);
    CU_ASSERT_EQUAL(fstat(fd, &st), 0);
    CU_ASSERT_EQUAL(st.st_mode & 0777, 0600);
    CU_ASSERT(fcntl(fd, F_GETFD) & FD_CLOEXEC);
    CU_ASSERT_EQUAL(write(fd, "first", 5), 5);
    close(fd);

    /* It exists: the next free alternative, the first file untouched. */
    fd = ct_output_create(name, 0600, got, sizeof got);
    CU_ASSERT_FATAL(fd >= 0);
    snprintf(other, sizeof other, "%s/t.1.ctrace", dir);
    CU_ASSERT_STRING_EQUAL(got, other);
    close(fd);
    fd = ct_output_create(name, 0600, got, sizeof got);
    snprintf(other, sizeof other, "%s/t.2.ctrace", dir);
    CU_ASSERT_STRING_EQUAL(got, other);
    close(fd);
    CU_ASSERT_EQUAL(stat(name, &st), 0);
    CU_ASSERT_EQUAL(st.st_size, 5);

    /* A symlink is never followed, even a dangling one: an alternative name is used. */
    snprintf(link_name, sizeof link_name, "%s/l.ctrace", dir);
    snprintf(other, sizeof other, "%s/target", dir);
    CU_ASSERT_EQUAL(symlink(other, link_name), 0);
    fd = ct_output_create(link_name, 0600, got, sizeof got);
    CU_ASSERT(fd >= 0);
    close(fd);
    CU_ASSERT_NOT_EQUAL(access(other, F_OK), 0);
    snprintf(other, sizeof other, "%s/l.1.ctrace", dir);
    CU_ASSERT_STRING_EQUAL(got, other);

    /* A directory that does not exist. */
    snprintf(other, sizeof other, "%s/none/t.ctrace", dir);
    errno = 0;
    CU_ASSERT_EQUAL(ct_output_create(other, 0600, got, sizeof got), -1);
    CU_ASSERT_EQUAL(errno, ENOENT);
}

static int setup(void) { return mkdtemp(dir) ? 0 : 1; }

static int teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}

int main(void)
{
    CU_pSuite s;
    unsigned failed;

    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    s = CU_add_suite("recorder configuration", setup, teardown);
    CU_add_test(s, "sizes", test_parse_size);
    CU_add_test(s, "numbers, booleans, modes", test_parse_others);
    CU_add_test(s, "defaults", test_settings_defaults);
    CU_add_test(s, "values", test_settings_values);
    CU_add_test(s, "bad values", test_settings_bad_values);
    CU_add_test(s, "output templates", test_expand);
    CU_add_test(s, "alternative names", test_alt_names);
    CU_add_test(s, "exclusive creation", test_create);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
