// AVX-512 (EVEX-encoded) code in a program and the libraries it loads, and what
// it means for the instrument engine: Valgrind cannot decode EVEX (its bug
// 383010), so a program whose own code holds EVEX instructions stops under it,
// while code chosen at run time by CPU dispatch (glibc's ifunc variants,
// OpenBLAS's per-CPU kernels, GCC's target_clones) sees Valgrind's CPU, which
// has no AVX-512, and picks other code than the native run does. Pure: the
// bytes and names come from measure/evex_scan.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

// Whether the bytes at `code[i]` have the shape of an EVEX prefix (Intel SDM vol. 2,
// 2.7.1), in 64-bit mode, where 0x62 as an opcode byte is always EVEX (BOUND is
// invalid there): 0x62; P0 with bit 3 clear and a map (mmm) of 1, 2, 3, 5 or 6
// (5 and 6: AVX512-FP16); P1 with bit 2 set (fixed 1); P2 with no zeroing-masking
// without a mask (z set, aaa = 0 is #UD) and vector length 11 only with EVEX.b on
// register operands; then an opcode and a ModRM byte. A 0x62 inside an immediate or
// a displacement passes about one time in ten: a candidate, to be confirmed by a
// disassembler that decodes from a function's start.
bool evex_prefix_shape(std::span<const std::uint8_t> code, std::size_t i);

// Offsets in `code` where an EVEX prefix may start (evex_prefix_shape), at most `limit`.
std::vector<std::size_t> evex_candidates(std::span<const std::uint8_t> code, std::size_t limit);

// Whether a function's name says it is one CPU's variant, chosen at run time:
// glibc's "__memcpy_evex_unaligned", "__strlen_avx512", "..._avx10", OpenBLAS's
// "dgemm_kernel_SKYLAKEX", GCC target_clones' "f.avx512f" / "f.arch_skylake_avx512".
bool cpu_variant_name(std::string_view function);

// What a symbol (defined or imported) says about run-time CPU dispatch in the object
// holding it; empty when nothing: "GCC __builtin_cpu_supports" (__cpu_model,
// __cpu_indicator_init), "OpenBLAS DYNAMIC_ARCH" (gotoblas_*), "MKL CPU dispatch"
// (mkl_serv_cpu_*), "glibc <sys/platform/x86.h>" (__x86_get_cpu_features).
std::string dispatch_evidence(std::string_view symbol);

// One object file's code as far as AVX-512 goes.
struct ObjectCode {
    std::string path;
    bool executable = false;  // the program itself, not a library
    bool readable = true;     // false: not a readable 64-bit ELF (a script, a 32-bit program)
    bool glibc = false;       // libc, libm, libmvec, the dynamic loader: ifunc string and maths variants
    std::uint64_t code_bytes = 0;  // bytes in executable sections scanned
    std::size_t candidates = 0;    // EVEX-shaped byte sequences (evex_prefix_shape)
    // Confirmed EVEX instructions by the disassembler, and in which functions (at most a few
    // named, those not named after a CPU variant first).
    std::size_t confirmed = 0;
    bool confirmation_tried = false;  // false: objdump missing, or not needed (see evex_scan)
    // Confirmation stopped after the first functions found (to stay quick), sites left undecoded:
    // `confirmed` and `evex_functions` are a lower bound.
    bool confirmation_stopped_early = false;
    std::vector<std::string> evex_functions;
    bool evex_outside_variants = false;  // EVEX in a function not named as a CPU variant (or unnamed)
    std::vector<std::string> dispatch;   // evidence of run-time CPU dispatch ("ifunc", ...), empty: none
    bool evex() const { return confirmed > 0 || (!confirmation_tried && candidates > 0); }
};

// What the instrument engine makes of a program and the libraries it loads.
struct EvexJudgement {
    enum class Kind {
        none,         // no EVEX anywhere: Valgrind decodes it all
        refuse,       // EVEX in code that runs whatever the CPU: Valgrind would stop at it
        dispatched,   // EVEX only in code chosen at run time by CPU dispatch
    };
    Kind kind = Kind::none;
    std::vector<const ObjectCode*> unconditional;  // refuse: the objects whose code runs EVEX regardless
    // Objects that dispatch on the CPU at run time (glibc left out: its variants are string
    // and memory functions whose loads and stores are the same whichever runs).
    std::vector<const ObjectCode*> dispatching;
    bool glibc_dispatches = false;
    // EVEX-shaped bytes outside CPU variants that no disassembler confirmed (objdump missing):
    // not refused, said as a warning.
    std::vector<const ObjectCode*> unconfirmed;
};

// Refuse when an object holds EVEX code outside CPU-variant functions and shows no
// sign of run-time dispatch; EVEX in an object that dispatches (ifunc, cpuid
// checks, a per-CPU kernel table) is the run-time-dispatch case, not a refusal (if
// it runs EVEX regardless, Valgrind still stops and says so after the run: a statically
// linked program carries glibc's ifuncs and CPUID, so its own EVEX code is found that late).
EvexJudgement judge_evex(const std::vector<ObjectCode>& objects);

// What Valgrind says of the host it runs on (valgrind -v: "Using Valgrind-3.19.0-..." and
// "Arch and hwcaps: AMD64, LittleEndian, amd64-cx16-lzcnt-rdtscp-sse3-ssse3-avx-avx2-bmi-f16c-..."):
// VEX chooses the CPU its guest sees through CPUID from these hwcaps.
struct ValgrindCpu {
    std::string version;  // "3.19.0"; empty when not said
    std::string hwcaps;   // "amd64-cx16-...-avx2-..."
};
// nullopt when `text` (valgrind -v's messages) holds no amd64 hwcaps line.
std::optional<ValgrindCpu> parse_valgrind_verbose(std::string_view text);

// The ISA extensions the CPUID of Valgrind's amd64 guest reports for the host's `hwcaps`, in
// CpuFeatures::names()'s spelling, as VEX chooses (guest_amd64_toIR.c, CPUID): with avx2 a
// Core i7-4910MQ (up to AVX2 and FMA), with avx a Core i5-2300 (AVX, no FMA), with sse3
// and cx16 a Core i5-670 (up to SSE4.2), else a baseline SSE2 CPU; F16C where the host
// has it. Never AVX-512, which VEX cannot decode.
std::vector<std::string> valgrind_cpu_isa(std::string_view hwcaps);
// The same for a host with AVX2 (every AVX-512 host): what is assumed when valgrind -v
// did not name its hwcaps.
std::vector<std::string> valgrind_cpu_isa();

// The widest ISA level in a feature list: "avx512" (any avx512*, or AVX10 at 512 bits:
// "avx10.1-512"), "avx10/256" (AVX10 stopping at 256 bits: EVEX code, never 512-bit),
// "avx2", "avx", "sse4.2", "sse2"; "" when none of them.
std::string isa_level(const std::vector<std::string>& features);

// The extensions in `native` that `counting` lacks (the order of `native`).
std::vector<std::string> isa_missing(const std::vector<std::string>& native, const std::vector<std::string>& counting);

// An instruction Valgrind stopped at, from the bytes its log gives ("vex amd64->IR: unhandled
// instruction bytes: 0xC4 0xE2 0x55 0x50 ..."): `evex` when it is EVEX-encoded (AVX-512 or
// AVX10), and the extension's name where the encoding says it (Intel SDM vol. 2 opcode maps;
// each checked here against Valgrind 3.19, which decodes none of them): "AVX-512 (EVEX)",
// "AVX-VNNI" (VEX vpdpbusd/vpdpwssd), "AVX-VNNI-INT8", "AVX-IFMA", "GFNI", "VAES",
// "VPCLMULQDQ", "SHA", "AMX"; "" when the bytes name none of these.
struct UndecodedInstruction {
    std::vector<std::uint8_t> bytes;
    bool evex = false;
    std::string extension;
};
// nullopt when the log has no such line.
std::optional<UndecodedInstruction> undecoded_instruction(std::string_view valgrind_log);
// The extension the encoding at the start of `bytes` belongs to (as above), "" when unknown.
std::string instruction_extension(std::span<const std::uint8_t> bytes);

// Two runs' standard output, compared for --counts-from (render/evex_text says it in words).
struct OutputComparison {
    bool same = true;
    std::uint64_t a_bytes = 0, b_bytes = 0;  // the whole outputs' sizes
    std::size_t line = 0;                    // first differing line (1-based); 0: none within what was kept
    std::string a_line, b_line;              // that line in each (at most 200 bytes each)
};
// `a_total` / `b_total`: the whole outputs' sizes, when more than the kept `a` / `b`.
OutputComparison compare_outputs(std::string_view a, std::uint64_t a_total, std::string_view b, std::uint64_t b_total);

} // namespace roofline
