#!/bin/sh
# cudatrace-report info: header fields, record counts by type, lost and untraced counts.
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"

run_report 0 info -f json "$TMP/parent.ct"
py '
import json, sys
d = json.load(open(sys.argv[1]))
f = d["file"]
assert f["Format version"] == 8 and f["Pid"] == 1000 and f["Parent pid"] == 1 and f["Header size"] == 64, f
assert f["Host"] == "testhost" and f["Driver version"] == 13000 and f["Complete"] == "yes", f
rec = {r["Type"]: r["Count"] for r in d["records"]}
assert rec == {"process": 1, "string": 5, "api": 11, "call": 19, "launch-short": 1, "lost": 1, "driver": 1,
               "device": 1, "thread": 2, "untraced": 1, "end": 1}, rec
counts = {r["What"]: r["Count"] for r in d["counts"]}
assert counts["calls recorded"] == 20 and counts["records lost"] == 7 and counts["lost: buffer_full"] == 7
assert counts["untraced: cuFooBar"] == 2, counts
th = {r["Tid"]: (r["Calls"], r["Name"]) for r in d["threads"]}
assert th == {1000: (15, "main"), 1001: (5, "worker")}, th
assert d["devices"][0]["Name"] == "NVIDIA Test GPU"
'
# Several files: the tables of each, keyed by file.
run_report 0 info -f json "$TMP/parent.ct" "$TMP/child.ct"
py '
import json, sys
d = json.load(open(sys.argv[1]))
files = [k for k in d if k.startswith("file[")]
assert len(files) == 2 and files[0].endswith("parent.ct]") and files[1].endswith("child.ct]"), list(d)
assert d[files[0]]["Rank"] == "", d[files[0]]
'
run_report 0 info --help
# a unit is refused, not ignored: info's times are as recorded
run_report 1 info -u ms "$TMP/parent.ct"
grep -q 'timeunit does not apply to info' "$TMP/err" || fail "info -u: $(cat "$TMP/err")"
finish
