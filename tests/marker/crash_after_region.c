/* A region that finishes, then a crash (issue 35): with argument "crash" the program writes
 * through a null pointer after the region "sum" has ended, so it dies by SIGSEGV before its
 * exit handlers. 20 sweeps of 1e6 doubles, 2 FLOPs each: 4e7 FLOPs in "sum". */
#include <roofline/roofline.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
    long n = 1000000; double* a = malloc(n * sizeof *a); double s = 0;
    for (long i = 0; i < n; i++) a[i] = i;
    roofline_begin("sum");
    for (int r = 0; r < 20; r++) for (long i = 0; i < n; i++) s += a[i] * 0.5;
    roofline_end("sum");
    printf("%g\n", s); fflush(stdout);
    if (argc > 1) { volatile int* p = 0; *p = 1; }
    return 0;
}
