/* Two threads, each pinned to a CPU given on the command line, each filling and then
 * re-reading an array of its own, strictly in turn (A fills, B fills, A reads, B
 * reads, ...), so when they share a simulated core their arrays (together larger than
 * its L2) evict each other every pass, and on two cores every pass hits in L2.
 * usage: cache_threads CPU_A CPU_B BYTES PASSES
 * Exits 3 when a CPU cannot be pinned (fewer CPUs here): the checker skips then. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

static long bytes;
static int passes;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int turn = 0; /* 2 * step + thread: step 0 fills, step p + 1 is pass p */

struct job {
  int id, cpu;
  double sum;
};

static void wait_turn(int t)
{
  pthread_mutex_lock(&lock);
  while (turn != t) pthread_cond_wait(&changed, &lock);
  pthread_mutex_unlock(&lock);
}

static void end_turn(void)
{
  pthread_mutex_lock(&lock);
  turn++;
  pthread_cond_broadcast(&changed);
  pthread_mutex_unlock(&lock);
}

static void *sweep(void *arg)
{
  struct job *j = arg;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(j->cpu, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) {
    fprintf(stderr, "cannot pin a thread to CPU %d\n", j->cpu);
    exit(3);
  }
  const long n = bytes / 8;
  double *a = malloc(bytes);
  wait_turn(j->id);
  for (long i = 0; i < n; i++) a[i] = (double)i;
  end_turn();
  for (int p = 0; p < passes; p++) {
    wait_turn(2 * (p + 1) + j->id);
    for (long i = 0; i < n; i++) j->sum += a[i];
    end_turn();
  }
  free(a);
  return NULL;
}

int main(int argc, char **argv)
{
  if (argc != 5) {
    fprintf(stderr, "usage: cache_threads CPU_A CPU_B BYTES PASSES\n");
    return 2;
  }
  struct job jobs[2] = {{0, atoi(argv[1]), 0}, {1, atoi(argv[2]), 0}};
  bytes = atol(argv[3]);
  passes = atoi(argv[4]);
  pthread_t t[2];
  for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, sweep, &jobs[i]);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  printf("%g\n", jobs[0].sum + jobs[1].sum);
  return 0;
}
