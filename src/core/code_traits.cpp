#include "core/code_traits.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>

namespace roofline {
namespace {

std::optional<double> detail(const Point& p, const std::string& key) {
    const auto it = p.details.find(key);
    if (it == p.details.end() || !std::isfinite(it->second) || it->second < 0) return std::nullopt;
    return it->second;
}

std::string fmt_key(const char* precision, const char* kind) {
    return std::string("flops_") + precision + "_" + kind;
}

// "libfftw3.so", "libfftw3.so.3.6.10", "ld-linux-x86-64.so.2": a shared object's file name.
bool is_shared_library_name(std::string_view file) {
    const auto so = file.find(".so");
    return so != std::string_view::npos && so > 0 && (so + 3 == file.size() || file[so + 3] == '.');
}

} // namespace

std::optional<std::string> installed_library(const std::string& object) {
    const auto slash = object.rfind('/');
    const std::string file = slash == std::string::npos ? object : object.substr(slash + 1);
    if (!is_shared_library_name(file)) return std::nullopt;
    // Where installed libraries live: the system's directories, /opt, and package managers'
    // trees. A shared library elsewhere (the user's build directory) may be the user's own
    // code, built with the user's flags: it keeps the program's advice.
    for (const char* prefix : {"/usr/", "/lib/", "/lib32/", "/lib64/", "/opt/", "/nix/store/", "/gnu/store/", "/snap/"})
        if (object.rfind(prefix, 0) == 0) return file;
    for (const char* part : {"/site-packages/", "/conda/", "/miniconda", "/anaconda", "/miniforge", "/spack/", "/.spack/"})
        if (object.find(part) != std::string::npos) return file;
    return std::nullopt;
}

std::optional<double> share_narrower_than(const CodeTraits& t, int bits) {
    if (bits <= 0 || !(t.width_counted_flops > 0)) return std::nullopt;
    double narrow = 0;
    for (const auto& [width, flops] : t.vector_flops_by_bits)
        if (width < bits) narrow += flops;
    return narrow / t.width_counted_flops;
}

int widest_narrower_than(const CodeTraits& t, int bits) {
    int widest = 0;
    for (const auto& [width, flops] : t.vector_flops_by_bits)
        if (width < bits && flops > 0) widest = std::max(widest, width);
    return widest;
}

CodeTraits code_traits(const Point& p) {
    CodeTraits t;
    double by_width = 0;
    double scalar = 0;
    for (const auto& [key, value] : p.details) {
        constexpr std::string_view prefix = "flops_by_width_";
        if (key.compare(0, prefix.size(), prefix) != 0 || !std::isfinite(value) || value <= 0) continue;
        const std::string width = key.substr(prefix.size());
        by_width += value;
        if (width == "scalar") {
            scalar += value;
        } else {
            try {
                const int bits = std::stoi(width);
                t.widest_bits = std::max(t.widest_bits, bits);
                t.vector_flops_by_bits[bits] += value;
            } catch (const std::exception&) {
            }
        }
    }
    t.width_counted_flops = by_width;
    if (by_width > 0) t.scalar_share = scalar / by_width;

    // The kind mix: FLOPs of each kind over all FLOPs (a kind no engine counted stays unknown).
    auto kind_share = [&](std::initializer_list<const char*> kinds) -> std::optional<double> {
        double flops = 0;
        bool counted = false;
        for (const char* prec : {"f64", "f32"})
            for (const char* kind : kinds)
                if (const auto v = detail(p, fmt_key(prec, kind))) flops += *v, counted = true;
        if (!counted || !p.work_counted || !(p.work > 0)) return std::nullopt;
        return std::min(1.0, flops / p.work);
    };
    double by_precision[2] = {0, 0};  // f64, f32
    for (const auto& [key, value] : p.details) {
        if (!std::isfinite(value) || value <= 0) continue;
        if (key.compare(0, 10, "flops_f64_") == 0) by_precision[0] += value;
        else if (key.compare(0, 10, "flops_f32_") == 0) by_precision[1] += value;
    }
    if (by_precision[0] + by_precision[1] > 0) t.f64_share = by_precision[0] / (by_precision[0] + by_precision[1]);

    if (const auto x87 = detail(p, "flops_x87"); x87 && *x87 > 0 && p.work_counted && p.work > 0)
        t.x87_share = std::min(1.0, *x87 / p.work);

    t.fma_share = kind_share({"fma"});
    t.add_share = kind_share({"add", "sub"});
    t.mul_share = kind_share({"mul"});

    // Accumulations: adds and subtracts (one FLOP per lane each) and FMAs (two).
    double accumulations = 0;
    for (const char* prec : {"f64", "f32"}) {
        for (const char* kind : {"add", "sub"})
            if (const auto v = detail(p, fmt_key(prec, kind))) accumulations += *v;
        if (const auto v = detail(p, fmt_key(prec, "fma"))) accumulations += *v / 2;
    }
    if (accumulations > 0 && p.work_counted && p.work > 0) t.flops_per_accumulation = p.work / accumulations;
    if (const auto entries = detail(p, "loop_entries"); accumulations > 0 && entries && *entries > 0)
        t.accumulations_per_entry = accumulations / *entries;

    const auto loaded = detail(p, "bytes_loaded");
    const auto stored = detail(p, "bytes_stored");
    if (loaded && stored && *loaded + *stored > 0) t.store_share = *stored / (*loaded + *stored);
    t.store_streams = detail(p, kStoreStreamsDetail);
    if (const auto l2 = p.bytes.find("L2");
        loaded && stored && *loaded + *stored > 0 && l2 != p.bytes.end() && l2->second >= 0)
        t.l2_bytes_per_accessed_byte = l2->second / (*loaded + 2 * *stored);
    if (stored && accumulations > 0) {
        const double element = t.f64_share && *t.f64_share >= 0.5 ? 8 : 4;
        t.accumulations_per_store =
            *stored > 0 ? accumulations / (*stored / element) : std::numeric_limits<double>::infinity();
    }

    // A function point's calls (measure --functions: executions of its first instruction).
    if (const auto calls = detail(p, kFunctionCallsDetail); calls && *calls > 0) {
        t.calls = *calls;
        if (p.work_counted) t.flops_per_call = p.work / *calls;
        if (const auto insns = detail(p, kInstructionsDetail)) t.instructions_per_call = *insns / *calls;
    } else if (const auto main_calls = detail(p, kMainFunctionCalls);
               !p.main_function.empty() && main_calls && *main_calls > 0) {
        t.calls = *main_calls;
        t.calls_of = p.main_function;
        if (const auto flops = detail(p, kMainFunctionFlops); flops && p.work_counted && p.work > 0) {
            t.flops_per_call = *flops / *main_calls;
            t.calls_share = std::min(1.0, *flops / p.work);
        }
        if (const auto insns = detail(p, kMainFunctionInstructions)) t.instructions_per_call = *insns / *main_calls;
    }
    t.library = installed_library(p.object);
    if (!t.library && p.object.empty()) {
        // Code without a symbol is named by its file: "(no symbol: libfftw3.so.3.6.10+0x2c500)", or
        // "(no symbol: libopenblas.so.0)" for code in no function of its unwind table (hand-written
        // assembly without CFI). A file name may hold a '+' itself (libstdc++.so.6): the offset is
        // the "+0x..." before the closing parenthesis.
        constexpr std::string_view no_symbol = "(no symbol: ";
        if (p.name.compare(0, no_symbol.size(), no_symbol) == 0 && p.name.ends_with(")")) {
            std::string file = p.name.substr(no_symbol.size(), p.name.size() - no_symbol.size() - 1);
            if (const auto plus = file.rfind("+0x"); plus != std::string::npos) file.resize(plus);
            if (is_shared_library_name(file)) t.library = file;
        }
    }

    const auto unread = detail(p, "cache_DRAM_write_allocate_unread_bytes");
    const auto dram = p.bytes.find("DRAM");
    if (unread && dram != p.bytes.end() && dram->second > 0)
        t.unread_write_allocate_share = std::min(1.0, *unread / dram->second);
    return t;
}

double one_chain_gflops(double clock_ghz, int threads, double flops_per_accumulation, double latency_cycles) {
    if (!(clock_ghz > 0) || threads < 1 || !(latency_cycles > 0) || !(flops_per_accumulation > 0)) return 0;
    return clock_ghz / latency_cycles * flops_per_accumulation * threads;
}

} // namespace roofline
