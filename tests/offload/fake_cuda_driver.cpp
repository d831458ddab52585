// A stand-in CUDA program for testing --offload without a GPU: it does what the CUDA driver
// does with CUDA_INJECTION64_PATH at a program's first CUDA call (load the library and call its
// InitializeInjection), then exits with the status given as its first argument. Without the
// variable (a run under ncu, which injects itself) it only exits.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    const int status = argc > 1 ? std::atoi(argv[1]) : 0;
    const char* path = std::getenv("CUDA_INJECTION64_PATH");
    if (!path || !*path) return status;
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
    std::printf("fake CUDA program ran\n");
    return status;
}
