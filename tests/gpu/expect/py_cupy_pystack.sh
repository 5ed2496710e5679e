# Expectations for tests/samples/py_cupy_pystack.py (two 32 MiB arrays kept from Cache.grow's KEEP line, a
# 64 MiB temporary from Model.forward's TEMP line, freed): the memory report names those Python lines, below
# CuPy's own Python frames (cupy/_creation/...).
# Sourced by tests/gpu/run-gpu-tests.
# shellcheck shell=bash
# shellcheck source=/dev/null
. "$expectdir/memory_report.inc"
expect_calls "allocations" -ge 3 family=alloc
expect_calls "frees (free_all_blocks)" -ge 1 family=free
KEEP=$(grep -n '# KEEP' "$pydir/py_cupy_pystack.py" | cut -d: -f1)
TEMP=$(grep -n '# TEMP' "$pydir/py_cupy_pystack.py" | cut -d: -f1)
export KEEP TEMP
if memory_report && stacks_built_in; then
    memory_check "the leak's stack names Cache.grow at its KEEP line, then main, among its Python frames" '
import os
keep = int(os.environ["KEEP"])
mine = [[(f["function"], f["line"]) for f in l["stack"] if f.get("python") and f["file"].endswith("py_cupy_pystack.py")]
        for l in r["leaks"] if l["bytes"] >= 64 << 20]
assert mine and mine[0][:2] == [("Cache.grow", keep), ("main", mine[0][1][1])], mine'
    if memory_py_report; then
        memory_py_check "--group-by python: the top leak site is Cache.grow at its KEEP line, 64 MiB in 2" '
top = p["leaks"][0]
assert (top["stack"][0]["function"], top["stack"][0]["line"]) == ("Cache.grow", keep), top
assert top["bytes"] >= 64 << 20 and top["allocations"] == 2, top'
        memory_py_check "--group-by python: the peak is held by Cache.grow and Model.forward at their lines" '
firsts = {(s["stack"][0]["function"], s["stack"][0]["line"]) for s in p["peak"]["sites"] if s["stack"]}
assert ("Cache.grow", keep) in firsts and ("Model.forward", temp) in firsts, firsts'
    fi
fi
