/* Preloaded by the scenario measure_interrupt_keeps_regions: a rename() whose source name holds
 * ".tmp." (the marker library's file being put in place) first creates the file named by
 * STALL_RENAME_READY, then waits until the FIFO named by STALL_RENAME_FIFO is written to and
 * closed. The test so holds the library's write at exit at a known point and sends a stop signal
 * during it. Every other rename goes straight to the C library's. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int rename(const char* from, const char* to) {
    int (*real)(const char*, const char*) = (int (*)(const char*, const char*))dlsym(RTLD_NEXT, "rename");
    if (!real) return -1;
    const char* fifo = getenv("STALL_RENAME_FIFO");
    const char* ready = getenv("STALL_RENAME_READY");
    if (fifo && ready && strstr(from, ".tmp.")) {
        const int made = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (made >= 0) close(made);
        const int fd = open(fifo, O_RDONLY); /* waits for the test to open it for writing */
        char c;
        if (fd >= 0) {
            while (read(fd, &c, 1) > 0) {
            }
            close(fd);
        }
    }
    return real(from, to);
}
