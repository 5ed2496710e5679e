/* cudatrace-report names: demangling, the API display rule, CUresult names from cuda.h, copy operations,
 * time units and number formatting, CSV/JSON/HTML/folded escaping, the hash maps, the module of an address. */
#include "config.h"

#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudatrace/format.h"
#include "format/record.h"
#include "report/model/map.h"
#include "report/model/display_names.h"
#include "report/model/frames.h"
#include "report/model/html.h"
#include "report/model/stacktab.h"
#include "report/model/text.h"

static void check_demangled(const char *in, const char *want)
{
    char *out = rp_demangle(in);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    CU_ASSERT_STRING_EQUAL(out, want);
    free(out);
}

static void test_demangle(void)
{
    check_demangled("_Z6vecAddPKfS0_Pfi", "vecAdd(float const*, float const*, float*, int)");
    check_demangled("_Z5scaleIfEvPT_S0_i", "void scale<float>(float*, float, int)");
    check_demangled("_ZN2at6native18elementwise_kernelILi128ELi2EZNS0_15gpu_kernel_implIiEEvRiEUliE_EEviT1_",
                    "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<int>(int&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl<int>(int&)::{lambda(int)#1})");
    check_demangled("vecAdd", "vecAdd");        /* extern "C" kernels stay as they are */
    check_demangled("_Znot-valid", "_Znot-valid"); /* not demangleable: unchanged */
    check_demangled("", "");
}

static void test_api_display(void)
{
    char buf[64];
    CU_ASSERT_STRING_EQUAL(rp_api_display_name("cuMemAlloc", 0, buf, sizeof buf), "cuMemAlloc");
    CU_ASSERT_STRING_EQUAL(rp_api_display_name("cuLaunchKernel", CT_VARIANT_PTSZ, buf, sizeof buf),
                           "cuLaunchKernel_ptsz");
    CU_ASSERT_STRING_EQUAL(rp_api_display_name("cuMemcpy", CT_VARIANT_PTDS, buf, sizeof buf), "cuMemcpy_ptds");
}

static void test_results(void)
{
    char buf[32];
    CU_ASSERT_STRING_EQUAL(rp_result_name(0, buf, sizeof buf), "CUDA_SUCCESS");
    CU_ASSERT_STRING_EQUAL(rp_result_name(2, buf, sizeof buf), "CUDA_ERROR_OUT_OF_MEMORY");
    CU_ASSERT_STRING_EQUAL(rp_result_name(999, buf, sizeof buf), "CUDA_ERROR_UNKNOWN");
    CU_ASSERT_STRING_EQUAL(rp_result_name(123456, buf, sizeof buf), "CUresult(123456)");
    CU_ASSERT_STRING_EQUAL(rp_result_name(-1, buf, sizeof buf), "CUresult(-1)");
    CU_ASSERT_TRUE(rp_result_name_count > 50); /* generated from cuda.h, not a handful by hand */
    for (unsigned i = 1; i < rp_result_name_count; i++)
        CU_ASSERT_TRUE(rp_result_names[i - 1].value < rp_result_names[i].value);
}

static void test_copy_ops(void)
{
    char buf[64];
    CU_ASSERT_STRING_EQUAL(rp_copy_operation(0, CT_MEM_HOST, CT_MEM_DEVICE), "[CUDA memcpy Host-to-Device]");
    CU_ASSERT_STRING_EQUAL(rp_copy_operation(0, CT_MEM_PINNED, CT_MEM_DEVICE), "[CUDA memcpy Host-to-Device]");
    CU_ASSERT_STRING_EQUAL(rp_copy_operation(CT_COPY_ASYNC, CT_MEM_DEVICE, CT_MEM_HOST), "[CUDA memcpy Device-to-Host]");
    CU_ASSERT_STRING_EQUAL(rp_copy_operation(0, CT_MEM_DEVICE, CT_MEM_DEVICE), "[CUDA memcpy Device-to-Device]");
    CU_ASSERT_STRING_EQUAL(rp_copy_operation(0, CT_MEM_HOST, CT_MEM_HOST), "[CUDA memcpy Host-to-Host]");
    CU_ASSERT_STRING_EQUAL(rp_copy_operation(0, CT_MEM_ARRAY, CT_MEM_DEVICE), "[CUDA memcpy Array-to-Device]");
    CU_ASSERT_STRING_EQUAL(rp_copy_operation(CT_COPY_PEER, CT_MEM_DEVICE, CT_MEM_DEVICE), "[CUDA memcpy Peer-to-Peer]");
    CU_ASSERT_STRING_EQUAL(rp_copy_operation(CT_COPY_SET, CT_MEM_UNKNOWN, CT_MEM_DEVICE), "[CUDA memset]");
    CU_ASSERT_STRING_EQUAL(rp_copy_operation(0, CT_MEM_UNKNOWN, CT_MEM_DEVICE), "[CUDA memcpy Unknown]");
    CU_ASSERT_STRING_EQUAL(rp_copy_flags(0, buf, sizeof buf), "none");
    CU_ASSERT_STRING_EQUAL(rp_copy_flags(CT_COPY_ASYNC | CT_COPY_2D, buf, sizeof buf), "async,2d");
    CU_ASSERT_TRUE(rp_mem_kind_on_device(CT_MEM_DEVICE) && !rp_mem_kind_on_device(CT_MEM_PINNED) &&
                   !rp_mem_kind_on_device(CT_MEM_VMM_MAP));
    CU_ASSERT_STRING_EQUAL(rp_mem_kind_name(200), "unknown");
}

static void test_units(void)
{
    struct rp_timeunit u;
    char buf[48];
    CU_ASSERT_EQUAL(rp_timeunit_parse("fortnight", &u), -1);
    CU_ASSERT_EQUAL(rp_timeunit_parse("ns", &u), 0);
    CU_ASSERT_STRING_EQUAL(rp_fmt_time(buf, sizeof buf, 1234567, &u, 0), "1234567");
    CU_ASSERT_STRING_EQUAL(rp_fmt_time(buf, sizeof buf, 1234.25, &u, 1), "1234.2");
    CU_ASSERT_EQUAL(rp_timeunit_parse("usec", &u), 0);
    CU_ASSERT_STRING_EQUAL(u.name, "us");
    CU_ASSERT_STRING_EQUAL(rp_fmt_time(buf, sizeof buf, 1234567, &u, 0), "1234.567");
    CU_ASSERT_STRING_EQUAL(rp_fmt_time(buf, sizeof buf, 1234567, &u, 1), "1234.567");
    CU_ASSERT_EQUAL(rp_timeunit_parse("ms", &u), 0);
    CU_ASSERT_STRING_EQUAL(rp_fmt_time(buf, sizeof buf, 1234567, &u, 0), "1.234567");
    CU_ASSERT_EQUAL(rp_timeunit_parse("s", &u), 0);
    CU_ASSERT_STRING_EQUAL(rp_fmt_time(buf, sizeof buf, 1500000000, &u, 0), "1.500000000");
    CU_ASSERT_STRING_EQUAL(rp_group_digits(buf, sizeof buf, "1234567.5"), "1,234,567.5");
    CU_ASSERT_STRING_EQUAL(rp_group_digits(buf, sizeof buf, "123"), "123");
    CU_ASSERT_STRING_EQUAL(rp_group_digits(buf, sizeof buf, "-1000"), "-1,000");
    CU_ASSERT_STRING_EQUAL(rp_group_digits(buf, sizeof buf, ""), "");
    CU_ASSERT_EQUAL(rp_format_parse("csv"), RP_FMT_CSV);
    CU_ASSERT_EQUAL(rp_format_parse("column"), RP_FMT_TABLE);
    CU_ASSERT_EQUAL(rp_format_parse("xml"), -1);
}

static char *captured(void (*fn)(FILE *, const char *), const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fn(f, s);
    fclose(f);
    return buf;
}

static void test_escaping(void)
{
    struct {
        void (*fn)(FILE *, const char *);
        const char *in, *want;
    } cases[] = {
        {rp_csv_field, "plain", "plain"},
        {rp_csv_field, "f(int, int)", "\"f(int, int)\""},
        {rp_csv_field, "say \"hi\"", "\"say \"\"hi\"\"\""},
        {rp_json_string, "a\"b\\c\n", "\"a\\\"b\\\\c\\n\""},
        {rp_json_string, "\x01", "\"\\u0001\""},
        {rp_json_string, "caf\xc3\xa9", "\"caf\xc3\xa9\""},  /* valid UTF-8 kept */
        {rp_json_string, "bad\xff", "\"bad\\ufffd\""},       /* invalid bytes replaced */
        /* lead bytes above F4, overlong forms, surrogates and code points above U+10FFFF are invalid too */
        {rp_json_string, "\xfe\xb3\xa0", "\"\\ufffd\\ufffd\\ufffd\""},
        {rp_json_string, "\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\""},
        {rp_json_string, "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""},
        {rp_json_string, "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""},
        {rp_json_string, "\xf0\x9f\x98\x80\xe2\x82", "\"\xf0\x9f\x98\x80\\ufffd\\ufffd\""},
        /* table output: control characters shown, the rest (UTF-8 too, and a lone C1 byte) as it is */
        {rp_text_put, "plain name", "plain name"},
        {rp_text_put, "\x1b[2J\x1b[31mPWN\r", "\\x1b[2J\\x1b[31mPWN\\x0d"},
        {rp_text_put, "a\tb\nc\x7f", "a\\x09b\\x0ac\\x7f"},
        {rp_text_put, "\xc2\x9b" "2J caf\xc3\xa9 \xc2\xa0 \x9b", "\\u009b2J caf\xc3\xa9 \xc2\xa0 \x9b"},
        /* HTML: markup characters as references (text and attribute values alike), controls shown */
        {rp_html_text, "<script>a&b</script>", "&lt;script&gt;a&amp;b&lt;/script&gt;"},
        {rp_html_text, "x\" onload='y'", "x&quot; onload=&#39;y&#39;"},
        {rp_html_text, "caf\xc3\xa9\x1b[2J\n", "caf\xc3\xa9\\x1b[2J\\x0a"},
        /* a folded frame: no ';' to split it, no line break to end the line */
        {rp_folded_name, "f<int;2>(a;b)", "f<int,2>(a,b)"},
        {rp_folded_name, "k\n\x1b\x7f 1", "k??? 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out = captured(cases[i].fn, cases[i].in);
        CU_ASSERT_STRING_EQUAL(out, cases[i].want);
        free(out);
    }
}

/* Labels in charts: cut after N characters, never inside a UTF-8 sequence; sizes for people. */
static void test_html_cut(void)
{
    char *buf = NULL, b[32];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    rp_html_text_cut(f, "caf\xc3\xa9<x>", 4);
    putc('|', f);
    rp_html_text_cut(f, "short", 9);
    putc('|', f);
    rp_html_text_cut(f, "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac", 2);
    fclose(f);
    CU_ASSERT_STRING_EQUAL(buf, "caf\xc3\xa9...|short|\xe2\x82\xac\xe2\x82\xac...");
    free(buf);
    CU_ASSERT_STRING_EQUAL(rp_html_duration(b, sizeof b, 850), "850 ns");
    CU_ASSERT_STRING_EQUAL(rp_html_duration(b, sizeof b, 1234567), "1.23 ms");
    CU_ASSERT_STRING_EQUAL(rp_html_duration(b, sizeof b, 12.5e9), "12.5 s");
    CU_ASSERT_STRING_EQUAL(rp_html_bytes(b, sizeof b, 512), "512 B");
    CU_ASSERT_STRING_EQUAL(rp_html_bytes(b, sizeof b, 7340032), "7.00 MiB");
}

/* The width of a name as rp_text_put shows it, and its padding to a column. */
static void test_text_width(void)
{
    CU_ASSERT_EQUAL(rp_text_width("abc"), 3);
    CU_ASSERT_EQUAL(rp_text_width("a\x1b" "b"), 6);
    CU_ASSERT_EQUAL(rp_text_width("\xc2\x9b"), 6);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    rp_text_pad(f, "a\rb", 8);
    putc('|', f);
    rp_text_pad(f, "a\rb", -8);
    putc('|', f);
    rp_text_pad(f, "longer than the width", 4);
    fclose(f);
    CU_ASSERT_STRING_EQUAL(buf, "  a\\x0db|a\\x0db  |longer than the width");
    free(buf);
}

static void test_maps(void)
{
    struct rp_strmap sm = {0};
    char key[32];
    for (size_t i = 0; i < 1000; i++) {
        snprintf(key, sizeof key, "k%zu", i);
        CU_ASSERT_EQUAL(rp_strmap_put(&sm, key, i), 0);
    }
    CU_ASSERT_EQUAL(rp_strmap_get(&sm, "k777"), 777);
    CU_ASSERT_EQUAL(rp_strmap_get(&sm, "nope"), (size_t)-1);
    rp_strmap_free(&sm);

    /* keys lent (rows' own names): not copied, not freed, found as copied ones are */
    char *names[300];
    for (size_t i = 0; i < 300; i++) {
        snprintf(key, sizeof key, "row %zu", i);
        names[i] = strdup(key);
        CU_ASSERT_EQUAL(rp_strmap_put_ref(&sm, names[i], i), 0);
    }
    CU_ASSERT_EQUAL(rp_strmap_get(&sm, "row 299"), 299);
    int lent = 1;
    for (size_t i = 0; i < sm.cap; i++)
        lent &= !sm.keys[i] || sm.keys[i] == names[sm.vals[i]];
    CU_ASSERT_TRUE(lent);
    rp_strmap_free(&sm);
    for (size_t i = 0; i < 300; i++)
        free(names[i]);

    /* insert, remove every other, and check all remaining are still found (backward-shift deletion) */
    struct rp_u64map m = {0};
    for (uint64_t i = 0; i < 5000; i++)
        CU_ASSERT_PTR_NOT_NULL(rp_u64map_put(&m, 0x7000000000 + i * 4096, i % 3, i, 0));
    for (uint64_t i = 0; i < 5000; i += 2)
        rp_u64map_remove(&m, rp_u64map_get(&m, 0x7000000000 + i * 4096, i % 3));
    CU_ASSERT_EQUAL(m.n, 2500);
    int ok = 1;
    for (uint64_t i = 0; i < 5000; i++) {
        struct rp_u64map_entry *e = rp_u64map_get(&m, 0x7000000000 + i * 4096, i % 3);
        ok &= i % 2 ? e && e->v1 == i : e == NULL;
    }
    CU_ASSERT_TRUE(ok);
    CU_ASSERT_PTR_NULL(rp_u64map_get(&m, 0x7000000000 + 4096, 0)); /* same address, other space */
    rp_u64map_free(&m);
}

static void add_module(struct rp_stacktab *t, uint64_t lo, uint64_t hi)
{
    unsigned char rec[128];
    ct_put_module(rec, lo, lo, hi, "m", 1, NULL, 0, 0);
    CU_ASSERT_EQUAL(rp_stacktab_add(t, (const struct ct_rec_hdr *)rec), 0);
}

/* The look-up by sorted pieces agrees with a scan from the newest module, on overlapping, nested, empty and
 * touching ranges, and on modules added after a look-up. */
static void test_module_lookup(void)
{
    struct rp_stacktab t = {0};
    int bad = 0;
    srand(7);
    for (int round = 0; round < 300; round++) {
        rp_stacktab_free(&t);
        int n = 1 + rand() % 24;
        for (int i = 0; i < n; i++) {
            uint64_t lo = (uint64_t)(rand() % 200), len = (uint64_t)(rand() % 40);
            add_module(&t, lo, lo + (round % 7 ? len : 0));
            if (i == n / 2)
                rp_stacktab_module(&t, 0);
        }
        for (uint64_t a = 0; a < 260; a++) {
            const struct rp_module *want = NULL;
            for (size_t i = t.nmods; i-- > 0 && !want;)
                if (a >= t.mods[i].lo && a < t.mods[i].hi)
                    want = &t.mods[i];
            bad += rp_stacktab_module(&t, a) != want;
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    add_module(&t, UINT64_MAX - 10, UINT64_MAX);
    CU_ASSERT_PTR_EQUAL(rp_stacktab_module(&t, UINT64_MAX - 1), &t.mods[t.nmods - 1]);
    CU_ASSERT_PTR_NULL(rp_stacktab_module(&t, UINT64_MAX));
    rp_stacktab_free(&t);
}

/* A frame is read with the modules recorded before its stack (the newest that holds it), else the oldest
 * recorded after: a library loaded where an unloaded one lay does not take over the older stacks. */
static void test_frame_module(void)
{
    struct rp_stacktab t = {0};
    unsigned char rec[64];
    uint64_t frame = 0;
    uint32_t id = 1;
    int bad = 0;
    srand(11);
    for (int round = 0; round < 200; round++) {
        rp_stacktab_free(&t);
        id = 1;
        for (int i = 0, n = 1 + rand() % 16; i < n; i++) {
            uint64_t lo = (uint64_t)(rand() % 100), len = (uint64_t)(rand() % 30);
            add_module(&t, lo, lo + len);
            for (int k = rand() % 3; k > 0; k--) {
                ct_put_stack(rec, 0, id++, &frame, 1, 0);
                CU_ASSERT_EQUAL(rp_stacktab_add(&t, (const struct ct_rec_hdr *)rec), 0);
            }
        }
        for (size_t j = 0; j < t.n; j++)
            for (uint64_t a = 0; a < 140; a++) {
                const struct rp_module *want = NULL;
                size_t before = t.stacks[j].mods_before;
                for (size_t i = before; i-- > 0 && !want;)
                    if (a >= t.mods[i].lo && a < t.mods[i].hi)
                        want = &t.mods[i];
                for (size_t i = before; i < t.nmods && !want; i++)
                    if (a >= t.mods[i].lo && a < t.mods[i].hi)
                        want = &t.mods[i];
                bad += rp_stacktab_frame_module(&t, &t.stacks[j], a) != want;
            }
    }
    CU_ASSERT_EQUAL(bad, 0);
    rp_stacktab_free(&t);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite suite = CU_add_suite("report_names", NULL, NULL);
    CU_add_test(suite, "C++ demangling", test_demangle);
    CU_add_test(suite, "API display names", test_api_display);
    CU_add_test(suite, "CUresult names", test_results);
    CU_add_test(suite, "copy operations", test_copy_ops);
    CU_add_test(suite, "time units and digits", test_units);
    CU_add_test(suite, "CSV, JSON, HTML and folded escaping", test_escaping);
    CU_add_test(suite, "terminal text width and padding", test_text_width);
    CU_add_test(suite, "HTML labels and sizes", test_html_cut);
    CU_add_test(suite, "hash maps", test_maps);
    CU_add_test(suite, "module of an address", test_module_lookup);
    CU_add_test(suite, "module of a frame when its stack was taken", test_frame_module);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
