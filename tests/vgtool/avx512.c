/* An AVX-512 instruction, which Valgrind cannot run: the tool must say so
 * clearly (test vgtool.avx512_message). Compiled with -mavx512f. */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    double x[8];
    for (int i = 0; i < 8; i++) x[i] = (double)(argc + i);
    __m512d a = _mm512_loadu_pd(x);
    a = _mm512_add_pd(a, a);
    _mm512_storeu_pd(x, a);
    printf("%g %s\n", x[3], argv[0]);
    return 0;
}
