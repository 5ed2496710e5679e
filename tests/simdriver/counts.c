/* SIM_CALL_COUNTS (sim.h): calls received by the functions that count themselves, written at exit. */
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>

static struct sim_counter *counters; /* each function's, once it was first called */

void sim_count(struct sim_counter *c)
{
    __atomic_add_fetch(&c->n, 1, __ATOMIC_RELAXED);
    if (__atomic_load_n(&c->listed, __ATOMIC_ACQUIRE))
        return;
    sim_lock();
    if (!c->listed) {
        c->next = counters;
        counters = c;
        __atomic_store_n(&c->listed, 1, __ATOMIC_RELEASE);
    }
    sim_unlock();
}

__attribute__((destructor)) static void write_counts(void)
{
    const char *path = getenv("SIM_CALL_COUNTS");
    FILE *f;
    if (!path || !*path || !(f = fopen(path, "w")))
        return;
    for (struct sim_counter *c = counters; c; c = c->next)
        fprintf(f, "%s %llu\n", c->name, __atomic_load_n(&c->n, __ATOMIC_RELAXED));
    fclose(f);
}
