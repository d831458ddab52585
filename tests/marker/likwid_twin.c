/* likwid.c written against roofline.h: must give the same regions. */
#include <roofline/roofline.h>

#include "common.h"

int main(void) {
    roofline_init();
    for (int i = 0; i < 2; ++i) {
        roofline_begin("compute");
        sleep_ms(10);
        roofline_end("compute");
    }
    roofline_begin("io");
    roofline_begin("compute");
    sleep_ms(5);
    roofline_end("compute");
    roofline_end("io");
    roofline_finalize();
    return 0;
}
