# Expectations for tests/samples/launch_repeat_drv.c: launch loops from two threads, most of them written as
# launch repeats (format.h); every launch must read back with its own kernel, grid, block and stream.
# shellcheck shell=bash
expect_calls "450 launches in all" -eq 450 family=launch
expect_calls "303 of kernelA, grid 1, block 32, null stream" -eq 303 \
    kernel=kernelA grid=1,1,1 block=32,1,1 stream=0x0
expect_calls "4 of kernelA with grid 2 (the shape that changes and back; two from a TLS destructor)" -eq 4 \
    kernel=kernelA grid=2,1,1
expect_calls "100 of kernelB, grid 3, alternating with kernelA" -eq 100 kernel=kernelB grid=3,1,1 block=32,1,1
expect_calls "40 of kernelA on the threads' own streams" -eq 40 kernel=kernelA grid=1,1,1 stream!=0x0
expect_value "launches from 2 threads" -eq 2 "$(distinct tid family=launch)"
expect_calls "3 of kernelZ (loaded after kernelA's module was unloaded)" -eq 3 kernel=kernelZ grid=1,1,1
expect_total "160 queries of the context's device, counted, not timed" -eq 160 api_counted 'Num Calls' Name=cuCtxGetDevice
expect_no_failed_calls
