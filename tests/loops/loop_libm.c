/* A loop calling a libm function that glibc chooses when the program is loaded (exp is an
 * ifunc: __exp_fma on a CPU with FMA, another variant elsewhere), for measure --loops (issue
 * 36): the call names exp, the code that runs is named otherwise, and the loop's point with
 * its calls holds it all the same (the Valgrind tool saw where the PLT stub's jump went).
 *
 * usage: loop_libm N */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) double exp_sum(long n, const double *x)
{
    double s = 0.0;
    for (long i = 0; i < n; i++) /* exp sum */
        s += exp(x[i]);
    return s;
}

int main(int argc, char **argv)
{
    const long n = argc > 1 ? atol(argv[1]) : 0;
    if (n < 1) {
        fprintf(stderr, "usage: %s N\n", argv[0]);
        return 2;
    }
    double *x = malloc(sizeof(double) * n);
    if (!x) return 1;
    for (long i = 0; i < n; i++) x[i] = (double)(i % 100) / 50.0;
    printf("%g\n", exp_sum(n, x));
    free(x);
    return 0;
}
