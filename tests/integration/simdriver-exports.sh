#!/bin/sh
# Every entry point the simulated driver exports is a name the real driver exports (the toolkit's link stub
# lists them), and nothing else is exported but cuSimToolAttach, through which the simulated libcupti sees
# the driver's work (tests/simdriver/tool.h); the SONAME is libcuda.so.1.
set -u
lib="$CT_SIMDRIVER_DIR/libcuda.so.1"
stub="${CT_CUDA_STUBS_DIR:-$(sed -n 's/^CUDA_STUBS_DIR = //p' "$CT_TOP_BUILDDIR/Makefile")}/libcuda.so"
command -v nm >/dev/null 2>&1 && command -v readelf >/dev/null 2>&1 || { echo "SKIP: no nm/readelf"; exit 77; }
[ -f "$stub" ] || { echo "SKIP: no link stub at $stub"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
status=0

readelf -d "$lib" | grep -q 'Library soname: \[libcuda.so.1\]' || { echo "FAIL: SONAME is not libcuda.so.1"; status=1; }
nm -D --defined-only "$lib" | awk '$2 ~ /^[TtWw]$/ && $3 != "cuSimToolAttach" {print $3}' | sort >"$tmp/sim"
nm -D --defined-only "$stub" | awk '{print $3}' | sort >"$tmp/real"
count=$(wc -l <"$tmp/sim")
[ "$count" -ge 150 ] || { echo "FAIL: only $count functions exported"; status=1; }
grep -v '^cu[A-Z]' "$tmp/sim" >"$tmp/private" && { echo "FAIL: private symbols exported:"; cat "$tmp/private"; status=1; }
comm -23 "$tmp/sim" "$tmp/real" >"$tmp/unknown"
[ -s "$tmp/unknown" ] && { echo "FAIL: exported names the real driver does not have:"; cat "$tmp/unknown"; status=1; }
[ $status -eq 0 ] && echo "ok: $count entry points, all real driver names, SONAME libcuda.so.1"
exit $status
