/* The device timeline, on the host's CLOCK_MONOTONIC: work submitted at host time `now` starts at
 * max(now, the stream's tail) and ends its duration later. Results are computed at submission; only the
 * timing is simulated, so events, queries and synchronisation behave as on a device that is busy. */
#include "config.h"

#include "sim.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static struct sim_config config;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;

static void read_config(void)
{
    const char *v;
    if ((v = getenv("SIM_KERNEL_NS")) && *v)
        config.kernel_ns = strtoull(v, NULL, 10);
    if ((v = getenv("SIM_COPY_BYTES_PER_NS")) && *v) {
        double rate = strtod(v, NULL);
        config.copy_bytes_per_ns = rate > 0 ? rate : 0;
    }
    if ((v = getenv("SIM_LAUNCH_NS")) && *v)
        config.launch_ns = strtoull(v, NULL, 10);
    if ((v = getenv("SIM_LAUNCH_LATENCY_NS")) && *v)
        config.launch_latency_ns = strtoull(v, NULL, 10);
    if ((v = getenv("SIM_CUPTI_EXIT_DELAY_MS")) && *v)
        config.exit_delay_ns = strtoull(v, NULL, 10) * 1000000u;
    config.strict_handles = (v = getenv("SIM_STRICT_HANDLES")) && *v && !(v[0] == '0' && !v[1]);
    config.devices = SIM_DEVICE_COUNT;
    if ((v = getenv("SIM_DEVICES")) && *v) {
        long n = strtol(v, NULL, 10);
        config.devices = n >= 1 && n <= SIM_DEVICE_COUNT ? (int)n : SIM_DEVICE_COUNT;
    }
}

const struct sim_config *sim_config(void)
{
    pthread_once(&config_once, read_config);
    return &config;
}

uint64_t sim_copy_ns(size_t bytes)
{
    double rate = sim_config()->copy_bytes_per_ns;
    return rate > 0 ? (uint64_t)((double)bytes / rate) : 0;
}

void sim_sleep_until(uint64_t ns)
{
    struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000u), .tv_nsec = (long)(ns % 1000000000u)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}
