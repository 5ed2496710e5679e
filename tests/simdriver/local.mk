# tests/simdriver: the simulated CUDA driver, a libcuda.so.1 built only for `make check` (never installed).
# Tests reach it with LD_LIBRARY_PATH=$CT_SIMDRIVER_DIR (tests/simdriver/.libs). See tests/simdriver/README.md.
#   -rpath            makes libtool build a shared library although it is not installed
#   -version-info     1:0:0 gives the SONAME libcuda.so.1, the real driver's
#   -export-symbols-regex  exports the cu* entry points only
#   -Bsymbolic-functions   binds the addresses the library takes of its own entry points (the table behind
#                     cuGetProcAddress) to itself, so a preloaded library defining the same names cannot
#                     change what cuGetProcAddress returns: each pointer is dlsym(libcuda, exported name)
check_LTLIBRARIES += tests/simdriver/libcuda.la
tests_simdriver_libcuda_la_SOURCES = \
	tests/simdriver/sim.h \
	tests/simdriver/entry_points.h \
	tests/simdriver/driver.c \
	tests/simdriver/counts.c \
	tests/simdriver/timeline.c \
	tests/simdriver/error.c \
	tests/simdriver/device.c \
	tests/simdriver/context.c \
	tests/simdriver/memory.c \
	tests/simdriver/copy.c \
	tests/simdriver/stream.c \
	tests/simdriver/event.c \
	tests/simdriver/work.c \
	tests/simdriver/capture.c \
	tests/simdriver/graph.c \
	tests/simdriver/ptx.c \
	tests/simdriver/kernels.c \
	tests/simdriver/jit.c \
	tests/simdriver/module.c \
	tests/simdriver/link.c \
	tests/simdriver/launch.c \
	tests/simdriver/procaddr.c \
	tests/simdriver/tools.c tests/simdriver/tool.h
tests_simdriver_libcuda_la_LDFLAGS = -rpath $(abs_builddir)/tests/simdriver -version-info 1:0:0 -no-undefined \
	-export-symbols-regex '^cu[A-Z]' -Wl,-Bsymbolic-functions $(PTHREAD_FLAGS)
EXTRA_DIST += tests/simdriver/README.md

# The simulated libcupti.so.13 (cupti.c), beside the simulated libcuda.so.1 so that the tracer finds it there
# as it finds a real one beside a real driver: CUPTI's activity records from the simulated timeline (tool.h).
if HAVE_CUPTI
check_LTLIBRARIES += tests/simdriver/libcupti.la
tests_simdriver_libcupti_la_SOURCES = tests/simdriver/cupti.c tests/simdriver/tool.h
tests_simdriver_libcupti_la_CPPFLAGS = $(AM_CPPFLAGS) $(CUPTI_CPPFLAGS)
tests_simdriver_libcupti_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
tests_simdriver_libcupti_la_LDFLAGS = -rpath $(abs_builddir)/tests/simdriver -version-info 13:0:0 -no-undefined \
	-export-symbols-regex '^cupti' $(PTHREAD_FLAGS)
tests_simdriver_libcupti_la_LIBADD = $(DL_LIBS)
endif
