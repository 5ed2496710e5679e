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
	tests/simdriver/procaddr.c
tests_simdriver_libcuda_la_LDFLAGS = -rpath $(abs_builddir)/tests/simdriver -version-info 1:0:0 -no-undefined \
	-export-symbols-regex '^cu[A-Z]' -Wl,-Bsymbolic-functions $(PTHREAD_FLAGS)
EXTRA_DIST += tests/simdriver/README.md
