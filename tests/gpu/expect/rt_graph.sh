# Expectations for tests/samples/rt_graph.cu.
# Sourced by tests/gpu/run-gpu-tests, which defines the helpers, $DUMP and $expectdir.
# shellcheck shell=bash
expect_calls "3 launches of graphStep captured" -eq 3 "$(re_launch graphStep)grid=32,1,1 block=256,1,1 "
expect_calls "1 stream capture begun" -eq 1 ' name=cuStreamBeginCapture[A-Za-z]* '
expect_calls "1 stream capture ended" -eq 1 ' name=cuStreamEndCapture '
expect_calls "1 graph instantiated" -eq 1 ' name=cuGraphInstantiate[A-Za-z]* '
expect_calls "10 graph launches" -eq 10 ' launch kernel=[^ ]+ kind=graph '
expect_calls "1 device allocation of 32768 bytes" -eq 1 "$(re_alloc 32768 device)"
expect_freed 32768
expect_calls "1 D2H copy of 32768 bytes" -eq 1 "$(re_d2h 32768)"
expect_no_failed_calls
