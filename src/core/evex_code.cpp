#include "core/evex_code.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>

namespace roofline {

bool evex_prefix_shape(std::span<const std::uint8_t> code, std::size_t i) {
    // 0x62, P0, P1, P2, opcode, ModRM.
    if (i + 6 > code.size() || code[i] != 0x62) return false;
    const std::uint8_t p0 = code[i + 1], p1 = code[i + 2], p2 = code[i + 3], modrm = code[i + 5];
    if (p0 & 0x08) return false;  // reserved (0) before APX
    const unsigned map = p0 & 0x07;
    if (map != 1 && map != 2 && map != 3 && map != 5 && map != 6) return false;
    if (!(p1 & 0x04)) return false;  // fixed 1
    const bool zeroing = p2 & 0x80;
    const unsigned mask = p2 & 0x07;
    if (zeroing && mask == 0) return false;  // zeroing needs a mask register
    const unsigned length = (p2 >> 5) & 0x03;
    const bool b = p2 & 0x10;
    const bool register_operand = (modrm >> 6) == 3;
    if (length == 3 && !(b && register_operand)) return false;  // L'L = 11 only for rounding control
    return true;
}

std::vector<std::size_t> evex_candidates(std::span<const std::uint8_t> code, std::size_t limit) {
    std::vector<std::size_t> found;
    const auto* base = code.data();
    std::size_t i = 0;
    while (i < code.size() && found.size() < limit) {
        // memchr finds the 0x62 bytes at memory speed; most are not prefixes.
        const void* hit = std::memchr(base + i, 0x62, code.size() - i);
        if (!hit) break;
        i = static_cast<std::size_t>(static_cast<const std::uint8_t*>(hit) - base);
        if (evex_prefix_shape(code, i)) found.push_back(i);
        ++i;
    }
    return found;
}

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

} // namespace

bool cpu_variant_name(std::string_view function) {
    const std::string name = lower(function);
    // glibc (evex, avx512), OpenBLAS's DYNAMIC_ARCH targets, GCC target_clones' suffixes (avx10 too).
    static constexpr std::array<const char*, 17> kMarks{
        "avx512", "avx10", "evex", "skylakex", "_skx", "cooperlake", "sapphirerapids", "graniterapids", "icelake",
        "cascadelake", "tigerlake", "cannonlake", "knl", "znver4", "znver5", "_zen4", "_zen5"};
    return std::any_of(kMarks.begin(), kMarks.end(), [&](const char* m) { return name.find(m) != std::string::npos; });
}

std::string dispatch_evidence(std::string_view symbol) {
    if (symbol == "__cpu_model" || symbol == "__cpu_indicator_init" || symbol == "__cpu_features2")
        return "GCC __builtin_cpu_supports";
    if (symbol == "__x86_get_cpu_features" || symbol == "__x86_get_cpuid_feature_leaf")
        return "glibc <sys/platform/x86.h>";
    if (symbol.starts_with("gotoblas_dynamic_init") || symbol == "gotoblas_corename")
        return "OpenBLAS DYNAMIC_ARCH";
    if (symbol.starts_with("mkl_serv_cpu") || symbol.starts_with("mkl_serv_intel_cpu")) return "MKL CPU dispatch";
    if (symbol.starts_with("__intel_cpu_feature") || symbol == "__intel_new_feature_proc_init")
        return "Intel compiler CPU dispatch";
    return {};
}

EvexJudgement judge_evex(const std::vector<ObjectCode>& objects) {
    EvexJudgement j;
    for (const auto& o : objects) {
        if (!o.evex()) continue;
        if (o.glibc) {
            j.glibc_dispatches = true;
            continue;
        }
        if (o.evex_outside_variants && o.dispatch.empty()) {
            if (o.confirmation_tried)
                j.unconditional.push_back(&o);
            else
                j.unconfirmed.push_back(&o);
        }
        else
            j.dispatching.push_back(&o);
    }
    if (!j.unconditional.empty())
        j.kind = EvexJudgement::Kind::refuse;
    else if (!j.dispatching.empty() || j.glibc_dispatches)
        j.kind = EvexJudgement::Kind::dispatched;
    return j;
}

std::optional<ValgrindCpu> parse_valgrind_verbose(std::string_view text) {
    const auto line_after = [&](std::string_view marker) -> std::string_view {
        const auto at = text.find(marker);
        if (at == std::string_view::npos) return {};
        const auto rest = text.substr(at + marker.size());
        return rest.substr(0, rest.find('\n'));
    };
    // "AMD64, LittleEndian, amd64-cx16-...": the hwcaps are the last comma-separated field.
    const auto arch = line_after("Arch and hwcaps: ");
    const auto comma = arch.rfind(", ");
    if (comma == std::string_view::npos) return std::nullopt;
    auto hwcaps = arch.substr(comma + 2);
    while (!hwcaps.empty() && (hwcaps.back() == ' ' || hwcaps.back() == '\r')) hwcaps.remove_suffix(1);
    if (!hwcaps.starts_with("amd64")) return std::nullopt;
    ValgrindCpu cpu;
    cpu.hwcaps = std::string(hwcaps);
    // "Using Valgrind-3.19.0-8d3c8034b8-20220411 and LibVEX": the version up to its next '-'.
    auto version = line_after("Using Valgrind-");
    version = version.substr(0, std::min(version.find('-'), version.find(' ')));
    cpu.version = std::string(version);
    return cpu;
}

std::vector<std::string> valgrind_cpu_isa(std::string_view hwcaps) {
    std::vector<std::string> caps;
    for (std::size_t start = 0; start <= hwcaps.size();) {
        const auto end = std::min(hwcaps.find('-', start), hwcaps.size());
        caps.emplace_back(hwcaps.substr(start, end - start));
        start = end + 1;
    }
    const auto has = [&](std::string_view cap) { return std::find(caps.begin(), caps.end(), cap) != caps.end(); };
    std::vector<std::string> isa = {"sse", "sse2"};
    if (!(has("sse3") && has("cx16"))) return isa;  // VEX's baseline CPUID
    isa.insert(isa.end(), {"sse3", "ssse3", "sse4.1", "sse4.2"});
    if (!has("avx")) return isa;  // a Core i5-670
    isa.push_back("avx");
    if (has("f16c")) isa.push_back("f16c");
    if (has("avx2")) isa.insert(isa.end(), {"fma", "avx2"});  // a Core i7-4910MQ; else a Core i5-2300
    return isa;
}

std::vector<std::string> valgrind_cpu_isa() { return valgrind_cpu_isa("amd64-cx16-sse3-ssse3-avx-avx2-f16c"); }

std::string isa_level(const std::vector<std::string>& features) {
    const auto has = [&](std::string_view f) { return std::find(features.begin(), features.end(), f) != features.end(); };
    const auto any = [&](auto pred) { return std::any_of(features.begin(), features.end(), pred); };
    // AVX10 at 512 bits is AVX-512 (its subsets are set beside it); AVX10 stopping at 256 bits
    // runs EVEX code, which Valgrind cannot decode either, but never 512-bit code.
    if (any([](const std::string& f) { return f.starts_with("avx512") || (f.starts_with("avx10.") && f.ends_with("-512")); }))
        return "avx512";
    if (any([](const std::string& f) { return f.starts_with("avx10."); })) return "avx10/256";
    for (const char* level : {"avx2", "avx", "sse4.2", "sse2"})
        if (has(level)) return level;
    return {};
}

std::vector<std::string> isa_missing(const std::vector<std::string>& native, const std::vector<std::string>& counting) {
    std::vector<std::string> missing;
    for (const auto& n : native)
        if (std::find(counting.begin(), counting.end(), n) == counting.end()) missing.push_back(n);
    return missing;
}

OutputComparison compare_outputs(std::string_view a, std::uint64_t a_total, std::string_view b,
                                 std::uint64_t b_total) {
    OutputComparison c;
    c.a_bytes = std::max<std::uint64_t>(a_total, a.size());
    c.b_bytes = std::max<std::uint64_t>(b_total, b.size());
    const bool whole = c.a_bytes == a.size() && c.b_bytes == b.size();
    if (a == b && c.a_bytes == c.b_bytes) {
        c.same = true;  // when only a prefix was kept the rest is taken as equal (sizes match)
        return c;
    }
    c.same = false;
    std::size_t line = 1, start = 0;
    const std::size_t n = std::min(a.size(), b.size());
    std::size_t i = 0;
    for (; i < n && a[i] == b[i]; ++i)
        if (a[i] == '\n') {
            ++line;
            start = i + 1;
        }
    if (i == n && !whole && a.size() != b.size()) {
        // One kept prefix is shorter only because less was kept.
        if ((a.size() < c.a_bytes && a.size() < b.size()) || (b.size() < c.b_bytes && b.size() < a.size())) return c;
    }
    auto line_of = [&](std::string_view s) {
        const auto end = s.find('\n', start);
        std::string_view l = start >= s.size() ? std::string_view{} : s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
        return std::string(l.substr(0, 200));
    };
    c.line = line;
    c.a_line = line_of(a);
    c.b_line = line_of(b);
    return c;
}

std::string instruction_extension(std::span<const std::uint8_t> b) {
    std::size_t i = 0;
    bool p66 = false, pf2 = false, pf3 = false;
    // Legacy prefixes and REX before a legacy-encoded opcode.
    while (i < b.size() && (b[i] == 0x66 || b[i] == 0xF2 || b[i] == 0xF3 || (b[i] & 0xF0) == 0x40)) {
        p66 = p66 || b[i] == 0x66;
        pf2 = pf2 || b[i] == 0xF2;
        pf3 = pf3 || b[i] == 0xF3;
        ++i;
    }
    if (i >= b.size()) return {};
    if (i == 0 && b[0] == 0x62) return "AVX-512 (EVEX)";
    int map = 0, pp = 0;  // map 1: 0F, 2: 0F38, 3: 0F3A; pp 0: none, 1: 66, 2: F3, 3: F2
    bool vex = false, wide = false;
    std::uint8_t op = 0;
    if (i == 0 && b[0] == 0xC4 && b.size() >= 4) {
        vex = true;
        map = b[1] & 0x1F;
        wide = (b[2] & 0x04) != 0;
        pp = b[2] & 0x03;
        op = b[3];
    } else if (i == 0 && b[0] == 0xC5 && b.size() >= 3) {
        vex = true;
        map = 1;
        wide = (b[1] & 0x04) != 0;
        pp = b[1] & 0x03;
        op = b[2];
    } else if (b[i] == 0x0F && i + 1 < b.size()) {
        pp = p66 ? 1 : pf3 ? 2 : pf2 ? 3 : 0;
        if (b[i + 1] == 0x38 && i + 2 < b.size()) map = 2, op = b[i + 2];
        else if (b[i + 1] == 0x3A && i + 2 < b.size()) map = 3, op = b[i + 2];
        else map = 1, op = b[i + 1];
    } else {
        return {};
    }
    if (map == 2) {
        if (vex && pp == 1 && op >= 0x50 && op <= 0x53) return "AVX-VNNI";
        if (vex && pp != 1 && (op == 0x50 || op == 0x51)) return "AVX-VNNI-INT8";
        if (vex && pp == 1 && (op == 0xB4 || op == 0xB5)) return "AVX-IFMA";
        if (pp == 1 && op == 0xCF) return "GFNI";
        if (vex && pp == 1 && op >= 0xDC && op <= 0xDF && wide) return "VAES";
        if (!vex && pp == 0 && op >= 0xC8 && op <= 0xCD) return "SHA";
        if (vex && (op == 0x49 || op == 0x4B || (op >= 0x5C && op <= 0x5E))) return "AMX";
    } else if (map == 3) {
        if (pp == 1 && (op == 0xCE || op == 0xCF)) return "GFNI";
        if (vex && pp == 1 && op == 0x44 && wide) return "VPCLMULQDQ";
        if (!vex && pp == 0 && op == 0xCC) return "SHA";
    }
    return {};
}

std::optional<UndecodedInstruction> undecoded_instruction(std::string_view log) {
    constexpr std::string_view kMarker = "unhandled instruction bytes:";
    const auto at = log.find(kMarker);
    if (at == std::string_view::npos) return std::nullopt;
    auto end = log.find('\n', at);
    std::string_view rest = log.substr(at + kMarker.size(), end == std::string_view::npos ? std::string_view::npos
                                                                                         : end - at - kMarker.size());
    UndecodedInstruction u;
    while (!rest.empty()) {
        const auto hex = rest.find("0x");
        if (hex == std::string_view::npos) break;
        rest.remove_prefix(hex + 2);
        unsigned value = 0;
        std::size_t digits = 0;
        while (digits < rest.size() && digits < 2 && std::isxdigit(static_cast<unsigned char>(rest[digits]))) {
            const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(rest[digits])));
            value = value * 16 + static_cast<unsigned>(c <= '9' ? c - '0' : c - 'a' + 10);
            ++digits;
        }
        if (digits == 0) break;
        u.bytes.push_back(static_cast<std::uint8_t>(value));
        rest.remove_prefix(digits);
    }
    if (u.bytes.empty()) return std::nullopt;
    u.extension = instruction_extension(u.bytes);
    u.evex = u.bytes.front() == 0x62;
    return u;
}

} // namespace roofline
