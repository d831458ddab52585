/* A shared library for measure --loops-library (issue 36), built stripped (no symbol table
 * but the exported one, no debug information): its loops are named by the library, their
 * function and offset. */
double sum_squares(long n, const double *x)
{
    double s = 0.0;
    for (long i = 0; i < n; i++) /* 2 n FLOPs: a reduction, not vectorized without -ffast-math */
        s += x[i] * x[i];
    return s;
}

void scale(long n, double a, double *x)
{
    for (long i = 0; i < n; i++) /* n FLOPs */
        x[i] *= a;
}

/* Not exported: stripped, the library has no symbol for it; its unwind table has its range. */
__attribute__((noinline)) static double halve_all(long n, double *x)
{
    for (long i = 0; i < n; i++) /* n FLOPs */
        x[i] *= 0.5;
    return x[0];
}

double halve(long n, double *x) { return halve_all(n, x) + 1.0; }
