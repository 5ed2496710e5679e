# Expectations for tests/samples/py_torch_graph.py: torch.cuda.graph (a global-mode capture) and its replays,
# traced as by default (GPU time sampled) and again with every launch timed; the harness checks that stdout
# (the replays' checksum) and exit status match the untraced run.
# shellcheck shell=bash
expect_calls "a stream capture begun" -ge 1 'name=cuStreamBeginCapture*'
expect_calls "a stream capture ended" -ge 1 name=cuStreamEndCapture
expect_calls "at least 6 graph launches" -ge 6 family=launch kind=graph
expect_calls "no stream call failed (a not-ready query aside)" -eq 0 'name=cuStream*' result!=0 result!=600
expect_calls "no graph call failed" -eq 0 'name=cuGraph*' result!=0
traced_again all CUDATRACE_GPU_TIME=all
