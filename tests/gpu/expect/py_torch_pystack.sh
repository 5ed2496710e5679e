# Expectations for tests/samples/py_torch_pystack.py (two 32 MiB tensors kept from Cache.grow's KEEP line, a
# 64 MiB temporary from Model.forward's TEMP line, freed): the memory report names those Python lines.
# Sourced by tests/gpu/run-gpu-tests.
# shellcheck shell=bash
# shellcheck source=/dev/null
. "$expectdir/memory_report.inc"
expect_calls "allocations" -ge 2 family=alloc
expect_calls "frees (empty_cache)" -ge 1 family=free
KEEP=$(grep -n '# KEEP' "$pydir/py_torch_pystack.py" | cut -d: -f1)
TEMP=$(grep -n '# TEMP' "$pydir/py_torch_pystack.py" | cut -d: -f1)
export KEEP TEMP
if memory_report && stacks_built_in; then
    memory_check "the leak's stack names Cache.grow at its KEEP line, then main" '
import os
keep = int(os.environ["KEEP"])
leak = [[(f["function"], f["line"]) for f in l["stack"] if f.get("python")] for l in r["leaks"] if l["bytes"] >= 64 << 20]
assert leak and [f for f, _ in leak[0][:2]] == ["Cache.grow", "main"] and leak[0][0][1] == keep, leak
assert all(f["file"].endswith("py_torch_pystack.py") for l in r["leaks"][:1] for f in l["stack"] if f.get("python")), r["leaks"][0]'
    memory_check "the peak is held by Cache.grow and Model.forward at their lines" '
import os
firsts = {next(((f["function"], f["line"]) for f in s["stack"] if f.get("python")), None) for s in r["peak"]["sites"]}
assert ("Cache.grow", int(os.environ["KEEP"])) in firsts and ("Model.forward", int(os.environ["TEMP"])) in firsts, firsts'
    if memory_py_report; then
        memory_py_check "--group-by python: the top leak site is Cache.grow at its KEEP line, 64 MiB in 2" '
top = p["leaks"][0]
assert (top["stack"][0]["function"], top["stack"][0]["line"]) == ("Cache.grow", keep), top
assert top["bytes"] >= 64 << 20 and top["allocations"] == 2, top'
    fi
fi
