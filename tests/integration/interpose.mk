# tests/integration (interpose): every route to the driver, on the simulated driver (tests/simdriver), each
# program run untraced and under LD_PRELOAD=libcudatrace.so with identical output, the trace read back with
# tests/integration/ctdump.  interpose-lib.sh holds what the scripts share.
TESTS += tests/integration/interpose-exports.sh tests/integration/interpose-loader.sh \
	tests/integration/interpose-dlsym.sh tests/integration/interpose-entrypoint.sh \
	tests/integration/interpose-drv.sh tests/integration/interpose-repeats.sh tests/integration/capture.sh \
	tests/integration/interpose-signals.sh tests/integration/gpu-time.sh tests/integration/gpu-activity.sh \
	tests/integration/gpu-ending.sh \
	tests/integration/nvtx.sh tests/integration/ranks.sh tests/integration/launcher.sh \
	tests/integration/multi-gpu.sh tests/integration/apis.sh tests/integration/sigpipe.sh \
	tests/integration/secure-mode.sh tests/integration/file-list.sh tests/integration/interpose-steal.sh \
	tests/integration/interpose-lowfd.sh
EXTRA_DIST += tests/integration/nvtx.sh tests/integration/ranks.sh tests/integration/launcher.sh \
	tests/integration/multi-gpu.sh tests/integration/apis.sh tests/integration/sigpipe.sh \
	tests/integration/secure-mode.sh tests/integration/file-list.sh tests/integration/interpose-steal.sh \
	tests/integration/interpose-lowfd.sh
EXTRA_DIST += tests/integration/interpose-lib.sh tests/integration/interpose-exports.sh \
	tests/integration/interpose-loader.sh tests/integration/interpose-dlsym.sh \
	tests/integration/interpose-entrypoint.sh tests/integration/interpose-drv.sh \
	tests/integration/interpose-repeats.sh tests/integration/capture.sh tests/integration/interpose-signals.sh \
	tests/integration/gpu-time.sh tests/integration/gpu-activity.sh tests/integration/gpu-ending.sh

# -no-install: real executables, no libtool wrapper script (which would run a shell under the preload).
CT_INTERPOSE_LINK = -no-install

# The runtime's route: dlopen + cuGetProcAddress_v2.
check_PROGRAMS += tests/integration/interpose-loader
tests_integration_interpose_loader_SOURCES = tests/integration/interpose-loader.c
tests_integration_interpose_loader_LDFLAGS = $(CT_INTERPOSE_LINK)
tests_integration_interpose_loader_LDADD = $(DL_LIBS)

# dlsym clients, linked with the driver (its link stub; the simulated driver at run time), bound to each
# version of glibc's dlsym.
check_PROGRAMS += tests/integration/interpose-dlsym tests/integration/interpose-dlsym-old
tests_integration_interpose_dlsym_SOURCES = tests/integration/interpose-dlsym.c
tests_integration_interpose_dlsym_LDFLAGS = $(CT_INTERPOSE_LINK) -L$(CUDA_STUBS_DIR)
tests_integration_interpose_dlsym_LDADD = -lcuda $(DL_LIBS)
tests_integration_interpose_dlsym_old_SOURCES = tests/integration/interpose-dlsym.c
tests_integration_interpose_dlsym_old_CPPFLAGS = $(AM_CPPFLAGS) -DCT_OLD_DLSYM
tests_integration_interpose_dlsym_old_LDFLAGS = $(CT_INTERPOSE_LINK) -L$(CUDA_STUBS_DIR)
tests_integration_interpose_dlsym_old_LDADD = -lcuda $(DL_LIBS)

# cudaGetDriverEntryPoint*: a stand-in libcudart.so.13 and its client; a client with no runtime at all.
check_LTLIBRARIES += tests/integration/libcudart.la
tests_integration_libcudart_la_SOURCES = tests/integration/interpose-cudart.c
tests_integration_libcudart_la_LDFLAGS = -rpath /nowhere -version-info 13:0:0 -no-undefined
tests_integration_libcudart_la_LIBADD = $(DL_LIBS)
check_PROGRAMS += tests/integration/interpose-entrypoint tests/integration/interpose-noruntime
tests_integration_interpose_entrypoint_SOURCES = tests/integration/interpose-entrypoint.c
tests_integration_interpose_entrypoint_LDFLAGS = $(CT_INTERPOSE_LINK)
tests_integration_interpose_entrypoint_LDADD = tests/integration/libcudart.la $(DL_LIBS)
tests_integration_interpose_noruntime_SOURCES = tests/integration/interpose-noruntime.c
tests_integration_interpose_noruntime_LDFLAGS = $(CT_INTERPOSE_LINK)

# The -lcuda sample (tests/samples) built again with per-thread default-stream names.
check_PROGRAMS += tests/integration/interpose-vectoradd-ptds
tests_integration_interpose_vectoradd_ptds_SOURCES = tests/samples/vectoradd_drv.c tests/samples/drv_sample.c \
	tests/samples/drv_sample.h
tests_integration_interpose_vectoradd_ptds_CPPFLAGS = $(AM_CPPFLAGS) -DCUDA_API_PER_THREAD_DEFAULT_STREAM
tests_integration_interpose_vectoradd_ptds_LDFLAGS = $(CT_INTERPOSE_LINK) -L$(CUDA_STUBS_DIR)
tests_integration_interpose_vectoradd_ptds_LDADD = -lcuda

# Capture ranges opened from another library's constructor, before the tracer's runs (capture.sh).
check_LTLIBRARIES += tests/integration/libcapturector.la
tests_integration_libcapturector_la_SOURCES = tests/integration/capture-ctor.c
tests_integration_libcapturector_la_LDFLAGS = -rpath /nowhere -no-undefined -L$(CUDA_STUBS_DIR)
tests_integration_libcapturector_la_LIBADD = -lcuda
check_PROGRAMS += tests/integration/capture-early
tests_integration_capture_early_SOURCES = tests/integration/capture-early.c
tests_integration_capture_early_LDFLAGS = $(CT_INTERPOSE_LINK) -L$(CUDA_STUBS_DIR)
tests_integration_capture_early_LDADD = tests/integration/libcapturector.la -lcuda

# A signal handler's driver calls on a thread inside traced calls.
check_PROGRAMS += tests/integration/interpose-signals
tests_integration_interpose_signals_SOURCES = tests/integration/interpose-signals.c
tests_integration_interpose_signals_LDFLAGS = $(CT_INTERPOSE_LINK) -L$(CUDA_STUBS_DIR)
tests_integration_interpose_signals_LDADD = -lcuda

# GPU time on the simulated driver's device timeline: timing events (gpu-time.sh), CUPTI's activity records
# (gpu-activity.sh).
check_PROGRAMS += tests/integration/gpu-time
tests_integration_gpu_time_SOURCES = tests/integration/gpu-time.c
tests_integration_gpu_time_LDFLAGS = $(CT_INTERPOSE_LINK) -L$(CUDA_STUBS_DIR)
tests_integration_gpu_time_LDADD = -lcuda

# A program that uses CUPTI itself (gpu-activity.sh), linked with the simulated libcupti.
if HAVE_CUPTI
check_PROGRAMS += tests/integration/cupti-user
tests_integration_cupti_user_SOURCES = tests/integration/cupti-user.c
tests_integration_cupti_user_CPPFLAGS = $(AM_CPPFLAGS) $(CUPTI_CPPFLAGS)
tests_integration_cupti_user_LDFLAGS = $(CT_INTERPOSE_LINK) -L$(CUDA_STUBS_DIR)
tests_integration_cupti_user_LDADD = tests/simdriver/libcupti.la -lcuda
endif

# A user's own NVTX injection library, which the tracer must call on to (nvtx.sh).
check_LTLIBRARIES += tests/integration/libnvtxcount.la
tests_integration_libnvtxcount_la_SOURCES = tests/integration/nvtx-count.c
tests_integration_libnvtxcount_la_LDFLAGS = -module -avoid-version -rpath /nowhere -no-undefined

# Counts the tracer's calls into glibc's allocator on program threads (interpose-signals.sh).
check_LTLIBRARIES += tests/integration/libmallocmasked.la
tests_integration_libmallocmasked_la_SOURCES = tests/integration/malloc-masked.c
tests_integration_libmallocmasked_la_LDFLAGS = -module -avoid-version -rpath /nowhere -no-undefined
tests_integration_libmallocmasked_la_LIBADD = $(DL_LIBS)

# CUDATRACE_APIS and the tracer's own driver calls (apis.sh).
check_PROGRAMS += tests/integration/apis-calls
tests_integration_apis_calls_SOURCES = tests/integration/apis-calls.c tests/samples/drv_sample.c tests/samples/drv_sample.h
tests_integration_apis_calls_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
tests_integration_apis_calls_LDFLAGS = $(CT_INTERPOSE_LINK) -L$(CUDA_STUBS_DIR)
tests_integration_apis_calls_LDADD = -lcuda

# The tracer's warning on a stderr nobody reads, in a program that blocks SIGPIPE (sigpipe.sh).
check_PROGRAMS += tests/integration/sigpipe-pending
tests_integration_sigpipe_pending_SOURCES = tests/integration/sigpipe-pending.c
tests_integration_sigpipe_pending_LDFLAGS = $(CT_INTERPOSE_LINK) -L$(CUDA_STUBS_DIR)
tests_integration_sigpipe_pending_LDADD = -lcuda

# Preloaded first, makes getauxval(AT_SECURE) answer 1: a set-user-ID program as the library sees it
# (secure-mode.sh).
check_LTLIBRARIES += tests/integration/libatsecure.la
tests_integration_libatsecure_la_SOURCES = tests/integration/at-secure.c
tests_integration_libatsecure_la_LDFLAGS = -module -avoid-version -rpath /nowhere -no-undefined
tests_integration_libatsecure_la_LIBADD = $(DL_LIBS)

# Programs that take the tracer's descriptors (interpose-steal.sh) or need their lowest ones
# (interpose-lowfd.sh).
check_PROGRAMS += tests/integration/interpose-fds
tests_integration_interpose_fds_SOURCES = tests/integration/interpose-fds.c
tests_integration_interpose_fds_LDFLAGS = $(CT_INTERPOSE_LINK) -L$(CUDA_STUBS_DIR)
tests_integration_interpose_fds_LDADD = -lcuda
