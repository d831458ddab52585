#include "bench/isa_support.hpp"

#include "topo/cpu_features.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>

namespace roofline {
namespace {

int rank(Isa isa) { return isa == Isa::avx512 ? 2 : isa == Isa::avx2 ? 1 : 0; }

// ROOFLINE_MAX_ISA=sse2|avx2|avx512 caps the kernels used, to measure what code
// built for an older ISA can reach (as MKL_ENABLE_INSTRUCTIONS does for MKL).
// Case does not matter; unset or empty means no cap. Anything else is refused
// (max_isa_environment_problem) rather than read as "no cap": a typo must not
// quietly measure AVX-512 code for someone asking about AVX2.
std::optional<int> max_rank_named(std::string text) {
    for (auto& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (text.empty()) return 2;
    if (text == "sse2") return 0;
    if (text == "avx2") return 1;
    if (text == "avx512") return 2;
    return std::nullopt;
}

int max_rank_from_environment() {
    const char* cap = std::getenv("ROOFLINE_MAX_ISA");
    if (!cap) return 2;
    const auto rank = max_rank_named(cap);
    if (!rank) throw std::invalid_argument(max_isa_environment_problem());
    return *rank;
}

} // namespace

std::string max_isa_environment_problem() {
    const char* cap = std::getenv("ROOFLINE_MAX_ISA");
    if (!cap || max_rank_named(cap)) return {};
    std::string shown;
    for (const char c : std::string(cap).substr(0, 40))  // the environment is outside text: no control bytes
        shown += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
    return "ROOFLINE_MAX_ISA='" + shown + "' is not an instruction set: use sse2, avx2 or avx512 (or unset it)";
}

namespace {

// What this CPU and OS can run, whatever ROOFLINE_MAX_ISA says.
bool cpu_runs(Isa isa) {
    // The one CPU identity (topo): CPUID bits, and XGETBV for the OS saving the wider registers.
    static const CpuFeatures cpu = detect_cpu_features();
    switch (isa) {
    case Isa::sse2: return cpu.sse2;
    case Isa::avx2: return cpu.avx2 && cpu.fma && cpu.os_saves_ymm;
    case Isa::avx512: return cpu.avx512f && cpu.avx512dq && cpu.avx512vl && cpu.os_saves_zmm;
    }
    return false;
}

} // namespace

bool isa_supported(Isa isa) {
    static const int max_rank = max_rank_from_environment();
    return rank(isa) <= max_rank && cpu_runs(isa);
}

std::string isa_cap_in_force() {
    const int max_rank = max_rank_from_environment();
    for (const Isa isa : {Isa::avx512, Isa::avx2})
        if (rank(isa) > max_rank && cpu_runs(isa))
            return fmt::format("ROOFLINE_MAX_ISA={}", max_rank == 0 ? "sse2" : "avx2");
    return "";
}

} // namespace roofline
