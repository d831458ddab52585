#include <roofline/likwid-marker.h>

int main(void) {
    LIKWID_MARKER_INIT;
    LIKWID_MARKER_START("consumer_likwid");
    LIKWID_MARKER_STOP("consumer_likwid");
    LIKWID_MARKER_CLOSE;
    return 0;
}
