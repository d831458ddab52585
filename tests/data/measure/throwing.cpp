// A function that some calls leave by an exception: --region-function must
// time it (the unwinder meets the return addresses the call timer replaced)
// and the program must behave as it does natively.
//
//   throwing CALLS N     every third call throws after its N multiply-adds
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

__attribute__((noinline)) double risky(int call, long n) {
    double s = 0;
    for (long k = 0; k < n; ++k) s += static_cast<double>(k) * 0.5;
    if (call % 3 == 0) throw std::runtime_error("every third call fails");
    return s;
}

int main(int argc, char** argv) {
    const int calls = argc > 1 ? std::atoi(argv[1]) : 9;
    const long n = argc > 2 ? std::atol(argv[2]) : 100000;
    double total = 0;
    int caught = 0;
    for (int i = 0; i < calls; ++i) {
        try {
            total += risky(i, n);
        } catch (const std::exception&) {
            ++caught;
        }
    }
    std::printf("throwing: total=%g caught=%d\n", total, caught);
    return caught == (calls + 2) / 3 ? 0 : 1;
}
