# The checks of tests/gpu/run-gpu-tests and the helpers its expectation files (expect/<sample>.sh) use;
# sourced by the runner.  A check prints one line (PASS/FAIL/SKIP; NOTE for information) and is counted.
# shellcheck shell=bash
#
# Expectations query the sample's trace through cudatrace-report's JSON, read by tracequery.py:
#   $CALLS    `cudatrace-report calls --format json` of the sample's trace files (one object per call)
#   $SUMMARY  `cudatrace-report summary --format json` of the same (tables api, kernels, kernel_shapes,
#             copies, memory, errors, and the header)
# A FILTER is KEY=GLOB or KEY!=GLOB on a call's fields and arguments (see tracequery.py), e.g.
#   name=cuMemAlloc  variant=*_ptsz  family=launch  kernel='vectorAdd(*'  grid=196,1,1  bytes=200000
# or on a table row's columns (Kind=device, Operation=*Host-to-Device*).  The runner sources expectation
# files with globbing off, so patterns need no quotes unless they hold spaces or shell characters.
#
# GPU time (CUDATRACE_GPU_TIME) is checked on the report's CSV tables (gpu_table, read by gputable.py) and on
# the sample's own measurements (figure); the runner's untraced_again and traced_again give an expectation
# more runs of its sample, e.g. `traced_again all CUDATRACE_GPU_TIME=all` (traces in $dir/all/).

npass=0 nfail=0 nskip=0 cur=
pass() { echo "PASS $cur: $1"; npass=$((npass + 1)); }
fail() { echo "FAIL $cur: $1${2:+ ($2)}"; nfail=$((nfail + 1)); }
skip() { echo "SKIP $cur: $1"; nskip=$((nskip + 1)); }
note() { echo "NOTE $cur: $*"; }
summary() { echo "$npass passed, $nfail failed$([ "$nskip" -gt 0 ] && echo ", $nskip skipped")"; }

# expect_value DESCRIPTION OP WANT GOT: a check of a number; OP is a test(1) comparison such as -eq or -ge.
expect_value() {
    if [[ $4 =~ ^-?[0-9]+$ ]] && test "$4" "$2" "$3"; then
        pass "$1"
    else
        fail "$1" "found ${4:-nothing}, want $2 $3"
    fi
}

# shellcheck disable=SC2154 # $python and $here: set by the runner
query() { "$python" "$here/tracequery.py" "$@"; }
# calls FILTER...: how many calls match.  distinct FIELD FILTER...: how many values FIELD takes over them.
calls() { query count "$CALLS" "$@"; }
distinct() { query distinct "$CALLS" "$@"; }
# total TABLE COLUMN FILTER...: the sum of COLUMN over the summary TABLE's rows that match.
total() { query total "$SUMMARY" "$@"; }

# expect_calls DESCRIPTION OP WANT FILTER...: a check of how many calls match.
expect_calls() {
    local what=$1 op=$2 want=$3
    shift 3
    expect_value "$what" "$op" "$want" "$(calls "$@")"
}
# expect_total DESCRIPTION OP WANT TABLE COLUMN FILTER...: a check of a summary total.
expect_total() {
    local what=$1 op=$2 want=$3
    shift 3
    expect_value "$what" "$op" "$want" "$(total "$@")"
}
# expect_freed FILTER...: the allocations matching (at least one) are all freed.
expect_freed() {
    local allocs left
    read -r allocs left < <(query unfreed "$CALLS" "$@")
    if [ "${allocs:-0}" -gt 0 ] && [ "$left" = 0 ]; then
        pass "the $allocs allocations ($*) are freed"
    else
        fail "the allocations ($*) are freed" "${allocs:-no} allocations, ${left:-?} without a free"
    fi
}
# expect_no_failed_calls: no allocation, free, copy or launch returned an error.
expect_no_failed_calls() {
    expect_calls "no failed allocation, free, copy or launch" -eq 0 family!=none result!=0
}
# note_kernels: the most launched kernels, for the reader (names cut at 100 characters).
note_kernels() {
    local line
    query kernels "$CALLS" 5 | while read -r line; do note "launched ${line:0:100}"; done
}

# Filters for copy directions, as cudatrace-report names the operations.
# shellcheck disable=SC2034 # used by the expectation files
H2D='operation=*Host-to-Device*' D2H='operation=*Device-to-Host*'

# --- GPU time --------------------------------------------------------------------------------------------

# expect_float DESCRIPTION GOT OP WANT: a check of a decimal number; OP is -ge, -le, -gt or -lt.
expect_float() {
    if [[ $2 =~ ^-?[0-9]+([.][0-9]*)?([eE][-+]?[0-9]+)?$ ]] &&
        awk -v got="$2" -v op="$3" -v want="$4" 'BEGIN {
            ok = op == "-ge" ? got >= want : op == "-le" ? got <= want : op == "-gt" ? got > want : op == "-lt" ? got < want : 0
            exit !ok }'; then
        pass "$1"
    else
        fail "$1" "found ${2:-nothing}, want $3 $4"
    fi
}
# expect_near DESCRIPTION GOT WANT PERCENT [SLACK]: |GOT - WANT| is at most PERCENT% of WANT plus SLACK.
expect_near() {
    local tol
    tol=$(awk -v want="$3" -v p="$4" -v s="${5:-0}" 'BEGIN { print want * p / 100 + s }')
    if [[ $2 =~ ^-?[0-9.eE+-]+$ ]] && [[ $3 =~ ^-?[0-9.eE+-]+$ ]] &&
        awk -v got="$2" -v want="$3" -v tol="$tol" 'BEGIN { d = got - want; exit !((d < 0 ? -d : d) <= tol) }'; then
        pass "$1"
    else
        fail "$1" "found ${2:-nothing}, want ${3:-nothing} ± $tol"
    fi
}
# figure TAG KEY: the value of the `KEY VALUE` line the sample wrote in run TAG (untraced, traced, or an
# *_again TAG) to its figures file ($CT_SAMPLE_FIGURES).
# shellcheck disable=SC2154 # $dir: set by the runner
figure() { awk -v k="$2" '$1 == k { v = $2 } END { print v }' "$dir/$1.figures" 2>/dev/null; }
# traces_in VAR DIR [GLOB]: the trace files DIR/GLOB (default trace-*.ctrace) into array VAR (expectations are
# sourced with globbing off: the glob is expanded here).
traces_in() {
    local -n traces_in_var=$1
    local -
    set +f
    # shellcheck disable=SC2034,SC2206 # the caller's array, through the nameref; the glob is meant to expand
    traces_in_var=("$2"/${3:-trace-*.ctrace})
}
# trace_dir TAG: where run TAG's trace files are.
trace_dir() { if [ "$1" = traced ]; then echo "$dir"; else echo "$dir/$1"; fi; }
# gpu_table TAG TABLE: `cudatrace-report summary -s TABLE -f csv` of run TAG's traces (traced: the runner's
# own traced run) into $dir/TAG.TABLE.csv, its path in $table; fails the check and returns 1 when it fails.
# shellcheck disable=SC2154 # $report: set by the runner
gpu_table() {
    local traces
    table=$dir/$1.$2.csv
    traces_in traces "$(trace_dir "$1")"
    if ! "$report" summary -s "$2" -f csv "${traces[@]}" >"$table" 2>"$table.err" || [ ! -s "$table" ]; then
        fail "$1: cudatrace-report summary -s $2 -f csv" "$(last_line "$table.err")"
        return 1
    fi
}
# table_value CSV COLUMN NAME: COLUMN (title or its start: Avg, Instances, Timed, Total Time) of the row
# whose kernel Name matches the glob NAME; nothing when no single row does (the reason on stderr).
table_value() { "$python" "$here/gputable.py" value "$@"; }
# expect_chrome_slices DESCRIPTION OP WANT TAG NAME: a check of how many slices of `cudatrace-report export
# --format chrome` of run TAG's traces are named NAME (a glob, as table_value's).
expect_chrome_slices() {
    local out=$dir/$4.chrome.json traces
    traces_in traces "$(trace_dir "$4")"
    if "$report" export --format chrome -o "$out" "${traces[@]}" 2>"$out.err"; then
        expect_value "$1" "$2" "$3" "$("$python" "$here/gputable.py" chrome "$out" "$5")"
    else
        fail "$1" "cudatrace-report export --format chrome: $(last_line "$out.err")"
    fi
}
# compare_profile CSV PROFILE.json N OUT: into OUT, gputable.py compare's lines (PROFILER_NS, CUDATRACE_NS
# and NAME, tab-separated, for the N kernels of most profiler time that both name); its complaints noted.
compare_profile() {
    "$python" "$here/gputable.py" compare "$1" "$2" "$3" >"$4" 2>"$4.err"
    [ ! -s "$4.err" ] || note "gputable.py compare: $(last_line "$4.err")"
}
