/* probe-harness.h — shared by the generated C of bench/peak-probe.sh and bench/load-probe.sh:
 * pinned threads that start together, per-thread timing, best-of-N, a core-clock estimate.
 * Independent of roofline's own code on purpose (these probes are the yardstick for it).
 * Benchmark support code, not a library: everything is static. */
#ifndef PROBE_HARNESS_H
#define PROBE_HARNESS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double probe_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- CPUs: the first N of the process's affinity mask (wrapping around if N is larger) */
static int probe_cpus[CPU_SETSIZE];
static int probe_ncpus;

static void probe_init_cpus(void) {
    cpu_set_t set;
    probe_ncpus = 0;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        for (int c = 0; c < CPU_SETSIZE; ++c)
            if (CPU_ISSET(c, &set)) probe_cpus[probe_ncpus++] = c;
    }
    if (probe_ncpus == 0) { probe_cpus[0] = 0; probe_ncpus = 1; }
}

static int probe_cpu_of(int t) { return probe_cpus[t % probe_ncpus]; }

static void probe_pin_self(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* ---- one timed run on T threads --------------------------------------------------------
 * work(tid, arg) is called on every thread after all T threads are pinned and spinning at
 * the start line; each thread notes when its call starts and ends; the run's time is the span
 * from the first start to the last end (a thread's own time would let threads that share a
 * CPU, run one after the other, each look full speed). */
typedef void (*probe_work_fn)(int tid, void *arg);

struct probe_run {
    probe_work_fn work;
    void *arg;
    int nthreads;
    atomic_int arrived;
    atomic_int go;
    double start[CPU_SETSIZE], end[CPU_SETSIZE];
};

struct probe_thread_arg {
    struct probe_run *run;
    int tid;
};

static void probe_thread_body(struct probe_run *r, int tid) {
    probe_pin_self(probe_cpu_of(tid));
    atomic_fetch_add(&r->arrived, 1);
    if (tid == 0) {
        while (atomic_load(&r->arrived) < r->nthreads) __builtin_ia32_pause();
        atomic_store(&r->go, 1);
    } else {
        while (!atomic_load(&r->go)) __builtin_ia32_pause();
    }
    r->start[tid] = probe_now();
    r->work(tid, r->arg);
    r->end[tid] = probe_now();
}

static void *probe_thread_main(void *p) {
    struct probe_thread_arg *a = p;
    probe_thread_body(a->run, a->tid);
    return NULL;
}

/* returns the seconds from the first thread's start to the last one's end */
static double probe_run_once(probe_work_fn work, void *arg, int nthreads) {
    static struct probe_run r;
    static struct probe_thread_arg args[CPU_SETSIZE];
    static pthread_t th[CPU_SETSIZE];
    r.work = work;
    r.arg = arg;
    r.nthreads = nthreads;
    atomic_store(&r.arrived, 0);
    atomic_store(&r.go, 0);
    for (int t = 1; t < nthreads; ++t) {
        args[t].run = &r;
        args[t].tid = t;
        if (pthread_create(&th[t], NULL, probe_thread_main, &args[t]) != 0) {
            fprintf(stderr, "probe: pthread_create failed\n");
            exit(1);
        }
    }
    probe_thread_body(&r, 0);
    double first = r.start[0], last = r.end[0];
    for (int t = 1; t < nthreads; ++t) {
        pthread_join(th[t], NULL);
        if (r.start[t] < first) first = r.start[t];
        if (r.end[t] > last) last = r.end[t];
    }
    probe_pin_self(probe_cpu_of(0));
    return last - first;
}

/* ---- core clock: a dependent chain of register adds (1 cycle each on every x86 core we
 * know; register operand, not an immediate, so no core folds it at rename) */
#define PROBE_CLOCK_ADDS_PER_ITER 100
static void probe_clock_chain(long iters) {
    uint64_t x = 0, one = 1;
    __asm__ volatile(
        "1:\n\t"
        ".rept 100\n\t"
        "add %[one], %[x]\n\t"
        ".endr\n\t"
        "dec %[n]\n\t"
        "jnz 1b\n\t"
        : [x] "+r"(x), [n] "+r"(iters)
        : [one] "r"(one)
        : "cc");
}

struct probe_clock_arg { long iters; };
static void probe_clock_work(int tid, void *p) {
    (void)tid;
    probe_clock_chain(((struct probe_clock_arg *)p)->iters);
}

/* GHz per thread (over the team's span), best of reps runs of about ms milliseconds */
static double probe_clock_ghz(int nthreads, double ms, int reps) {
    struct probe_clock_arg a = {10000};
    double s = probe_run_once(probe_clock_work, &a, 1);
    double ghz_guess = (double)a.iters * PROBE_CLOCK_ADDS_PER_ITER / s * 1e-9;
    a.iters = (long)(ghz_guess * 1e9 * ms * 1e-3 / PROBE_CLOCK_ADDS_PER_ITER) + 1;
    double best = 0;
    for (int i = 0; i < reps; ++i) {
        s = probe_run_once(probe_clock_work, &a, nthreads);
        double ghz = (double)a.iters * PROBE_CLOCK_ADDS_PER_ITER / s * 1e-9;
        if (ghz > best) best = ghz;
    }
    return best;
}

/* the all-threads clock well below the 1-thread clock: the threads share a core (the host
 * co-schedules vCPUs) or other work runs; the all-threads figures are then low */
static void probe_check_clocks(const double *ghz, int tcount, int nthreads) {
    if (tcount > 1 && ghz[1] < 0.9 * ghz[0])
        printf("WARNING: the clock chain runs at %.2f GHz per thread on %d threads but %.2f GHz alone: the "
               "threads share a core or the machine is busy; all-threads figures are low\n",
               ghz[1], nthreads, ghz[0]);
}

#endif
