/* The exec family, wrapped: a process that execs another leaves no exit behind, so no
 * atexit handler writes its regions. Each wrapper lets the marker library write them and
 * point the new image at the next file (roofline_marker_before_exec, marker.cpp), then calls
 * the C library's own function. Exported from the shared library, these come before the C
 * library's in the program's symbol lookup; exec calls made inside the C library itself
 * (system, popen, posix_spawn) start children and are not wrapped: the process goes on. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

extern char** environ;

char* const* roofline_marker_before_exec(char* const* envp, void** storage);
void roofline_marker_exec_done(void* storage);

typedef int (*execve_fn)(const char*, char* const[], char* const[]);
typedef int (*fexecve_fn)(int, char* const[], char* const[]);
typedef int (*execveat_fn)(int, const char*, char* const[], char* const[], int);

static void* next_symbol(const char* name) {
    void* f = dlsym(RTLD_NEXT, name);
    if (!f) errno = ENOSYS;
    return f;
}

static execve_fn real_execve, real_execvpe;
static fexecve_fn real_fexecve;
static execveat_fn real_execveat;

/* Looked up at load: a vfork child (which must not allocate) finds them ready. */
__attribute__((constructor)) static void find_real_exec(void) {
    real_execve = (execve_fn)dlsym(RTLD_NEXT, "execve");
    real_execvpe = (execve_fn)dlsym(RTLD_NEXT, "execvpe");
    real_fexecve = (fexecve_fn)dlsym(RTLD_NEXT, "fexecve");
    real_execveat = (execveat_fn)dlsym(RTLD_NEXT, "execveat");
}

static int call_execve(const char* path, char* const argv[], char* const envp[]) {
    if (!real_execve) real_execve = (execve_fn)next_symbol("execve");
    if (!real_execve) return -1;
    void* storage;
    char* const* env = roofline_marker_before_exec(envp, &storage);
    const int rc = real_execve(path, argv, env);
    const int saved = errno;
    roofline_marker_exec_done(storage);
    errno = saved;
    return rc;
}

static int call_execvpe(const char* file, char* const argv[], char* const envp[]) {
    if (!real_execvpe) real_execvpe = (execve_fn)next_symbol("execvpe");
    if (!real_execvpe) return -1;
    void* storage;
    char* const* env = roofline_marker_before_exec(envp, &storage);
    const int rc = real_execvpe(file, argv, env);
    const int saved = errno;
    roofline_marker_exec_done(storage);
    errno = saved;
    return rc;
}

EXPORT int execve(const char* path, char* const argv[], char* const envp[]) { return call_execve(path, argv, envp); }
EXPORT int execv(const char* path, char* const argv[]) { return call_execve(path, argv, environ); }
EXPORT int execvpe(const char* file, char* const argv[], char* const envp[]) {
    return call_execvpe(file, argv, envp);
}
EXPORT int execvp(const char* file, char* const argv[]) { return call_execvpe(file, argv, environ); }

EXPORT int fexecve(int fd, char* const argv[], char* const envp[]) {
    if (!real_fexecve) real_fexecve = (fexecve_fn)next_symbol("fexecve");
    if (!real_fexecve) return -1;
    void* storage;
    char* const* env = roofline_marker_before_exec(envp, &storage);
    const int rc = real_fexecve(fd, argv, env);
    const int saved = errno;
    roofline_marker_exec_done(storage);
    errno = saved;
    return rc;
}

EXPORT int execveat(int dirfd, const char* path, char* const argv[], char* const envp[], int flags) {
    if (!real_execveat) real_execveat = (execveat_fn)next_symbol("execveat");
    if (!real_execveat) return -1;
    void* storage;
    char* const* env = roofline_marker_before_exec(envp, &storage);
    const int rc = real_execveat(dirfd, path, argv, env, flags);
    const int saved = errno;
    roofline_marker_exec_done(storage);
    errno = saved;
    return rc;
}

/* execl, execle, execlp: the arguments gathered into an argv (on the stack: no allocation). */
#define GATHER_ARGS(arg0, last)                                   \
    size_t n = 1;                                                 \
    va_list ap;                                                   \
    va_start(ap, arg0);                                           \
    while (va_arg(ap, const char*)) ++n;                          \
    va_end(ap);                                                   \
    char** argv = __builtin_alloca((n + 1) * sizeof(char*));      \
    argv[0] = (char*)(arg0);                                      \
    va_start(ap, arg0);                                           \
    for (size_t i = 1; i <= n; ++i) argv[i] = va_arg(ap, char*);  \
    last;                                                         \
    va_end(ap)

EXPORT int execl(const char* path, const char* arg0, ...) {
    GATHER_ARGS(arg0, (void)0);
    return call_execve(path, argv, environ);
}

EXPORT int execlp(const char* file, const char* arg0, ...) {
    GATHER_ARGS(arg0, (void)0);
    return call_execvpe(file, argv, environ);
}

EXPORT int execle(const char* path, const char* arg0, ...) {
    char* const* envp;
    GATHER_ARGS(arg0, envp = va_arg(ap, char* const*));
    return call_execve(path, argv, envp);
}
