/* A region, then a full disk (scenario measure_temp_dir_full): the region "work" runs 4e7 FLOPs;
 * then, when FILL_PATH is set and names no file yet, the program writes zeros there until the
 * disk is full, before the marker library writes its regions at exit; FILL_LEAVE bytes are then
 * given back (the file cut shorter), room for the regions but not for the Valgrind tool's
 * counts. A later run (the counting run under Valgrind) finds the file and leaves the disk as it is. */
#include <roofline/roofline.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(void) {
    long n = 1000000; double* a = malloc(n * sizeof *a); double s = 0;
    for (long i = 0; i < n; i++) a[i] = i;
    roofline_begin("work");
    for (int r = 0; r < 20; r++) for (long i = 0; i < n; i++) s += a[i] * 0.5;
    roofline_end("work");
    printf("%g\n", s); fflush(stdout);
    const char* path = getenv("FILL_PATH");
    if (path) {
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
        if (fd >= 0) {
            static char zeros[65536];
            off_t size = 0;
            ssize_t n;
            while ((n = write(fd, zeros, sizeof zeros)) > 0) size += n;
            const char* leave = getenv("FILL_LEAVE");
            if (leave && atol(leave) > 0 && atol(leave) < size) ftruncate(fd, size - atol(leave));
            close(fd);
        }
    }
    return 0;
}
