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
