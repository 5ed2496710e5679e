/* What the tracer adds to one cuLaunchKernel, measured inside one process: blocks of launches through the
 * program's own `cuLaunchKernel` (the tracer's trampoline when libcudatrace.so is preloaded) alternate with
 * blocks through the driver's function itself, found in libcuda's dynamic symbol table so that no
 * interposition can get in between.  Both paths share the process, its context, its memory layout and the
 * machine's mood of the moment, which is what makes the difference measurable: between processes the
 * launch rate moves by ±20% (doc/driver-facts.md).
 *
 * Untraced, both paths are the driver's function and the difference is the method's own noise (an A/A run).
 * Usage: launch_ab [-a CPU] [ROUNDS [BLOCK]]   (default 100 rounds of 2 blocks each way, 2000 launches per
 * block).  -a CPU: after the warm-up, move every other thread of the process (the tracer's writer, the
 * driver's threads) to CPU, so that added_ns is the calling thread's own cost, with no writer preempting
 * it; other_threads_cpu_ns still says what the writer costs.
 * Prints figures, never pass/fail. */
#define _GNU_SOURCE
#include "config.h"

#include <cuda.h>
#include <dirent.h>
#include <sched.h>
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "quantile.h"
#include "samples/drv_sample.h" /* CHECK: exit with the error named */

typedef CUresult (*launch_fn)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                              CUstream, void **, void **);

struct lookup {
    const char *name;
    void *found;
};

/* ld.so has relocated these dynamic-section addresses on most targets; a small value is still an offset. */
static uintptr_t dyn_addr(ElfW(Addr) v, uintptr_t base) { return v < base ? base + v : v; }

/* Find lk->name among libcuda's exported symbols.  .dynsym has no count of its own: it is bounded by .dynstr,
 * which follows it in every driver seen, and each name offset is checked against the string table's size. */
static int find_in_libcuda(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct lookup *lk = arg;
    const ElfW(Sym) *symtab = NULL;
    const char *strtab = NULL;
    size_t strsz = 0;

    (void)size;
    if (!info->dlpi_name || !strstr(info->dlpi_name, "libcuda.so"))
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type != PT_DYNAMIC)
            continue;
        for (const ElfW(Dyn) *d = (const void *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr); d->d_tag != DT_NULL;
             d++) {
            if (d->d_tag == DT_SYMTAB)
                symtab = (const void *)dyn_addr(d->d_un.d_ptr, info->dlpi_addr);
            else if (d->d_tag == DT_STRTAB)
                strtab = (const void *)dyn_addr(d->d_un.d_ptr, info->dlpi_addr);
            else if (d->d_tag == DT_STRSZ)
                strsz = d->d_un.d_val;
        }
    }
    if (!symtab || !strtab || (const void *)strtab <= (const void *)symtab)
        return 0;
    for (const ElfW(Sym) *s = symtab; (const void *)(s + 1) <= (const void *)strtab; s++) {
        if (s->st_name >= strsz)
            break;
        if (s->st_shndx != SHN_UNDEF && ELF64_ST_TYPE(s->st_info) == STT_FUNC &&
            strcmp(strtab + s->st_name, lk->name) == 0) {
            lk->found = (void *)(info->dlpi_addr + s->st_value);
            return 1;
        }
    }
    return 0;
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* CPU time of every thread of this process but the calling one (the tracer's writer, the driver's own
 * threads): the scheduler's run time and times scheduled, and the user/system split in clock ticks (coarse),
 * per thread so that the tracer's writer ("cudatrace-wr") can be told from the driver's threads. */
#define MAX_THREADS 64
struct thread_cpu {
    long tid;
    char name[20];
    double run_ns, slices, user_ticks, sys_ticks;
};
struct cpu {
    int n;
    struct thread_cpu t[MAX_THREADS];
};

static void read_thread(const char *tid, struct thread_cpu *t)
{
    char path[300], buf[1024], *p;
    unsigned long long run, wait, slices, ut, st;
    FILE *f;

    memset(t, 0, sizeof *t);
    t->tid = atol(tid);
    snprintf(path, sizeof path, "/proc/self/task/%s/schedstat", tid);
    if ((f = fopen(path, "r"))) {
        if (fscanf(f, "%llu %llu %llu", &run, &wait, &slices) == 3) {
            t->run_ns = (double)run;
            t->slices = (double)slices;
        }
        fclose(f);
    }
    snprintf(path, sizeof path, "/proc/self/task/%s/stat", tid);
    if ((f = fopen(path, "r"))) {
        /* utime and stime are fields 14 and 15; the command name (field 2) may hold spaces. */
        if (fgets(buf, sizeof buf, f) && (p = strrchr(buf, ')')) &&
            sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) == 2) {
            t->user_ticks = (double)ut;
            t->sys_ticks = (double)st;
        }
        fclose(f);
    }
    snprintf(path, sizeof path, "/proc/self/task/%s/comm", tid);
    if ((f = fopen(path, "r"))) {
        if (fgets(t->name, sizeof t->name, f))
            t->name[strcspn(t->name, "\n")] = 0;
        fclose(f);
    }
}

static void other_threads_cpu(struct cpu *c)
{
    DIR *dir = opendir("/proc/self/task");
    struct dirent *e;
    long me = (long)gettid();

    c->n = 0;
    if (!dir)
        return;
    while ((e = readdir(dir)) && c->n < MAX_THREADS)
        if (e->d_name[0] != '.' && atol(e->d_name) != me)
            read_thread(e->d_name, &c->t[c->n++]);
    closedir(dir);
}

/* Print, per launch of the program's path, the CPU of the other threads between a and b: in all, then each
 * thread that ran (a thread born in between counts from zero). */
static void print_other_threads(const struct cpu *a, const struct cpu *b, double launches)
{
    double run = 0, user = 0, sys = 0;

    for (int i = 0; i < b->n; i++) {
        const struct thread_cpu *t = &b->t[i], *t0 = NULL;
        for (int j = 0; j < a->n && !t0; j++)
            if (a->t[j].tid == t->tid)
                t0 = &a->t[j];
        double d_run = t->run_ns - (t0 ? t0->run_ns : 0), d_slices = t->slices - (t0 ? t0->slices : 0);
        run += d_run;
        user += t->user_ticks - (t0 ? t0->user_ticks : 0);
        sys += t->sys_ticks - (t0 ? t0->sys_ticks : 0);
        if (d_slices > 0)
            printf("thread %ld %s: cpu_ns_per_launch=%.1f runs=%.0f us_per_run=%.1f\n", t->tid, t->name,
                   d_run / launches, d_slices, d_run / d_slices / 1000.0);
    }
    printf("other_threads_cpu_ns=%.1f (user %.0f%%)\n", run / launches, 100.0 * user / (user + sys + 1e-9));
}

static long minor_faults(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_minflt;
}

/* ns per launch over one block, the GPU idle at its start. */
static double block(launch_fn launch, CUfunction fn, long n)
{
    double t0;
    CHECK(cuCtxSynchronize());
    t0 = now_ns();
    for (long i = 0; i < n; i++)
        CHECK(launch(fn, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
    return (now_ns() - t0) / (double)n;
}

static long arg_or(int argc, char **argv, int i, long fallback)
{
    char *end;
    long v;

    if (argc <= i)
        return fallback;
    v = strtol(argv[i], &end, 10);
    if (*end != '\0' || v <= 0) {
        fprintf(stderr, "launch_ab: argument %d must be a positive count, not '%s'\n", i, argv[i]);
        exit(2);
    }
    return v;
}

/* -a: every other thread of the process to `cpu`. */
static void move_others(int cpu)
{
    DIR *dir = opendir("/proc/self/task");
    struct dirent *e;
    cpu_set_t set;
    long me = (long)gettid();

    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sample_require(dir != NULL, "/proc/self/task");
    while ((e = readdir(dir)))
        if (e->d_name[0] != '.' && atol(e->d_name) != me &&
            sched_setaffinity((pid_t)atol(e->d_name), sizeof set, &set) != 0)
            fprintf(stderr, "launch_ab: cannot move thread %s to CPU %d\n", e->d_name, cpu);
    closedir(dir);
}

int main(int argc, char **argv)
{
    int apart = -1, opt;
    while ((opt = getopt(argc, argv, "a:")) != -1) {
        if (opt != 'a' || (apart = atoi(optarg)) < 0 || apart >= CPU_SETSIZE) {
            fprintf(stderr, "usage: launch_ab [-a CPU] [ROUNDS [BLOCK]]\n");
            return 2;
        }
    }
    argc -= optind - 1;
    argv += optind - 1;
    const long rounds = arg_or(argc, argv, 1, 100), n = arg_or(argc, argv, 2, 2000);
    struct lookup lk = {"cuLaunchKernel", NULL};
    launch_fn direct, program = cuLaunchKernel;
    double *d, *p, *diff;
    struct sample_empty_kernel kern;

    dl_iterate_phdr(find_in_libcuda, &lk);
    if (!lk.found) {
        fprintf(stderr, "launch_ab: cuLaunchKernel not found in libcuda's symbol table\n");
        return 1;
    }
    direct = (launch_fn)lk.found;
    d = malloc(sizeof *d * 2 * rounds);
    p = malloc(sizeof *p * 2 * rounds);
    diff = malloc(sizeof *diff * 2 * rounds);
    sample_require(d && p && diff, "memory for the results");

    sample_empty_kernel_load(&kern);
    block(program, kern.fn, n); /* warm both paths up */
    block(direct, kern.fn, n);
    if (apart >= 0)
        move_others(apart);

    /* ABBA order: a drift over the round weighs on both paths alike. */
    static struct cpu cpu0, cpu1;
    other_threads_cpu(&cpu0);
    const long flt0 = minor_faults();
    for (long r = 0; r < rounds; r++) {
        int k = (int)(2 * r);
        p[k] = block(program, kern.fn, n);
        d[k] = block(direct, kern.fn, n);
        d[k + 1] = block(direct, kern.fn, n);
        p[k + 1] = block(program, kern.fn, n);
        diff[k] = p[k] - d[k];
        diff[k + 1] = p[k + 1] - d[k + 1];
    }
    CHECK(cuCtxSynchronize());
    other_threads_cpu(&cpu1);
    const long flt1 = minor_faults();

    {
        const size_t k = (size_t)(2 * rounds);
        bench_sort(d, k);
        bench_sort(p, k);
        bench_sort(diff, k);
        double dq1 = bench_quantile(d, k, 0.25), dmed = bench_quantile(d, k, 0.5), dq3 = bench_quantile(d, k, 0.75);
        double pq1 = bench_quantile(p, k, 0.25), pmed = bench_quantile(p, k, 0.5), pq3 = bench_quantile(p, k, 0.75);
        double fq1 = bench_quantile(diff, k, 0.25), fmed = bench_quantile(diff, k, 0.5), fq3 = bench_quantile(diff, k, 0.75);
        printf("launch_ab: %ld rounds x 4 blocks of %ld cuLaunchKernel, program's path %s the driver's\n", rounds, n,
               program == direct ? "IS" : "is not");
        printf("direct_ns=%.1f (q1 %.1f, q3 %.1f)\n", dmed, dq1, dq3);
        printf("program_ns=%.1f (q1 %.1f, q3 %.1f)\n", pmed, pq1, pq3);
        printf("added_ns=%.1f (q1 %.1f, q3 %.1f)\n", fmed, fq1, fq3);
        printf("ratio=%.4f\n", (dmed + fmed) / dmed);
        /* Means keep what medians drop: a rare stall (a page fault on fresh memory, the writer running on this
         * CPU) that lands in a few blocks. */
        double dsum = 0, psum = 0;
        for (size_t i = 0; i < k; i++)
            dsum += d[i], psum += p[i];
        printf("added_mean_ns=%.1f\n", (psum - dsum) / (double)k);
        /* Per launch of the program's path: other threads' CPU (the tracer's writer) and page faults (a ring's
         * first pass over its memory). */
        print_other_threads(&cpu0, &cpu1, (double)(2 * rounds * n));
        printf("minor_faults_per_1k=%.2f\n", 1000.0 * (double)(flt1 - flt0) / (double)(2 * rounds * n));
    }
    sample_empty_kernel_done(&kern);
    free(d);
    free(p);
    free(diff);
    return 0;
}
