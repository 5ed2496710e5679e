# libcudatrace.so: the preloaded library.  The interposition layer (this fragment) over GPU time
# (src/gputime/local.mk) and the recorder (src/recorder/local.mk).  Trampolines for every driver function
# variant are generated at build time from the toolkit's cudaTypedefs.h (and cudaProfilerTypedefs.h where present, and the GL/EGL/VDPAU interop typedef
# headers that configure found usable: CUDA_INTEROP_TYPEDEFS) by scripts/gen-wrappers.py; decoders
# and hooks are hand-written and declared in decode.h, decode_launch.h and hooks.h, which the generator reads,
# as it reads counted_by_default.txt, the functions counted, not timed, by default.
# Links neither libcuda nor libcudart: the driver is found at run time.  Only interposed names are exported.
lib_LTLIBRARIES += src/preload/libcudatrace.la

CT_TYPEDEF_INPUTS = $(CUDA_TYPEDEFS_H) $(wildcard $(dir $(CUDA_TYPEDEFS_H))cudaProfilerTypedefs.h) \
	$(CUDA_INTEROP_TYPEDEFS)
CT_WRAPPER_DECLS = $(srcdir)/src/preload/decode.h $(srcdir)/src/preload/decode_launch.h $(srcdir)/src/preload/hooks.h
CT_COUNTED_BY_DEFAULT = $(srcdir)/src/preload/counted_by_default.txt
CT_GEN_WRAPPERS = $(PYTHON3) $(srcdir)/scripts/gen-wrappers.py

src_preload_libcudatrace_la_SOURCES = \
	src/cuda/api.h src/preload/trampoline.h \
	src/preload/attach.c \
	src/preload/interpose.c src/preload/interpose.h \
	src/preload/procaddress.c src/preload/dlsym_hook.c src/preload/entrypoint.c \
	src/preload/hooks.h src/preload/decode.h \
	src/preload/decode_alloc.c src/preload/decode_launch.c src/preload/decode_launch.h src/preload/decode_copy.c \
	src/preload/kernel_names.c src/preload/kernel_names.h \
	src/preload/mem_map.c src/preload/mem_map.h \
	src/preload/capture.c src/preload/capture.h \
	src/preload/nvtx.c src/preload/nvtx_names.c src/preload/nvtx_names.h \
	src/preload/thread_names.c \
	src/preload/gpu_hooks.c src/preload/cupti_hooks.c \
	src/preload/driver_info.c
nodist_src_preload_libcudatrace_la_SOURCES = src/preload/wrappers.c src/preload/wrappers.h
# Incompatible pointers between a variant and its decoder would be a wrong decoder: an error, not a warning.
src_preload_libcudatrace_la_CPPFLAGS = $(AM_CPPFLAGS) $(CUPTI_CPPFLAGS)
src_preload_libcudatrace_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden \
	-Werror=incompatible-pointer-types -Werror=int-conversion
src_preload_libcudatrace_la_LDFLAGS = -avoid-version -shared -no-undefined -pthread
src_preload_libcudatrace_la_LIBADD = src/gputime/libgputime.la src/recorder/librecorder.la $(DL_LIBS)

BUILT_SOURCES += src/preload/wrappers.c src/preload/wrappers.h
CLEANFILES += src/preload/wrappers.c src/preload/wrappers.h
dist_noinst_SCRIPTS += scripts/gen-wrappers.py
EXTRA_DIST += src/preload/counted_by_default.txt

src/preload/wrappers.h: src/preload/wrappers.c
# config.h: regenerated when configure finds other interop headers (it changes only when its content does).
src/preload/wrappers.c: $(srcdir)/scripts/gen-wrappers.py $(CT_WRAPPER_DECLS) $(CT_COUNTED_BY_DEFAULT) \
		$(CT_TYPEDEF_INPUTS) config.h
	$(AM_V_GEN)$(MKDIR_P) src/preload && \
	$(CT_GEN_WRAPPERS) -o src/preload/wrappers.c --header src/preload/wrappers.h \
		$(CT_WRAPPER_DECLS:%=--decls %) --counted $(CT_COUNTED_BY_DEFAULT) $(CT_TYPEDEF_INPUTS)
# Hand-written sources include the generated header (api ids): build it first even outside `make all`.
$(src_preload_libcudatrace_la_OBJECTS): src/preload/wrappers.h
