#!/bin/sh
# libcudatrace.so exports the interposed names and nothing else, and links neither libcuda, libcudart nor
# libcupti.
set -u
lib=$CT_PRELOAD
command -v nm >/dev/null && command -v readelf >/dev/null || exit 77
[ -f "$lib" ] || { echo "FAIL: $lib missing"; exit 1; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

nm -D --defined-only "$lib" | awk '{ print $3 }' | sed 's/@.*//' | sort -u >"$tmp/exports"
for name in cuGetProcAddress cuGetProcAddress_v2 dlsym cudaGetDriverEntryPoint cudaGetDriverEntryPointByVersion \
    cudaGetDriverEntryPoint_ptsz cudaGetDriverEntryPointByVersion_ptsz cuLaunchKernel cuLaunchKernel_ptsz \
    cuMemcpyHtoD_v2_ptds cuMemAlloc cuMemAlloc_v2 cuCtxCreate_v4 cuInit cuGetExportTable; do
    grep -qx "$name" "$tmp/exports" || fail "$name is not exported"
done
# Every other export is a driver variant, one of the recorder's exec hooks, the NVTX injection entry point,
# a thread-rename hook, a descriptor hook (close, dup2, ...: fd_hooks.c), or one of the CUPTI functions
# whose first call by the program hands CUPTI over to it.
others=$(grep -v -x -e 'cu[A-Z][A-Za-z0-9_]*' -e 'cudaGetDriverEntryPoint\(ByVersion\)\?\(_ptsz\)\?' -e dlsym \
    -e 'exec[lv]p\?e\?' -e execvpe -e fexecve -e 'posix_spawnp\?' -e InitializeInjectionNvtx2 \
    -e pthread_setname_np -e prctl -e cuptiSubscribe -e cuptiSubscribe_v2 -e cuptiActivityRegisterCallbacks \
    -e cuptiActivityEnable -e cuptiActivityEnableContext -e cuptiActivityEnableAndDump -e cuptiActivityFlushAll \
    -e cuptiFinalize -e close -e dup2 -e dup3 -e close_range -e closefrom -e pipe -e pipe2 "$tmp/exports")
[ -z "$others" ] || fail "unexpected exports: $others"
# One export per variant of the generated table.
# shellcheck disable=SC2086
variants=$("$CT_PYTHON3" "$CT_TOP_SRCDIR/scripts/gen-wrappers.py" --list "$CT_CUDA_DIR/include/cudaTypedefs.h" \
    $(ls "$CT_CUDA_DIR/include/cudaProfilerTypedefs.h" 2>/dev/null) ${CT_CUDA_INTEROP_TYPEDEFS:-} 2>/dev/null |
    awk '{ print $2 }' | sort -u)
echo "$variants" >"$tmp/variants"
exported=$(grep -c -x 'cu[A-Z][A-Za-z0-9_]*' "$tmp/exports")
[ "$exported" = "$(wc -l <"$tmp/variants")" ] || fail "$exported driver names exported for $(wc -l <"$tmp/variants") variants"
grep -v -x -f "$tmp/exports" "$tmp/variants" >"$tmp/missing" && fail "variants not exported: $(head "$tmp/missing")"
# The interop APIs configure found: their names are among them.
for api in GL:cuGraphicsGLRegisterBuffer EGL:cuEGLStreamConsumerConnect VDPAU:cuGraphicsVDPAURegisterVideoSurface; do
    case " ${CT_CUDA_INTEROP_TYPEDEFS:-} " in
    *"/cuda${api%%:*}Typedefs.h "*) grep -qx "${api#*:}" "$tmp/exports" || fail "${api#*:} is not exported" ;;
    esac
done
if grep -q '^#define HAVE_CUPTI 1' "$CT_TOP_BUILDDIR/config.h"; then
    for name in cuptiSubscribe cuptiActivityRegisterCallbacks cuptiActivityEnable cuptiFinalize; do
        grep -qx "$name" "$tmp/exports" || fail "$name is not exported"
    done
fi
readelf -d "$lib" | grep NEEDED | grep -E 'libcuda|libcudart|libcupti' && fail "links the driver, the runtime or CUPTI"
exit 0
