/* C API: nesting, pthreads, a mismatched end, an end without begin and a region
 * left open. With argument "finalize" results are written by roofline_finalize(),
 * otherwise at exit. */
#include <roofline/roofline.h>

#include <pthread.h>
#include <string.h>

#include "common.h"

static void* worker(void* arg) {
    (void)arg;
    roofline_begin("worker");
    sleep_ms(30);
    roofline_end("worker");
    return NULL;
}

int main(int argc, char** argv) {
    roofline_init();
    roofline_begin("outer");
    for (int i = 0; i < 3; ++i) {
        roofline_begin("inner");
        sleep_ms(20);
        roofline_end("inner");
    }
    roofline_end("outer");

    pthread_t threads[2];
    for (int i = 0; i < 2; ++i) pthread_create(&threads[i], NULL, worker, NULL);
    for (int i = 0; i < 2; ++i) pthread_join(threads[i], NULL);

    roofline_begin("a");
    roofline_end("b"); /* mismatched: reported, ignored */
    roofline_end("a");
    roofline_end("never_opened");

    roofline_begin("left \"open\"");
    sleep_ms(10);
    if (argc > 1 && strcmp(argv[1], "finalize") == 0) {
        roofline_finalize();
        roofline_begin("after_finalize"); /* not recorded */
        roofline_end("after_finalize");
    }
    return 0;
}
