// A stand-in CUDA program for testing --offload without a GPU: it does what the CUDA driver
// does with CUDA_INJECTION64_PATH at a program's first CUDA call (load the library and call its
// InitializeInjection, then create the first context and make three driver calls: the stand-in
// libcupti is told), then exits with the status given as its first argument. Without the
// variable (a run under ncu, which injects itself) it only exits.
//   fake_cuda_driver STATUS [spawn]
// With "spawn" it is a run of two CUDA processes: it first runs a copy of itself (another
// process, injected on its own), and after its own injection forks a child that exits without
// exec (it inherits the library, whose summary must still be written once, by this process).
#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

int main(int argc, char** argv) {
    const int status = argc > 1 ? std::atoi(argv[1]) : 0;
    const bool spawn = argc > 2 && std::strcmp(argv[2], "spawn") == 0;
    const char* path = std::getenv("CUDA_INJECTION64_PATH");
    if (!path || !*path) return status;
    if (spawn) {
        const pid_t other = fork();
        if (other == 0) {
            execl("/proc/self/exe", argv[0], "0", static_cast<char*>(nullptr));
            _exit(127);
        }
        int st = 0;
        waitpid(other, &st, 0);
    }
    void* library = dlopen(path, RTLD_NOW);
    if (!library) {
        std::fprintf(stderr, "fake driver: %s\n", dlerror());
        return 99;
    }
    using Init = int (*)();
    auto init = reinterpret_cast<Init>(dlsym(library, "InitializeInjection"));
    if (!init) {
        std::fprintf(stderr, "fake driver: no InitializeInjection in %s\n", path);
        return 98;
    }
    init();
    // Then the first context, as cuInit and the runtime create it: CUPTI (the stand-in, where the
    // library found one) hears of it.
    // Then three driver calls, of which CUPTI's driver domain hears while it is on.
    if (const char* cupti = std::getenv("ROOFLINE_CUPTI_LIB"); cupti && *cupti)
        if (void* lib = dlopen(cupti, RTLD_NOW | RTLD_NOLOAD)) {
            if (auto created = reinterpret_cast<void (*)()>(dlsym(lib, "fake_cupti_context_created"))) created();
            if (auto call = reinterpret_cast<void (*)(const char*)>(dlsym(lib, "fake_cupti_driver_call")))
                for (const char* name : {"cuMemAllocManaged", "cuLaunchKernel", "cuMemcpyHtoD_v2"}) call(name);
        }
    if (spawn) {
        std::fflush(nullptr);
        const pid_t child = fork();
        if (child == 0) std::exit(0);  // runs the atexit handlers it inherited
        int st = 0;
        waitpid(child, &st, 0);
    }
    std::printf("fake CUDA program ran\n");
    return status;
}
