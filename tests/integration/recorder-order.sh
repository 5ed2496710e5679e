# A drain pass that meets a thread's old ring and then its new one (made in a TLS destructor after the old
# one was handed over) writes the old ring's last records first: recorder-order stops the writer inside the
# old ring's write while the thread records more, exits and records again.
. "$CT_TOP_SRCDIR/tests/integration/recorder-lib.sh"

ORDER="$CT_TOP_BUILDDIR/tests/integration/recorder-order"
CUDATRACE_QUIET=1 "$ORDER" 300 || fail "recorder-order exited $? (2: the writer was not stopped on the thread's records)"
set -- cudatrace-*.ctrace
dump "$1"
thread_counts "$1"
expect "threads" 2 "$(wc -l <"$1.threads")"
expect "the thread's records" 900 "$(sed -n '2s/.* //p' "$1.threads")"
