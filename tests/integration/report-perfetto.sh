#!/bin/sh
# export --format perfetto: the trace decoded back with protoc against src/report/export/perfetto_trace.proto (no
# field it does not know), then read as Perfetto does: interned names per sequence, delta times per thread
# sequence, tracks and their descriptors.  Checked on the parent and child traces (tracks, slices per name,
# times, the memory counter) and on report-gen gpu (GPU tracks per device and stream, slices, flows).
. "$CT_TOP_SRCDIR/tests/integration/report-lib.sh"
PROTOC=${CT_PROTOC:-}
if [ -z "$PROTOC" ]; then
    echo "protoc not found (Debian: protobuf-compiler): the Perfetto export is not decoded" >&2
    exit 77
fi
# decode FILE: its packets as protoc's text format in $TMP/out
decode() {
    "$PROTOC" --proto_path="$CT_TOP_SRCDIR/src/report/export" --decode=perfetto.protos.Trace perfetto_trace.proto \
        <"$1" >"$TMP/out" 2>"$TMP/err" || fail "protoc --decode: $(cat "$TMP/err")"
}
# Python that reads the decoded text into the tracks and events of the trace, as `tracks`, `events`
# (dicts with ts, dur, track name, name, categories, args, flows) and `counters` {track name: [values]}.
READ='
import re, sys
def parse(text):
    tok = re.findall(r"\"(?:[^\"\\\\]|\\\\.)*\"|[{}]|[^\s{}:]+:?", text)
    def block(i):
        d = {}
        while i < len(tok) and tok[i] != "}":
            key = tok[i].rstrip(":")
            assert not key.isdigit(), "a field the .proto does not know: " + key
            if tok[i + 1] == "{":
                v, i = block(i + 2)
                i += 1
            else:
                v = tok[i + 1]
                v = v[1:-1].encode().decode("unicode_escape").encode("latin-1").decode() if v[0] == "\"" else \
                    True if v == "true" else int(v)
                i += 2
            d.setdefault(key, []).append(v)
        return d, i
    return block(0)[0]
one = lambda d, k, dflt=None: d.get(k, [dflt])[0]
packets = parse(open(sys.argv[1]).read())["packet"]
tracks, seqs, events, counters, opened = {}, {}, [], {}, {}
for p in packets:
    sid = one(p, "trusted_packet_sequence_id")
    s = seqs.setdefault(sid, {"names": {}, "cats": {}, "args": {}, "t": 0, "track": None, "delta": False})
    if one(p, "sequence_flags") == 1:
        assert not s["names"], "state cleared twice"
    if "trace_packet_defaults" in p:
        dfl = one(p, "trace_packet_defaults")
        s["track"] = one(one(dfl, "track_event_defaults"), "track_uuid")
        s["delta"] = one(dfl, "timestamp_clock_id") == 64
    if "track_descriptor" in p:
        d = one(p, "track_descriptor")
        th, pr = one(d, "thread"), one(d, "process")
        name = one(d, "name") or (pr and "%s %d" % (one(pr, "process_name"), one(pr, "pid"))) or \
            (th and "%s %d" % (one(th, "thread_name", "?"), one(th, "tid")))
        parent = one(d, "parent_uuid")
        tracks[one(d, "uuid")] = (tracks[parent] + "/" if parent else "") + name
    i = one(p, "interned_data", {})
    for k, table in (("event_names", "names"), ("event_categories", "cats"), ("debug_annotation_names", "args")):
        for e in i.get(k, []):
            s[table][one(e, "iid")] = one(e, "name")
    if "track_event" not in p:
        continue
    ts = one(p, "timestamp")
    if s["delta"] and one(p, "timestamp_clock_id") != 6:
        ts = s["t"] = s["t"] + ts
    e = one(p, "track_event")
    track = tracks[one(e, "track_uuid", s["track"])]
    for u, v in zip(e.get("extra_counter_track_uuids", []), e.get("extra_counter_values", [])):
        counters.setdefault(tracks[u], []).append((ts, v))
    if one(e, "type") == 1:
        ev = {"ts": ts, "track": track, "name": s["names"][one(e, "name_iid")],
              "cats": [s["cats"][c] for c in e.get("category_iids", [])],
              "args": {s["args"][one(a, "name_iid")]: one(a, "uint_value", one(a, "string_value"))
                       for a in e.get("debug_annotations", [])},
              "flows": e.get("flow_ids", []), "ends": e.get("terminating_flow_ids", [])}
        events.append(ev)
        opened.setdefault(track, []).append(ev)
    elif one(e, "type") == 2:
        ev = opened[track].pop()
        ev["dur"] = ts - ev["ts"]
assert all(not v for v in opened.values()), "slices left open"
'

run_report 0 export --format perfetto -o "$TMP/t.pftrace" "$TMP/parent.ct" "$TMP/child.ct"
decode "$TMP/t.pftrace"
py "$READ"'
assert sorted(tracks.values()) == ["./vecadd 3 --fast 1000", "./vecadd 3 --fast 1000/device memory",
    "./vecadd child 2000", "./vecadd child 2000/device memory", "? 2000", "main 1000", "worker 1001"], tracks
assert len(events) == 23, len(events)
from collections import Counter
n = Counter((e["track"], e["name"]) for e in events)
assert n == Counter({("main 1000", "cuLaunchKernel vecAdd"): 3, ("main 1000", "cuMemAlloc"): 3,
    ("main 1000", "cuMemcpyHtoD"): 2, ("main 1000", "cuMemFree"): 2, ("main 1000", "cuInit"): 1,
    ("main 1000", "cuLaunchKernel_ptsz void scale<float>(float*, float, int)"): 1,
    ("main 1000", "cuMemsetD8"): 1, ("main 1000", "cuMemcpyDtoH"): 1, ("main 1000", "cuCtxSynchronize"): 1,
    ("worker 1001", "cuMemAllocHost"): 1, ("worker 1001", "cuMemAlloc"): 1, ("worker 1001", "cuMemcpyDtoD"): 1,
    ("worker 1001", "cuLaunchKernel vecAdd"): 1, ("worker 1001", "cuMemcpyHtoD"): 1,
    ("? 2000", "cuMemAlloc"): 1, ("? 2000", "cuLaunchKernel vecAdd"): 1, ("? 2000", "cuMemFree"): 1}), n
h2d = [(e["ts"], e["dur"], e["args"]) for e in events if e["name"] == "cuMemcpyHtoD"]
assert h2d == [(5000, 1000, {"bytes": 4096}), (7000, 3000, {"bytes": 4096}), (23000, 800, {"bytes": 2048})], h2d
oom = [e for e in events if "result" in e["args"]]
assert [(e["name"], e["args"], e["cats"]) for e in oom] == [("cuMemAlloc", {"bytes": 1 << 40, "result":
    "CUDA_ERROR_OUT_OF_MEMORY"}, ["cuda_api", "alloc"])], oom
assert Counter(tuple(e["cats"]) for e in events)[("cuda_api",)] == 2
assert counters == {"./vecadd 3 --fast 1000/device memory": [(2100, 4096), (3300, 12288), (20150, 28672),
    (30060, 12288), (31070, 8192)], "./vecadd child 2000/device memory": [(60100, 1024), (62080, 0)]}, counters
assert not any(e["flows"] for e in events)
'

# GPU spans: a track per device, one per stream beneath it, a slice per span, a flow from each call
"$GEN" gpu "$TMP/gpu.ct" || exit 99
run_report 0 export --format perfetto -o "$TMP/g.pftrace" "$TMP/gpu.ct"
decode "$TMP/g.pftrace"
py "$READ"'
gpu = [e for e in events if e["track"].startswith("GPU")]
assert sorted(set(t for t in tracks.values() if t.startswith("GPU"))) == ["GPU 0", "GPU 0/stream 0x0",
    "GPU 0/stream 0x10", "GPU 0/stream 0x2", "GPU 0/stream 0x20", "GPU 1", "GPU 1/stream 0x20"], tracks
assert len(gpu) == 13, len(gpu)
got = sorted((e["track"], e["name"], e["ts"], e["dur"], e["cats"][0], e["args"]["seq"]) for e in gpu)
assert got[:4] == [("GPU 0/stream 0x0", "[CUDA memcpy Host-to-Device]", 1200, 500, "gpu_copy", 1),
    ("GPU 0/stream 0x0", "[CUDA memcpy Host-to-Device]", 3150, 50, "gpu_copy", 3),
    ("GPU 0/stream 0x0", "[CUDA memset]", 31100, 20, "gpu_copy", 20),
    ("GPU 0/stream 0x10", "kernelA(float*)", 4100, 1000, "gpu_kernel", 4)], got
assert ("GPU 0/stream 0x20", "[CUDA graph 0xabc]", 5300, 4000, "gpu_graph", 22) in got, got
assert ("GPU 1/stream 0x20", "[CUDA memcpy Device-to-Host]", 33050, 800, "gpu_copy", 24) in got, got
starts = {f: e for e in events for f in e["flows"]}
ends = {f: e for e in gpu for f in e["ends"]}
assert len(starts) == 13 and starts.keys() == ends.keys(), (starts, ends)
assert all(starts[f]["args"]["seq"] == ends[f]["args"]["seq"] for f in starts)
'
finish
