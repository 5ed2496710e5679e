#!/usr/bin/env python3
"""Answers the harness's questions about a trace from cudatrace-report's JSON (tests/gpu/checks.sh).

  tracequery.py count    CALLS.jsonl FILTER...          calls matching every FILTER
  tracequery.py distinct CALLS.jsonl FIELD FILTER...    distinct values of FIELD over those calls
  tracequery.py unfreed  CALLS.jsonl FILTER...          "ALLOCS UNFREED": allocations matching, and how many
                                                        of them no later free of their address releases
  tracequery.py kernels  CALLS.jsonl [N]                "COUNT NAME" of the N most launched kernels
  tracequery.py total    REPORT.json TABLE COLUMN FILTER...   sum of COLUMN over TABLE's matching rows

CALLS.jsonl is `cudatrace-report calls --format json` (one object per call), REPORT.json a JSON object of
tables (`summary --format json`, `info --format json`), each a list of rows keyed by column title.
A FILTER is KEY=GLOB or KEY!=GLOB (fnmatch, case-sensitive; a missing key matches only !=).  For calls KEY is
a call field (name, variant, result, result_name, tid, ...), an argument (kernel, grid, block, bytes, kind,
operation, src_kind, stream, ...) or `family`: launch, copy, alloc, free or none, from the arguments.
"""
import fnmatch
import json
import sys
from collections import Counter


def family(call):
    args = call.get("args") or {}
    if "kernel" in args or "grid" in args:
        return "launch"
    if "operation" in args:
        return "copy"
    if "address" in args:
        return "alloc" if "bytes" in args else "free"
    return "none"


def field(row, key):
    """The value of KEY in a call (its fields, then its arguments) or a table row, as text; None if absent."""
    if key == "family" and "args" in row:
        return family(row)
    value = row.get(key, (row.get("args") or {}).get(key))
    return None if value is None else str(value)


def parse_filters(specs):
    filters = []
    for spec in specs:
        key, eq, pattern = spec.partition("=")
        negate = key.endswith("!")
        key = key[:-1] if negate else key
        if not key or not eq:
            sys.exit(f"tracequery: bad filter {spec!r} (KEY=GLOB or KEY!=GLOB)")
        filters.append((key, pattern, negate))
    return filters


def matches(row, filters):
    for key, pattern, negate in filters:
        value = field(row, key)
        hit = value is not None and fnmatch.fnmatchcase(value, pattern)
        if hit == negate:
            return False
    return True


def load_calls(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def unfreed(calls, filters):
    live = Counter()  # address -> matching allocations not yet freed
    allocs = 0
    for call in calls:
        if call.get("result") != 0:
            continue
        kind = family(call)
        address = field(call, "address")
        if kind == "alloc" and matches(call, filters):
            allocs += 1
            live[address] += 1
        elif kind == "free" and live[address] > 0:
            live[address] -= 1
    return allocs, sum(live.values())


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    command, path, rest = argv[1], argv[2], argv[3:]
    if command == "total":
        if len(rest) < 2:
            sys.exit("tracequery: total REPORT.json TABLE COLUMN FILTER...")
        with open(path, encoding="utf-8") as f:
            rows = json.load(f).get(rest[0], [])
        rows = [rows] if isinstance(rows, dict) else rows  # the summary's header is one object
        filters = parse_filters(rest[2:])
        total = sum(row.get(rest[1]) or 0 for row in rows if matches(row, filters))
        print(int(total) if float(total).is_integer() else total)
        return
    calls = load_calls(path)
    if command == "count":
        filters = parse_filters(rest)
        print(sum(1 for call in calls if matches(call, filters)))
    elif command == "distinct" and rest:
        filters = parse_filters(rest[1:])
        print(len({field(call, rest[0]) for call in calls if matches(call, filters)}))
    elif command == "unfreed":
        print(*unfreed(calls, parse_filters(rest)))
    elif command == "kernels":
        names = Counter(field(c, "kernel") for c in calls if family(c) == "launch" and c.get("result") == 0)
        for name, n in names.most_common(int(rest[0]) if rest else 5):
            print(n, name)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
