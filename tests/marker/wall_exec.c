/* A region's time is its wall time, and regions survive an exec.
 *   wall_exec sequential  two threads run region "seq" (40 ms each) one after the other,
 *                         then two run "overlap" (40 ms each) at once
 *   wall_exec exec PROG [ARGS]  region "before" (20 ms), "open" left open, then execv PROG
 *   wall_exec execvp|execl|execlp|execle|execve PROG   the same through that call
 *   wall_exec fail        region "before", an exec that fails, region "after_fail", exit
 *   wall_exec again       region "after" (10 ms), then exit (the image an exec started)
 *   wall_exec forked      region "parent"; a fork()ed child execs /bin/true; wait; exit
 *   wall_exec system PROG region "parent" (20 ms), roofline_finalize(), then system("PROG again")
 *   wall_exec forkexec PROG  region "parent" open while a fork()ed child execs PROG again */
#define _GNU_SOURCE
#include <roofline/roofline.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"

extern char** environ;

static void* run(void* name) {
    roofline_begin((const char*)name);
    sleep_ms(40);
    roofline_end((const char*)name);
    return NULL;
}

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "sequential") == 0) {
        pthread_t t;
        for (int i = 0; i < 2; ++i) {
            pthread_create(&t, NULL, run, "seq");
            pthread_join(t, NULL);
        }
        pthread_t both[2];
        for (int i = 0; i < 2; ++i) pthread_create(&both[i], NULL, run, "overlap");
        for (int i = 0; i < 2; ++i) pthread_join(both[i], NULL);
        return 0;
    }
    if (strcmp(mode, "again") == 0) {
        roofline_begin("after");
        sleep_ms(10);
        roofline_end("after");
        return 0;
    }
    if (strcmp(mode, "fail") == 0) {
        roofline_begin("before");
        sleep_ms(20);
        roofline_end("before");
        char* args[] = {"/nonexistent/program", NULL};
        execv(args[0], args);
        roofline_begin("after_fail");
        sleep_ms(10);
        roofline_end("after_fail");
        return 0;
    }
    if (strcmp(mode, "forked") == 0) {
        roofline_begin("parent");
        pid_t pid = fork();
        if (pid == 0) {
            execl("/bin/true", "true", (char*)NULL);
            _exit(127);
        }
        waitpid(pid, NULL, 0);
        sleep_ms(10);
        roofline_end("parent");
        return 0;
    }
    /* Another program the process starts, loading the library too: its regions are not this one's. */
    if (strcmp(mode, "system") == 0 && argc > 2) {
        roofline_begin("parent");
        sleep_ms(20);
        roofline_end("parent");
        roofline_finalize(); /* written now (LIKWID_MARKER_CLOSE): the child's exit must not replace it */
        char command[4096];
        snprintf(command, sizeof command, "'%s' again", argv[2]);
        return system(command) == 0 ? 0 : 1;
    }
    if (strcmp(mode, "forkexec") == 0 && argc > 2) {
        roofline_begin("parent");
        pid_t pid = fork();
        if (pid == 0) {
            execl(argv[2], argv[2], "again", (char*)NULL);
            _exit(127);
        }
        waitpid(pid, NULL, 0);
        roofline_end("parent");
        return 0;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: wall_exec sequential|again|fail|forked|exec|execvp|execl|execlp|execle|execve PROG...\n");
        return 2;
    }
    roofline_begin("before");
    sleep_ms(20);
    roofline_end("before");
    roofline_begin("open");
    char** rest = argv + 2;
    if (strcmp(mode, "exec") == 0) execv(rest[0], rest);
    else if (strcmp(mode, "execvp") == 0) execvp(rest[0], rest);
    else if (strcmp(mode, "execve") == 0) execve(rest[0], rest, environ);
    else if (strcmp(mode, "execl") == 0) execl(rest[0], rest[0], argc > 3 ? rest[1] : (char*)NULL, (char*)NULL);
    else if (strcmp(mode, "execlp") == 0) execlp(rest[0], rest[0], argc > 3 ? rest[1] : (char*)NULL, (char*)NULL);
    else if (strcmp(mode, "execle") == 0)
        execle(rest[0], rest[0], argc > 3 ? rest[1] : (char*)NULL, (char*)NULL, environ);
    perror("exec");
    return 1;
}
