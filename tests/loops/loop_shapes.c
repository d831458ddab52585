/* Functions of known loop shapes and counts, for measure --loops (issue 36): the
 * loops found in their machine code, the source lines they are named by, and
 * (under the Valgrind tool) their counts. Built at -O2 and -O3 with -g.
 *
 * Each loop's first line ends in a comment naming it (daxpy, sweep, ...): the unit tests
 * find the lines by these names.
 *
 * usage: loop_shapes N [M]   runs every function on arrays of N doubles (the sizes come
 * from argv, so the compiler cannot fold the trip counts), and the multiplies on M x M
 * matrices (M a multiple of 8; by default N/1000 rounded down to one, at least 8). */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

/* No loop. */
NOINLINE double no_loop(double a, double b) { return a * b + 1.0; }

/* One loop: 2n FLOPs. */
NOINLINE void daxpy(long n, double a, const double *restrict x, double *restrict y)
{
    for (long i = 0; i < n; i++) /* daxpy */
        y[i] += a * x[i];
}

/* Three sibling loops: a 3-point stencil sweep (4 (n - 2) FLOPs), a reduction (n)
 * and a scaled copy (n: a plain copy would become a memcpy call). */
NOINLINE double sweep_reduce_copy(long n, const double *restrict a, double *restrict b,
                                  double *restrict c)
{
    for (long i = 1; i < n - 1; i++) /* sweep */
        b[i] = 0.25 * (a[i - 1] + a[i + 1]) + 0.5 * a[i];
    double s = 0.0;
    for (long i = 1; i < n - 1; i++) /* reduce */
        s += b[i];
    for (long i = 0; i < n; i++) /* copy */
        c[i] = 2.0 * a[i];
    return s;
}

/* A triply nested multiply: 2 m^3 FLOPs in the innermost loop, depth 3. */
NOINLINE void matmul(long m, const double *restrict a, const double *restrict b, double *restrict c)
{
    for (long i = 0; i < m; i++) /* matmul i */
        for (long k = 0; k < m; k++) { /* matmul k */
            const double aik = a[i * m + k];
            for (long j = 0; j < m; j++) /* matmul j */
                c[i * m + j] += aik * b[k * m + j];
        }
}

/* The same multiply in blocks of 8 rows and columns of a (m a multiple of 8):
 * five loops, depth 5. */
NOINLINE void matmul_blocked(long m, const double *restrict a, const double *restrict b,
                             double *restrict c)
{
    for (long ii = 0; ii < m; ii += 8) /* blocked ii */
        for (long kk = 0; kk < m; kk += 8) /* blocked kk */
            for (long i = ii; i < ii + 8; i++) /* blocked i */
                for (long k = kk; k < kk + 8; k++) { /* blocked k */
                    const double aik = a[i * m + k];
                    for (long j = 0; j < m; j++) /* blocked j */
                        c[i * m + j] += aik * b[k * m + j];
                }
}

/* A loop whose body calls a function (2 FLOPs a call): one loop, the call inside it. */
NOINLINE double add_scaled(double s, double x) { return s + 3.0 * x; }
NOINLINE double call_in_loop(long n, const double *x)
{
    double s = 0.0;
    for (long i = 0; i < n; i++) /* calling */
        s = add_scaled(s, x[i]);
    return s;
}

/* A loop calling a function through a pointer (chosen at run time: no call the code
 * names), 2 FLOPs a call: its calls' FLOPs are the loop's by where the calls went. */
NOINLINE double halve_add(double s, double x) { return 0.5 * s + x; }
NOINLINE double calls_through_pointer(long n, const double *x, double (*step)(double, double))
{
    double s = 0.0;
    for (long i = 0; i < n; i++) /* calling through a pointer */
        s = step(s, x[i]);
    return s;
}

/* A loop calling a function with a loop of its own: dot's 2 cols FLOPs a call, called rows
 * times from one place, and the loop's own add: 2 rows cols + rows FLOPs with its calls. */
NOINLINE double dot(long n, const double *x, const double *y)
{
    double s = 0.0;
    for (long i = 0; i < n; i++) /* dot */
        s += x[i] * y[i];
    return s;
}
NOINLINE double calls_dot(long rows, long cols, const double *x, const double *y)
{
    double s = 0.0;
    for (long r = 0; r < rows; r++) /* calling dot */
        s += dot(cols, x + r * cols, y);
    return s;
}

/* A loop calling a function whose last act is a tail call (a jump to sum_scaled, not a call):
 * sum_scaled's 2 (cols - 1) FLOPs a call are the loop's too: 2 rows (cols - 1) + rows with its calls. */
NOINLINE double sum_scaled(long n, const double *x)
{
    double s = 0.0;
    for (long i = 0; i < n; i++) /* sum scaled */
        s += 2.0 * x[i];
    return s;
}
NOINLINE double offset_sum(long n, const double *x) { return sum_scaled(n - 1, x + 1); }
NOINLINE double calls_offset_sum(long rows, long cols, const double *x)
{
    double s = 0.0;
    for (long r = 0; r < rows; r++) /* calling offset_sum */
        s += offset_sum(cols, x + r * cols);
    return s;
}

/* A loop left early by a break: one loop with two exits. */
NOINLINE long first_above(long n, const double *x, double limit)
{
    long found = -1;
    for (long i = 0; i < n; i++) { /* searching */
        if (x[i] > limit) {
            found = i;
            break;
        }
    }
    return found;
}

/* A switch in a loop: at -O2 a jump table, an indirect jump whose table the static graph
 * reads. 10 FLOPs every 9 elements (op[i] = i % 9: 1, 1, 1, 2, 2, 2, 1, and none for the
 * default's sign flip). */
NOINLINE double dispatch(long n, const int *op, const double *x)
{
    double s = 1.0;
    for (long i = 0; i < n; i++) { /* dispatch */
        switch (op[i]) {
        case 0: s += x[i]; break;
        case 1: s -= x[i]; break;
        case 2: s *= x[i]; break;
        case 3: s /= x[i] + 1.0; break;
        case 4: s += 2.0 * x[i]; break;
        case 5: s -= 2.0 * x[i]; break;
        case 6: s *= 0.5; break;
        default: s = -s; break;
        }
    }
    return s;
}

/* A computed goto (GNU C labels as values) in a loop: an indirect jump through a table of
 * addresses, which no compare bounds: the static graph cannot follow it. */
NOINLINE double threaded(long n, const int *op, const double *x)
{
    static void *const step[] = {&&add, &&sub, &&half};
    double s = 0.0;
    long i = 0;
    if (n <= 0) return s;
    goto *step[op[0] % 3];
add:
    s += x[i];
    goto next;
sub:
    s -= x[i];
    goto next;
half:
    s *= 0.5;
next:
    if (++i < n) goto *step[op[i] % 3];
    return s;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s N [M]\n", argv[0]);
        return 2;
    }
    const long n = atol(argv[1]);
    long m = argc > 2 ? atol(argv[2]) : (n / 1000) / 8 * 8;
    if (m < 8 || m % 8) {
        if (argc > 2) {
            fprintf(stderr, "M must be a multiple of 8, at least 8\n");
            return 2;
        }
        m = 8;
    }
    const long len = n > m * m ? n : m * m;
    double *x = malloc(sizeof(double) * len), *y = malloc(sizeof(double) * len),
           *z = malloc(sizeof(double) * len);
    int *op = malloc(sizeof(int) * len);
    if (!x || !y || !z || !op) return 1;
    for (long i = 0; i < len; i++) {
        x[i] = (double)(i % 7);
        y[i] = 1.0;
        z[i] = 0.0;
        op[i] = (int)(i % 9);
    }
    double r = no_loop(x[1], y[1]);
    daxpy(n, 2.5, x, y);
    r += sweep_reduce_copy(n, x, y, z);
    matmul(m, x, y, z);
    matmul_blocked(m, x, y, z);
    r += call_in_loop(n, x);
    r += calls_through_pointer(n, x, argc > 3 ? add_scaled : halve_add);
    r += calls_dot(n / 100, 100, x, y);
    r += calls_offset_sum(n / 100, 100, x);
    r += (double)first_above(n, x, 5.5);
    r += dispatch(n, op, x);
    r += threaded(n, op, x);
    printf("%g %g\n", r, z[m * m - 1]);
    free(x);
    free(y);
    free(z);
    free(op);
    return 0;
}
