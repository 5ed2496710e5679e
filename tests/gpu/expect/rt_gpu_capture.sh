# Expectations for tests/samples/rt_gpu_capture.cu: a global-mode stream capture while another thread
# launches, traced with every launch timed (CUDATRACE_GPU_TIME=all) and again sampled: the harness checks
# that stdout and exit status match the untraced run (the sample exits 1 when a capture call fails, and
# checks the graph's result); here, that no capture or graph call failed.
# shellcheck shell=bash
# sample-env: CUDATRACE_GPU_TIME=all
expect_calls "1 stream capture begun" -eq 1 'name=cuStreamBeginCapture*'
expect_calls "1 stream capture ended" -eq 1 name=cuStreamEndCapture
expect_calls "1 graph instantiated" -eq 1 'name=cuGraphInstantiate*'
expect_calls "5 graph launches" -eq 5 family=launch kind=graph
expect_calls "1 captured launch of fillPattern" -eq 1 family=launch 'kernel=fillPattern(*'
expect_calls "1 captured launch of accumulateTwice" -eq 1 family=launch 'kernel=accumulateTwice(*'
expect_calls "at least 70 launches of countLaunch from the other thread" -ge 70 'kernel=countLaunch(*'
expect_calls "no stream call failed (a not-ready query aside)" -eq 0 'name=cuStream*' result!=0 result!=600
expect_calls "no graph call failed" -eq 0 'name=cuGraph*' result!=0
expect_no_failed_calls
traced_again sample CUDATRACE_GPU_TIME=sample
