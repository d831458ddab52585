/* A small blocked multiply in a marker region, for measure --repeat (issue 35): each run
 * appends a line to the file in argv[1] once it is done, so a test counts the runs made;
 * argv[2] (optional) is a pause in milliseconds before the multiply, so a test can stop
 * roofline between runs. */
#include <roofline/roofline.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 96
#define B 32
static double a[N][N], b[N][N], c[N][N];

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    const long pause_ms = argc > 2 ? atol(argv[2]) : 0;
    if (pause_ms > 0) {
        struct timespec ts = {pause_ms / 1000, (pause_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) a[i][j] = 1.0 / (i + j + 1), b[i][j] = i - j;
    roofline_begin("multiply");
    for (int ii = 0; ii < N; ii += B)
        for (int kk = 0; kk < N; kk += B)
            for (int jj = 0; jj < N; jj += B)
                for (int i = ii; i < ii + B; ++i)
                    for (int k = kk; k < kk + B; ++k)
                        for (int j = jj; j < jj + B; ++j) c[i][j] += a[i][k] * b[k][j];
    roofline_end("multiply");
    FILE* f = fopen(argv[1], "a");
    if (!f) return 3;
    fprintf(f, "run %g\n", c[N / 2][N / 3]);
    fclose(f);
    return 0;
}
