/* SIM_CALL_COUNTS (sim.h): calls received by the functions that count themselves, written at exit. */
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COUNTED 32

static struct {
    const char *name;
    unsigned long long n;
} counted[MAX_COUNTED];

void sim_count(const char *function)
{
    sim_lock();
    for (int i = 0; i < MAX_COUNTED; i++)
        if (!counted[i].name || strcmp(counted[i].name, function) == 0) {
            counted[i].name = function;
            counted[i].n++;
            break;
        }
    sim_unlock();
}

__attribute__((destructor)) static void write_counts(void)
{
    const char *path = getenv("SIM_CALL_COUNTS");
    FILE *f;
    if (!path || !*path || !(f = fopen(path, "w")))
        return;
    for (int i = 0; i < MAX_COUNTED && counted[i].name; i++)
        fprintf(f, "%s %llu\n", counted[i].name, counted[i].n);
    fclose(f);
}
