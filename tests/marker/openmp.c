/* OpenMP teams forked inside regions opened on one thread (run.sh's case openmp runs it with
 * OMP_NUM_THREADS=2, OMP_WAIT_POLICY=passive): the regions' threads are the teams'. */
#include <roofline/roofline.h>

#include <omp.h>
#include <stdio.h>

#include "common.h"

int main(void) {
    double s = 0;
    roofline_begin("team");
#pragma omp parallel reduction(+ : s)
    s += spin_ms(20);
    roofline_end("team");

    /* Only the second thread works; the first waits (passively) at the join. */
    roofline_begin("worker_only");
#pragma omp parallel reduction(+ : s)
    if (omp_get_thread_num() == 1) s += spin_ms(30);
    roofline_end("worker_only");

    roofline_begin("serial");
    s += spin_ms(5);
    roofline_end("serial");

    roofline_begin("loop");
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : s)
    for (int i = 0; i < 8; ++i) s += spin_ms(1);
    roofline_end("loop");

    roofline_begin("three");
#pragma omp parallel num_threads(3) reduction(+ : s)
    s += spin_ms(1);
    roofline_end("three");

    /* Marked inside the team: each thread opens it (counted as before). */
#pragma omp parallel reduction(+ : s)
    {
        roofline_begin("in_team");
        /* Open on both at once: without it a thread started late (a loaded machine, ASan) ran its
         * 2 ms after the other's had ended, and the region read 1 thread. */
#pragma omp barrier
        s += spin_ms(2);
        roofline_end("in_team");
    }
    printf("openmp: %g\n", s > 0 ? 1.0 : 0.0);
    return 0;
}
