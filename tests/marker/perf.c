/* Perf engine: a busy and a sleeping region, on main and on a second thread. */
#include <roofline/roofline.h>

#include <pthread.h>

#include "common.h"

static void* busy_thread(void* arg) {
    (void)arg;
    roofline_begin("busy");
    spin_ms(40);
    roofline_end("busy");
    return NULL;
}

int main(void) {
    roofline_begin("busy");
    spin_ms(40);
    roofline_end("busy");
    pthread_t t;
    pthread_create(&t, NULL, busy_thread, NULL);
    pthread_join(t, NULL);
    roofline_begin("sleepy");
    sleep_ms(40);
    roofline_end("sleepy");
    return 0;
}
