#!/usr/bin/env python3
"""Reads cudatrace-report's GPU tables for the harness's GPU-time expectations (tests/gpu/checks.sh).

  gputable.py value   CSV COLUMN NAME        COLUMN of the row whose kernel Name matches the glob NAME
  gputable.py compare CSV PROFILE.json N     "PROFILER_NS CUDATRACE_NS NAME" (tab-separated, average ns per
                                             instance) for the N kernels of most profiler time found in both
  gputable.py chrome  JSON NAME              how many complete events of a Chrome trace match the glob NAME

CSV is `cudatrace-report summary -s TABLE -f csv` (with several sections, a `# SECTION` line before each
table: the first table is read unless one is titled gpu_kernels).  Columns are found by title or, failing
that, by its start ("Avg" finds "Avg (ns)", "Total Time" finds "Total Time (ns, est.)"), so that unit and
estimate notes may change.  A Name glob matches the demangled name without a leading "void ", or its part
before the parameter list (`spin10us` matches `spin10us(unsigned long long *)`).
PROFILE.json is py_torch_gputime.py's: {"kernels": {NAME: {"count", "total_us", "avg_us"}}}.
"""
import csv
import fnmatch
import json
import sys


def read_table(path, want="gpu_kernels"):
    """The rows of the CSV's table (the one titled WANT when it has several), keyed by column title."""
    sections, title, lines = [], None, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                if lines:
                    sections.append((title, lines))
                title, lines = line.lstrip("#").strip(), []
            elif line.strip():
                lines.append(line)
    if lines:
        sections.append((title, lines))
    if not sections:
        return []
    chosen = next((s for s in sections if s[0] and want in s[0]), sections[0])[1]
    return list(csv.DictReader(chosen))


def column(rows, title):
    """The column TITLE names: exactly, else the first that starts with it."""
    if not rows:
        return None
    titles = list(rows[0].keys())
    if title in titles:
        return title
    return next((t for t in titles if t and t.startswith(title)), None)


def number(text):
    try:
        value = float(str(text).replace(",", "").strip())
    except ValueError:
        return None
    return int(value) if value.is_integer() else value


def bare(name):
    """A kernel name without a leading "void " (CUPTI's demangler keeps it, others drop it)."""
    name = " ".join(name.split())
    return name[5:] if name.startswith("void ") else name


def squeeze(name):
    """A name for comparing demanglers' output: no "void ", no whitespace ("> >" and ">>" alike)."""
    return "".join(bare(name).split())


def name_matches(name, pattern):
    name = bare(name)
    return fnmatch.fnmatchcase(name, pattern) or fnmatch.fnmatchcase(name.split("(", 1)[0], pattern)


def value(rows, title, pattern):
    col, name_col = column(rows, title), column(rows, "Name")
    if col is None or name_col is None:
        sys.exit(f"gputable: no column {title!r} (or no Name) in {list(rows[0]) if rows else 'an empty table'}")
    hits = [r for r in rows if name_matches(r[name_col] or "", pattern)]
    if len(hits) != 1:
        sys.exit(f"gputable: {len(hits)} rows with Name {pattern!r}, want 1")
    v = number(hits[0][col])
    print("" if v is None else v)


def match(name, by_squeezed):
    """The cudatrace row for a profiler kernel NAME: the same squeezed name, else the one row whose name is a
    prefix of the other's (a report that cuts long names), else the one with the same part before '('."""
    key = squeeze(name)
    if key in by_squeezed:
        return by_squeezed[key]
    prefixed = [r for k, r in by_squeezed.items() if min(len(k), len(key)) >= 24 and (k.startswith(key) or key.startswith(k))]
    if len(prefixed) == 1:
        return prefixed[0]
    head = key.split("(", 1)[0]
    same = [r for k, r in by_squeezed.items() if k.split("(", 1)[0] == head]
    return same[0] if len(same) == 1 else None


def compare(rows, profile_path, n):
    with open(profile_path, encoding="utf-8") as f:
        kernels = json.load(f)["kernels"]
    name_col, avg_col = column(rows, "Name"), column(rows, "Avg")
    if name_col is None or avg_col is None:
        sys.exit("gputable: the table has no Name or Avg column")
    by_squeezed = {squeeze(r[name_col] or ""): r for r in rows}
    found = 0
    for name, k in sorted(kernels.items(), key=lambda item: -item[1]["total_us"]):
        row = match(name, by_squeezed)
        avg = number(row[avg_col]) if row else None
        if avg is None:
            continue
        print(f"{k['avg_us'] * 1000:.1f}\t{avg}\t{bare(name)}")
        found += 1
        if found == n:
            break


def chrome(path, pattern):
    with open(path, encoding="utf-8") as f:
        events = json.load(f)
    events = events.get("traceEvents", []) if isinstance(events, dict) else events
    print(sum(1 for e in events if e.get("ph") == "X" and name_matches(str(e.get("name", "")), pattern)))


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    command, path, rest = argv[1], argv[2], argv[3:]
    if command == "value" and len(rest) == 2:
        value(read_table(path), rest[0], rest[1])
    elif command == "compare" and len(rest) == 2:
        compare(read_table(path), rest[0], int(rest[1]))
    elif command == "chrome" and len(rest) == 1:
        chrome(path, rest[0])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
