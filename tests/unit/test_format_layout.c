/* The on-disk layout of include/cudatrace/format.h, pinned: a change here must come with a new
 * CT_FORMAT_VERSION (and this test updated with it). */
#include "config.h"

#include <CUnit/Basic.h>
#include <stddef.h>

#include "cudatrace/format.h"

#define PIN(type, field, off) CU_ASSERT_EQUAL(offsetof(struct type, field), off)
#define SIZE(type, n) CU_ASSERT_EQUAL(sizeof(struct type), n)

static void test_constants(void)
{
    CU_ASSERT_EQUAL(CT_FORMAT_VERSION, 8);
    CU_ASSERT_EQUAL(CT_FORMAT_VERSION_MIN, 1);
    CU_ASSERT_EQUAL(CT_MAGIC_LEN, 8);
    CU_ASSERT_EQUAL(sizeof CT_MAGIC - 1, 8);
    CU_ASSERT_EQUAL(CT_REC_MARKER, 0xC7);
    CU_ASSERT_EQUAL(CT_BYTE_ORDER_MARK, 0x01020304u);
    CU_ASSERT_EQUAL(CT_REC_PROCESS, 1);
    CU_ASSERT_EQUAL(CT_REC_CALL, 4);
    CU_ASSERT_EQUAL(CT_REC_END, 10);
    CU_ASSERT_EQUAL(CT_REC_MODULE, 12);
    CU_ASSERT_EQUAL(CT_REC_LAUNCH_REPEAT, 13);
    CU_ASSERT_EQUAL(CT_REC_CLOCK, 14);
    CU_ASSERT_EQUAL(CT_REC_LAUNCH_SHORT, 15);
    CU_ASSERT_EQUAL(CT_REC_GPU, 16);
    CU_ASSERT_EQUAL(CT_REC_CALL_SHORT, 24);
    CU_ASSERT_EQUAL(CT_REC_GPU_INFO, 17);
    CU_ASSERT_EQUAL(CT_REC_NVTX, 18);
    CU_ASSERT_EQUAL(CT_REC_NVTX_NAME, 19);
    CU_ASSERT_EQUAL(CT_REC_RANK, 20);
    CU_ASSERT_EQUAL(CT_REC_COUNTED, 23);
    CU_ASSERT_EQUAL(CT_REC_PYSTACK, 21);
    CU_ASSERT_EQUAL(CT_STR_PYTHON, 5);
    CU_ASSERT_EQUAL(CT_STR_NVTX, 4);
    CU_ASSERT_EQUAL(CT_NVTX_MARK, 5);
    CU_ASSERT_EQUAL(CT_RANK_SLURM, 4);
    CU_ASSERT_EQUAL(CT_FEAT_CAPTURE_NVTX, 8);
    CU_ASSERT_EQUAL(CT_FEAT_APIS_DEFAULT, 16);
    CU_ASSERT_EQUAL(CT_FEAT_APIS_LIST, 32);
    CU_ASSERT_EQUAL(CT_GPU_ALL, 2);
    CU_ASSERT_EQUAL(CT_SHORT_DUR_BITS, 28);
    CU_ASSERT_EQUAL(CT_LAUNCH_SHAPES, 16);
    CU_ASSERT_EQUAL(CT_FAM_COPY, 4);
    CU_ASSERT_EQUAL(CT_MEM_ARRAY, 8);
    CU_ASSERT_EQUAL(CT_LOST_SHUTDOWN, 3);
    CU_ASSERT_EQUAL(CT_COPY_BATCH, 1u << 5);
}

static void test_file_header(void)
{
    SIZE(ct_file_header, 64);
    PIN(ct_file_header, magic, 0);
    PIN(ct_file_header, format_version, 8);
    PIN(ct_file_header, header_size, 12);
    PIN(ct_file_header, byte_order, 16);
    PIN(ct_file_header, features, 20);
    PIN(ct_file_header, pid, 24);
    PIN(ct_file_header, ppid, 28);
    PIN(ct_file_header, start_wall_ns, 32);
    PIN(ct_file_header, start_mono_ns, 40);
    PIN(ct_file_header, tracer_version, 48);
}

static void test_records(void)
{
    SIZE(ct_rec_hdr, 8);
    PIN(ct_rec_hdr, marker, 0);
    PIN(ct_rec_hdr, type, 1);
    PIN(ct_rec_hdr, size, 2);
    PIN(ct_rec_hdr, tid, 4);

    SIZE(ct_rec_gpu, 96);
    PIN(ct_rec_gpu, seq, 8);
    PIN(ct_rec_gpu, start_ns, 16);
    PIN(ct_rec_gpu, end_ns, 24);
    PIN(ct_rec_gpu, stream, 32);
    PIN(ct_rec_gpu, api_id, 40);
    PIN(ct_rec_gpu, family, 42);
    PIN(ct_rec_gpu, flags, 43);
    PIN(ct_rec_gpu, device, 44);
    PIN(ct_rec_gpu, name_id, 48);
    PIN(ct_rec_gpu, launch_kind, 52);
    PIN(ct_rec_gpu, grid, 56);
    PIN(ct_rec_gpu, block, 68);
    PIN(ct_rec_gpu, bytes, 80);
    PIN(ct_rec_gpu, copy_flags, 88);
    PIN(ct_rec_gpu, src_kind, 92);
    PIN(ct_rec_gpu, dst_kind, 94);

    SIZE(ct_rec_gpu_info, 104);
    CU_ASSERT_EQUAL(CT_REC_GPU_INFO_V5_SIZE, 64);
    PIN(ct_rec_gpu_info, mode, 8);
    PIN(ct_rec_gpu_info, sample_n, 12);
    PIN(ct_rec_gpu_info, sample_k, 16);
    PIN(ct_rec_gpu_info, final, 20);
    PIN(ct_rec_gpu_info, timed, 24);
    PIN(ct_rec_gpu_info, not_completed, 32);
    PIN(ct_rec_gpu_info, untimed_pool, 40);
    PIN(ct_rec_gpu_info, untimed_refused, 48);
    PIN(ct_rec_gpu_info, untimed_capture, 56);
    PIN(ct_rec_gpu_info, source, 64);
    PIN(ct_rec_gpu_info, why, 68);
    PIN(ct_rec_gpu_info, request, 72);
    PIN(ct_rec_gpu_info, source_ns, 80);
    PIN(ct_rec_gpu_info, no_call, 88);
    PIN(ct_rec_gpu_info, dropped, 96);

    SIZE(ct_rec_nvtx, 40);
    PIN(ct_rec_nvtx, kind, 8);
    PIN(ct_rec_nvtx, flags, 9);
    PIN(ct_rec_nvtx, domain, 10);
    PIN(ct_rec_nvtx, name_id, 12);
    PIN(ct_rec_nvtx, t_ns, 16);
    PIN(ct_rec_nvtx, range_id, 24);
    PIN(ct_rec_nvtx, category, 32);
    PIN(ct_rec_nvtx, color, 36);

    SIZE(ct_rec_nvtx_name, 24);
    PIN(ct_rec_nvtx_name, what, 8);
    PIN(ct_rec_nvtx_name, domain, 10);
    PIN(ct_rec_nvtx_name, category, 12);
    PIN(ct_rec_nvtx_name, name_id, 16);

    SIZE(ct_rec_rank, 24);
    PIN(ct_rec_rank, rank, 8);
    PIN(ct_rec_rank, local_rank, 12);
    PIN(ct_rec_rank, world_size, 16);
    PIN(ct_rec_rank, source, 20);
    SIZE(ct_rec_counted, 24);
    PIN(ct_rec_counted, api_id, 8);
    PIN(ct_rec_counted, count, 16);
    SIZE(ct_rec_pystack, 16);
    PIN(ct_rec_pystack, id, 8);
    PIN(ct_rec_pystack, nframes, 12);
    SIZE(ct_py_frame, 16);
    PIN(ct_py_frame, file_id, 0);
    PIN(ct_py_frame, name_id, 4);
    PIN(ct_py_frame, line, 8);
    PIN(ct_py_frame, before, 12);

    SIZE(ct_rec_process, 16);
    PIN(ct_rec_process, host_len, 8);
    PIN(ct_rec_process, cmdline_len, 10);
    PIN(ct_rec_process, argc, 12);

    SIZE(ct_rec_string, 16);
    PIN(ct_rec_string, id, 8);
    PIN(ct_rec_string, kind, 12);
    PIN(ct_rec_string, len, 14);

    SIZE(ct_rec_api, 24);
    PIN(ct_rec_api, api_id, 8);
    PIN(ct_rec_api, vflags, 10);
    PIN(ct_rec_api, version, 12);
    PIN(ct_rec_api, name_len, 16);
    PIN(ct_rec_api, variant_len, 18);
    PIN(ct_rec_api, family, 20);

    SIZE(ct_rec_call, 48);
    PIN(ct_rec_call, api_id, 8);
    PIN(ct_rec_call, payload, 10);
    PIN(ct_rec_call, shape, 11);
    PIN(ct_rec_call, result, 12);
    PIN(ct_rec_call, seq, 16);
    PIN(ct_rec_call, t0_ns, 24);
    PIN(ct_rec_call, t1_ns, 32);
    PIN(ct_rec_call, stack_id, 40);
    PIN(ct_rec_call, shape_gen, 44);

    SIZE(ct_rec_launch_repeat, 32);
    PIN(ct_rec_launch_repeat, api_id, 8);
    PIN(ct_rec_launch_repeat, shape, 10);
    PIN(ct_rec_launch_repeat, shape_gen, 11);
    PIN(ct_rec_launch_repeat, dur_ns, 12);
    PIN(ct_rec_launch_repeat, seq, 16);
    PIN(ct_rec_launch_repeat, t0_ns, 24);
    SIZE(ct_rec_launch_short, 16);
    PIN(ct_rec_launch_short, dt0, 8);
    PIN(ct_rec_launch_short, dur_slot, 12);
    SIZE(ct_rec_call_short, 16);
    PIN(ct_rec_call_short, api_id, 8);
    PIN(ct_rec_call_short, dur, 10);
    PIN(ct_rec_call_short, dt0, 12);
    SIZE(ct_rec_clock, 32);
    PIN(ct_rec_clock, base_ticks, 8);
    PIN(ct_rec_clock, base_ns, 16);
    PIN(ct_rec_clock, ns_per_tick, 24);
    SIZE(ct_rec_lost, 40);
    PIN(ct_rec_lost, count, 8);
    PIN(ct_rec_lost, t_first_ns, 16);
    PIN(ct_rec_lost, t_last_ns, 24);
    PIN(ct_rec_lost, reason, 32);

    SIZE(ct_rec_driver, 16);
    PIN(ct_rec_driver, driver_version, 8);
    PIN(ct_rec_driver, device_count, 12);

    SIZE(ct_rec_device, 104);
    PIN(ct_rec_device, ordinal, 8);
    PIN(ct_rec_device, total_mem, 16);
    PIN(ct_rec_device, uuid, 24);
    PIN(ct_rec_device, name, 40);

    SIZE(ct_rec_thread, 16);
    PIN(ct_rec_thread, name_id, 8);

    SIZE(ct_rec_untraced, 16);
    PIN(ct_rec_untraced, name_id, 8);
    PIN(ct_rec_untraced, count, 12);

    SIZE(ct_rec_end, 40);
    PIN(ct_rec_end, calls, 8);
    PIN(ct_rec_end, lost, 16);
    PIN(ct_rec_end, untraced, 24);
    PIN(ct_rec_end, end_mono_ns, 32);

    SIZE(ct_rec_stack, 16);
    PIN(ct_rec_stack, id, 8);
    PIN(ct_rec_stack, nframes, 12);
    PIN(ct_rec_stack, trimmed, 14);

    SIZE(ct_rec_module, 72);
    PIN(ct_rec_module, base, 8);
    PIN(ct_rec_module, lo, 16);
    PIN(ct_rec_module, hi, 24);
    PIN(ct_rec_module, path_len, 32);
    PIN(ct_rec_module, build_id_len, 34);
    PIN(ct_rec_module, flags, 35);
    PIN(ct_rec_module, reserved, 36);
    PIN(ct_rec_module, build_id, 40);
}

static void test_payloads(void)
{
    SIZE(ct_pl_alloc, 32);
    PIN(ct_pl_alloc, bytes, 0);
    PIN(ct_pl_alloc, address, 8);
    PIN(ct_pl_alloc, stream, 16);
    PIN(ct_pl_alloc, kind, 24);
    PIN(ct_pl_alloc, device, 28);

    SIZE(ct_pl_free, 24);
    PIN(ct_pl_free, address, 0);
    PIN(ct_pl_free, stream, 8);
    PIN(ct_pl_free, kind, 16);

    SIZE(ct_pl_launch, 64);
    PIN(ct_pl_launch, function, 0);
    PIN(ct_pl_launch, stream, 8);
    PIN(ct_pl_launch, name_id, 16);
    PIN(ct_pl_launch, grid, 20);
    PIN(ct_pl_launch, block, 32);
    PIN(ct_pl_launch, cluster, 44);
    PIN(ct_pl_launch, shared_mem, 56);
    PIN(ct_pl_launch, kind, 60);

    SIZE(ct_pl_copy, 72);
    PIN(ct_pl_copy, bytes, 0);
    PIN(ct_pl_copy, src, 8);
    PIN(ct_pl_copy, dst, 16);
    PIN(ct_pl_copy, stream, 24);
    PIN(ct_pl_copy, width, 32);
    PIN(ct_pl_copy, height, 40);
    PIN(ct_pl_copy, depth, 48);
    PIN(ct_pl_copy, flags, 56);
    PIN(ct_pl_copy, src_kind, 60);
    PIN(ct_pl_copy, dst_kind, 62);
    PIN(ct_pl_copy, src_device, 64);
    PIN(ct_pl_copy, dst_device, 68);
}

int main(void)
{
    CU_pSuite s;
    unsigned failed;

    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    s = CU_add_suite("format layout", NULL, NULL);
    CU_add_test(s, "constants", test_constants);
    CU_add_test(s, "file header", test_file_header);
    CU_add_test(s, "records", test_records);
    CU_add_test(s, "payloads", test_payloads);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
