// AVX-512 (EVEX) code found before the instrument engine runs (issue 35): the prefix
// shape on crafted bytes, objdump's confirmation on small assembled objects (a 0x62
// inside an immediate is not EVEX), the judgement (program EVEX refused, CPU-dispatched
// variants and glibc not), and --counts-from's comparison of two outputs.
#include "core/evex_code.hpp"
#include "measure/child_process.hpp"
#include "measure/evex_scan.hpp"
#include "measure/output_tee.hpp"
#include "render/evex_text.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

using namespace roofline;

namespace {

std::vector<std::size_t> candidates_in(std::vector<std::uint8_t> bytes) {
    return evex_candidates(std::span<const std::uint8_t>(bytes), 100);
}

} // namespace

TEST(EvexCode, RealEvexInstructionsHaveThePrefixShape) {
    // vaddpd %zmm2,%zmm1,%zmm0; vmovupd (%rdi),%zmm0; vfmadd231pd %zmm2,%zmm1,%zmm0{%k1}
    EXPECT_EQ(candidates_in({0x62, 0xf1, 0xf5, 0x48, 0x58, 0xc2}), std::vector<std::size_t>{0});
    EXPECT_EQ(candidates_in({0x62, 0xf1, 0xfd, 0x48, 0x10, 0x07}), std::vector<std::size_t>{0});
    EXPECT_EQ(candidates_in({0x90, 0x62, 0xf2, 0xf5, 0x49, 0xb8, 0xc2}), std::vector<std::size_t>{1});
    // vaddph (AVX512-FP16, map 5) and vaddpd with rounding control ({rn-sae}: L'L = 11 with EVEX.b, registers).
    EXPECT_EQ(candidates_in({0x62, 0xf5, 0x74, 0x48, 0x58, 0xc2}), std::vector<std::size_t>{0});
    EXPECT_EQ(candidates_in({0x62, 0xf1, 0xf5, 0x18, 0x58, 0xc2}), std::vector<std::size_t>{0});
}

TEST(EvexCode, ZeroSixtyTwoBytesThatCannotBeEvexAreNotCandidates) {
    EXPECT_TRUE(candidates_in({0xb8, 0x62, 0x00, 0x00, 0x00, 0xc3, 0x90}).empty());  // mov $0x62,%eax: map 0
    EXPECT_TRUE(candidates_in({0x62, 0xf1, 0xf1, 0x48, 0x58, 0xc2}).empty());        // P1 bit 2 clear
    EXPECT_TRUE(candidates_in({0x62, 0xf9, 0xf5, 0x48, 0x58, 0xc2}).empty());        // P0 bit 3 set
    EXPECT_TRUE(candidates_in({0x62, 0xf4, 0xf5, 0x48, 0x58, 0xc2}).empty());        // map 4
    EXPECT_TRUE(candidates_in({0x62, 0xf1, 0xf5, 0xc8, 0x58, 0xc2}).empty());        // zeroing with no mask
    EXPECT_TRUE(candidates_in({0x62, 0xf1, 0xf5, 0x68, 0x58, 0x07}).empty());        // L'L = 11 on memory
    EXPECT_TRUE(candidates_in({0x62, 0xf1, 0xf5, 0x48, 0x58}).empty());              // cut short at the end
    EXPECT_TRUE(candidates_in({}).empty());
}

TEST(EvexCode, CpuVariantNamesAndDispatchEvidence) {
    EXPECT_TRUE(cpu_variant_name("__memcpy_evex_unaligned_erms"));
    EXPECT_TRUE(cpu_variant_name("__strlen_avx512"));
    EXPECT_TRUE(cpu_variant_name("dgemm_kernel_SKYLAKEX"));
    EXPECT_TRUE(cpu_variant_name("saxpy.arch_skylake_avx512"));
    EXPECT_TRUE(cpu_variant_name("saxpy.avx10_1_512"));  // GCC target_clones("avx10.1-512")
    EXPECT_FALSE(cpu_variant_name("main"));
    EXPECT_FALSE(cpu_variant_name("dot"));
    EXPECT_EQ(dispatch_evidence("__cpu_model"), "GCC __builtin_cpu_supports");
    EXPECT_EQ(dispatch_evidence("gotoblas_dynamic_init"), "OpenBLAS DYNAMIC_ARCH");
    EXPECT_EQ(dispatch_evidence("mkl_serv_cpu_detect"), "MKL CPU dispatch");
    EXPECT_EQ(dispatch_evidence("printf"), "");
}

namespace {

ObjectCode object(std::string path, bool executable, std::size_t confirmed, bool outside, std::vector<std::string> dispatch = {}) {
    ObjectCode o;
    o.path = std::move(path);
    o.executable = executable;
    o.candidates = confirmed + 2;
    o.confirmed = confirmed;
    o.confirmation_tried = true;
    o.evex_outside_variants = outside;
    o.dispatch = std::move(dispatch);
    if (confirmed) o.evex_functions = {"dot"};
    return o;
}

} // namespace

TEST(EvexCode, ProgramWithEvexIsRefusedGlibcAndDispatchingLibrariesAreNot) {
    ObjectCode libc = object("/lib/x86_64-linux-gnu/libc.so.6", false, 40, false, {"ifunc"});
    libc.glibc = true;
    const ObjectCode blas = object("/usr/lib/libopenblas.so.0", false, 0, false, {"OpenBLAS DYNAMIC_ARCH"});
    ObjectCode blas_unconfirmed = blas;
    blas_unconfirmed.confirmation_tried = false;  // dispatching libraries are not confirmed: candidates count
    EXPECT_EQ(judge_evex({object("./prog", true, 0, false), libc}).kind, EvexJudgement::Kind::dispatched);
    EXPECT_EQ(judge_evex({object("./prog", true, 0, false)}).kind, EvexJudgement::Kind::none);

    const std::vector<ObjectCode> native = {object("./prog", true, 12, true), libc};
    const auto refused = judge_evex(native);
    ASSERT_EQ(refused.kind, EvexJudgement::Kind::refuse);
    ASSERT_EQ(refused.unconditional.size(), 1u);
    EXPECT_TRUE(refused.unconditional.front()->executable);
    const auto text = render_evex_refusal(refused, "./prog", "", "no hardware counters");
    for (const char* needle : {"./prog holds AVX-512 instructions", "Valgrind bug 383010", "Nothing was run",
                               "-mno-avx512f", "-mprefer-vector-width=256 is not enough", "--counts-from",
                               "--engine perf", "not here: no hardware counters", "12 found by objdump in dot"})
        EXPECT_NE(text.find(needle), std::string::npos) << needle << " in:\n" << text;

    // A program that checks the CPU itself (__builtin_cpu_supports) is the dispatch case.
    const auto own_dispatch = judge_evex({object("./prog", true, 3, true, {"GCC __builtin_cpu_supports"})});
    EXPECT_EQ(own_dispatch.kind, EvexJudgement::Kind::dispatched);
    const std::vector<ObjectCode> with_blas = {object("./prog", true, 0, false), blas_unconfirmed, libc};
    const auto libs = judge_evex(with_blas);
    ASSERT_EQ(libs.kind, EvexJudgement::Kind::dispatched);
    ASSERT_EQ(libs.dispatching.size(), 1u);
    const auto warning = render_dispatch_warning(libs, {"avx512f", "avx512dq"});
    EXPECT_NE(warning.find("libopenblas.so.0 (OpenBLAS DYNAMIC_ARCH"), std::string::npos) << warning;
    EXPECT_NE(warning.find("no avx512f, avx512dq"), std::string::npos) << warning;
    EXPECT_EQ(render_dispatch_warning(libs, {}), "");  // the counting CPU lacks nothing: nothing to say

    // EVEX-shaped bytes no disassembler confirmed: a warning, never a refusal.
    ObjectCode unconfirmed = object("./prog", true, 0, true);
    unconfirmed.confirmation_tried = false;
    const std::vector<ObjectCode> maybe_objects = {unconfirmed};
    const auto maybe = judge_evex(maybe_objects);
    EXPECT_EQ(maybe.kind, EvexJudgement::Kind::none);
    EXPECT_NE(render_unconfirmed_warning(maybe).find("objdump (binutils) is not installed"), std::string::npos);
}

TEST(EvexCode, CountingCpuLacksAvx512) {
    const auto missing = isa_missing({"sse2", "avx2", "fma", "avx512f", "avx512vl"}, valgrind_cpu_isa());
    EXPECT_EQ(missing, (std::vector<std::string>{"avx512f", "avx512vl"}));
}

TEST(EvexCode, ValgrindsCpuIsReadFromWhatItSaysOfItsHost) {
    // valgrind -v's lines on this development machine (Zen 4, Valgrind 3.19).
    const auto cpu = parse_valgrind_verbose(
        "==10003== Using Valgrind-3.19.0-8d3c8034b8-20220411 and LibVEX; rerun with -h for copyright info\n"
        "--10003-- Arch and hwcaps: AMD64, LittleEndian, amd64-cx16-lzcnt-rdtscp-sse3-ssse3-avx-avx2-bmi-f16c-rdrand-"
        "rdseed\n--10003-- Page sizes: currently 4096, max supported 4096\n");
    ASSERT_TRUE(cpu);
    EXPECT_EQ(cpu->version, "3.19.0");
    EXPECT_EQ(cpu->hwcaps, "amd64-cx16-lzcnt-rdtscp-sse3-ssse3-avx-avx2-bmi-f16c-rdrand-rdseed");
    EXPECT_FALSE(parse_valgrind_verbose("valgrind: /x: No such file or directory\n"));
    EXPECT_FALSE(parse_valgrind_verbose("--1-- Arch and hwcaps: ARM64, LittleEndian, v8-fhm-dpbcc\n"));

    // VEX's CPUID by the host's hwcaps: AVX2 hosts (every AVX-512 one) get a Haswell, never AVX-512.
    const auto avx2 = valgrind_cpu_isa(cpu->hwcaps);
    EXPECT_EQ(avx2, (std::vector<std::string>{"sse", "sse2", "sse3", "ssse3", "sse4.1", "sse4.2", "avx", "f16c", "fma",
                                              "avx2"}));
    EXPECT_EQ(avx2, valgrind_cpu_isa());  // what is assumed when Valgrind does not say
    EXPECT_EQ(isa_level(avx2), "avx2");
    // A host with AVX and no AVX2 gets a Sandy Bridge (no FMA); without AVX, up to SSE4.2; older, SSE2.
    EXPECT_EQ(isa_level(valgrind_cpu_isa("amd64-cx16-sse3-ssse3-avx")), "avx");
    EXPECT_EQ(isa_missing({"avx", "fma"}, valgrind_cpu_isa("amd64-cx16-sse3-ssse3-avx")),
              (std::vector<std::string>{"fma"}));
    EXPECT_EQ(isa_level(valgrind_cpu_isa("amd64-cx16-sse3-ssse3")), "sse4.2");
    EXPECT_EQ(valgrind_cpu_isa("amd64-sse3"), (std::vector<std::string>{"sse", "sse2"}));
    EXPECT_EQ(isa_level({"sse2", "avx2", "avx512f"}), "avx512");
    // AVX10 at 512 bits is AVX-512; stopping at 256 bits, EVEX code of 256 bits at most.
    EXPECT_EQ(isa_level({"sse2", "avx2", "avx10.1-256", "avx10.1-512"}), "avx512");
    EXPECT_EQ(isa_level({"sse2", "avx2", "avx10.1-256", "avx10.2-256"}), "avx10/256");
    EXPECT_EQ(render_timed_isa({"avx2", "avx10.1-256"}), "avx10/256: this CPU's CPUID: avx2 avx10.1-256");
    // What Valgrind's CPU lacks of an AVX10/256 CPU: named in the dispatch warning.
    EXPECT_EQ(isa_missing({"avx2", "avx10.1-256"}, valgrind_cpu_isa()), (std::vector<std::string>{"avx10.1-256"}));
    EXPECT_EQ(isa_level({}), "");

    // The provenance's words: the level first, whose CPU, and no AVX-512 said.
    EXPECT_EQ(render_timed_isa({"sse2", "avx2", "avx512f"}), "avx512: this CPU's CPUID: sse2 avx2 avx512f");
    const auto counted = render_counted_isa(avx2, cpu);
    EXPECT_TRUE(counted.starts_with("avx2: Valgrind 3.19.0's emulated CPU, chosen from the host's hwcaps amd64-cx16"))
        << counted;
    EXPECT_TRUE(counted.ends_with("fma avx2 (no AVX-512)")) << counted;
    EXPECT_NE(render_counted_isa(avx2, std::nullopt).find("assumed"), std::string::npos);
}

TEST(EvexCode, ThisMachinesValgrindSaysWhichCpuItPresents) {
    if (measure::find_executable("valgrind").empty()) GTEST_SKIP() << "valgrind is not installed";
    const auto cpu = measure::probe_valgrind_cpu();
    ASSERT_TRUE(cpu) << "valgrind -v named no amd64 hwcaps";
    EXPECT_TRUE(cpu->hwcaps.starts_with("amd64")) << cpu->hwcaps;
    EXPECT_FALSE(cpu->version.empty());
    EXPECT_NE(isa_level(valgrind_cpu_isa(cpu->hwcaps)), "avx512");
}

TEST(EvexCode, OutputsComparedBySizeAndFirstDifferingLine) {
    EXPECT_TRUE(compare_outputs("a\nb\n", 4, "a\nb\n", 4).same);
    const auto c = compare_outputs("n = 10\nsum = 1.5\n", 0, "n = 10\nsum = 1.25\n", 0);
    EXPECT_FALSE(c.same);
    EXPECT_EQ(c.line, 2u);
    EXPECT_EQ(c.a_line, "sum = 1.5");
    EXPECT_EQ(c.b_line, "sum = 1.25");
    EXPECT_EQ(c.a_bytes, 17u);
    EXPECT_EQ(c.b_bytes, 18u);
    const auto text = render_output_difference(c, "./fast", "./plain");
    EXPECT_NE(text.find("first differing line 2: 'sum = 1.5' against 'sum = 1.25'"), std::string::npos) << text;
    // One output longer than the other: the first line the shorter lacks.
    const auto longer = compare_outputs("a\n", 0, "a\nb\n", 0);
    EXPECT_FALSE(longer.same);
    EXPECT_EQ(longer.line, 2u);
    EXPECT_EQ(longer.b_line, "b");
}

namespace {

// Assembles `source` into an object file; empty when no C compiler is found.
std::string assemble(const std::string& name, const std::string& source) {
    if (measure::find_executable("cc").empty()) return {};
    const auto dir = std::filesystem::temp_directory_path() / ("evex_code_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto s = (dir / (name + ".s")).string(), o = (dir / (name + ".o")).string();
    std::ofstream(s) << source;
    if (std::system(("cc -c -o '" + o + "' '" + s + "'").c_str()) != 0) return {};
    return o;
}

std::string function(const std::string& name, const std::string& body) {
    return ".text\n.globl " + name + "\n.type " + name + ",@function\n" + name + ":\n" + body + "\tret\n.size " +
           name + ", .-" + name + "\n";
}

} // namespace

TEST(EvexScan, ObjdumpConfirmsRealEvexAndNotAnImmediate) {
    if (measure::find_executable("objdump").empty()) GTEST_SKIP() << "objdump (binutils) is not installed";
    const auto real = assemble("real", function("dot", "\tvaddpd %zmm2,%zmm1,%zmm0\n\tvzeroupper\n"));
    if (real.empty()) GTEST_SKIP() << "no C compiler to assemble with";
    const auto o = measure::scan_object_code(real, true, true);
    ASSERT_TRUE(o.readable);
    EXPECT_EQ(o.candidates, 1u);
    EXPECT_EQ(o.confirmed, 1u);
    EXPECT_TRUE(o.evex_outside_variants);
    EXPECT_EQ(o.evex_functions, std::vector<std::string>{"dot"});
    EXPECT_EQ(judge_evex({o}).kind, EvexJudgement::Kind::refuse);

    // mov $0x48f5f162,%eax: EVEX-shaped bytes inside an immediate, which objdump decodes as mov.
    const auto imm = assemble("imm", function("f", "\t.byte 0xb8, 0x62, 0xf1, 0xf5, 0x48\n\tnop\n\tnop\n"));
    const auto fake = measure::scan_object_code(imm, true, true);
    EXPECT_EQ(fake.candidates, 1u);
    EXPECT_EQ(fake.confirmed, 0u);
    EXPECT_FALSE(fake.evex());
    EXPECT_EQ(judge_evex({fake}).kind, EvexJudgement::Kind::none);

    // The same instruction in a function named as a CPU variant, with an ifunc: run-time dispatch.
    const auto variant = assemble("variant", function("dot_avx512", "\tvaddpd %zmm2,%zmm1,%zmm0\n") +
                                                 function("dot_resolver", "\tlea dot_avx512(%rip),%rax\n") +
                                                 "\t.globl dot\n\t.type dot, @gnu_indirect_function\n"
                                                 "\t.set dot, dot_resolver\n");
    const auto v = measure::scan_object_code(variant, true, true);
    EXPECT_EQ(v.confirmed, 1u);
    EXPECT_FALSE(v.evex_outside_variants);
    EXPECT_EQ(judge_evex({v}).kind, EvexJudgement::Kind::dispatched);
    std::filesystem::remove_all(std::filesystem::path(real).parent_path());
}

TEST(EvexScan, AScanStoppedAtTheFirstFunctionsSaysItsCountIsALowerBound) {
    if (measure::find_executable("objdump").empty()) GTEST_SKIP() << "objdump (binutils) is not installed";
    // Five functions with AVX-512 code: the scan confirms the first three and stops (quick by design).
    std::string source;
    for (const char* name : {"f1", "f2", "f3", "f4", "f5"})
        source += function(name, "\tvaddpd %zmm2,%zmm1,%zmm0\n\tvmulpd %zmm2,%zmm1,%zmm0\n\tvzeroupper\n");
    const auto five = assemble("five", source);
    if (five.empty()) GTEST_SKIP() << "no C compiler to assemble with";
    const auto o = measure::scan_object_code(five, true, true);
    EXPECT_EQ(o.candidates, 10u);
    EXPECT_EQ(o.confirmed, 6u);
    EXPECT_TRUE(o.confirmation_stopped_early);
    const std::vector<ObjectCode> objects = {o};  // the judgement points into them
    const auto judged = judge_evex(objects);
    ASSERT_EQ(judged.kind, EvexJudgement::Kind::refuse);
    const auto text = render_evex_refusal(judged, "./prog", "", "");
    EXPECT_NE(text.find("at least 6 found by objdump in f1, f2, f3 and maybe others: the scan stops at the first "
                        "functions it confirms"),
              std::string::npos)
        << text;

    // One function: the scan saw it all, and says the count as it is.
    const auto one = assemble("one", function("dot", "\tvaddpd %zmm2,%zmm1,%zmm0\n\tvzeroupper\n"));
    const auto all = measure::scan_object_code(one, true, true);
    EXPECT_FALSE(all.confirmation_stopped_early);
    const std::vector<ObjectCode> one_object = {all};
    const auto whole = render_evex_refusal(judge_evex(one_object), "./prog", "", "");
    EXPECT_NE(whole.find("(EVEX-encoded; 1 found by objdump in dot)"), std::string::npos) << whole;
    std::filesystem::remove_all(std::filesystem::path(five).parent_path());
}

TEST(EvexScan, NotAnElfIsUnreadable) {
    const auto o = measure::scan_object_code("/nonexistent/prog", true, true);
    EXPECT_FALSE(o.readable);
    EXPECT_FALSE(o.evex());
}

TEST(OutputTee, KeepsWhatTheChildPrintsAndPassesItOn) {
    measure::OutputTee tee(3);  // keeps 3 bytes, counts them all
    const auto run = measure::run_child({"/bin/sh", "-c", "printf 'a\\nbc\\n'"}, {}, {}, {},
                                        measure::kStopGraceSeconds, tee.child_fd());
    tee.finish();
    EXPECT_TRUE(run.status.exited);
    EXPECT_EQ(tee.kept(), "a\nb");
    EXPECT_EQ(tee.total(), 5u);
    // The one-shot capture for the next run only.
    measure::OutputTee next;
    measure::capture_next_run_stdout(next.child_fd());
    measure::run_child({"/bin/sh", "-c", "echo once"}, {});
    next.finish();
    EXPECT_EQ(next.kept(), "once\n");
}

TEST(QuietOutput, ShowsNothingAndKeepsTheEndOfStandardError) {
    // A later run: standard output kept unshown (--counts-from), standard error's last bytes kept.
    measure::QuietOutput quiet(true);
    const auto run = measure::run_child(
        {"/bin/sh", "-c", "echo out; i=0; while [ $i -lt 400 ]; do echo \"err line $i\" >&2; i=$((i+1)); done"}, {},
        {}, {}, measure::kStopGraceSeconds, quiet.stdout_fd(), quiet.stderr_fd());
    quiet.finish();
    EXPECT_TRUE(run.status.exited);
    EXPECT_EQ(quiet.stdout_kept(), "out\n");
    EXPECT_EQ(quiet.stdout_total(), 4u);
    EXPECT_LE(quiet.stderr_tail().size(), measure::QuietOutput::kStderrTail);
    EXPECT_TRUE(quiet.stderr_tail().ends_with("err line 399\n"));
    // Its last lines, quoted one a line.
    const auto text = measure::stderr_tail_text(quiet.stderr_tail(), 2);
    EXPECT_EQ(text, "\n  its standard error (not shown as it ran) ended with:\n  | err line 398\n  | err line 399");
    EXPECT_EQ(measure::stderr_tail_text("\n \n"), "");
}

TEST(EvexScan, StrippedLibraryDecodedFromItsUnwindTablesFunctionStarts) {
    if (measure::find_executable("objdump").empty() || measure::find_executable("strip").empty())
        GTEST_SKIP() << "objdump or strip (binutils) is not installed";
    // A static function (no symbol once stripped) holding EVEX after a long stretch of data-like
    // bytes, found from .eh_frame_hdr's table of function starts.
    const std::string source =
        ".text\n"
        "\t.type hidden_kernel, @function\n"
        "hidden_kernel:\n\t.cfi_startproc\n"
        "\tmovabsq $0x48f5f16200000000, %rax\n"   // EVEX-shaped bytes in an immediate: not EVEX
        "\tvaddpd %zmm2, %zmm1, %zmm0\n\tvzeroupper\n\tret\n\t.cfi_endproc\n"
        "\t.size hidden_kernel, .-hidden_kernel\n"
        "\t.globl api\n\t.type api, @function\n"
        "api:\n\t.cfi_startproc\n\tjmp hidden_kernel\n\t.cfi_endproc\n\t.size api, .-api\n"
        "\t.section .note.GNU-stack,\"\",@progbits\n";
    const auto object = assemble("stripped", source);
    if (object.empty()) GTEST_SKIP() << "no C compiler to assemble with";
    const auto library = object.substr(0, object.size() - 2) + ".so";
    const auto address_file = library + ".address";
    ASSERT_EQ(std::system(("cc -shared -o '" + library + "' '" + object + "' && nm '" + library +
                           "' | awk '$3 == \"hidden_kernel\" { print $1 }' > '" + address_file + "' && strip '" +
                           library + "'")
                              .c_str()),
              0);
    std::string address;
    std::ifstream(address_file) >> address;
    address.erase(0, address.find_first_not_of('0'));
    const auto o = measure::scan_object_code(library, false, true);
    EXPECT_EQ(o.candidates, 2u);
    EXPECT_EQ(o.confirmed, 1u);
    EXPECT_TRUE(o.evex_outside_variants);
    ASSERT_EQ(o.evex_functions.size(), 1u);
    EXPECT_EQ(o.evex_functions.front(), "a function at 0x" + address);  // hidden_kernel's start, from .eh_frame_hdr
    std::filesystem::remove_all(std::filesystem::path(library).parent_path());
}

namespace roofline {
namespace {

// Bytes Valgrind 3.19 logged on this Zen 5 for each (GCC 12, -march=native -mno-avx512f).
TEST(UndecodedInstruction, NamesTheExtensionsValgrindLacks) {
    const auto ext = [](std::vector<std::uint8_t> b) { return instruction_extension(b); };
    EXPECT_EQ(ext({0xC4, 0xE2, 0x55, 0x50, 0x0C, 0x02}), "AVX-VNNI");    // vpdpbusd ymm
    EXPECT_EQ(ext({0xC4, 0xE2, 0x7D, 0xCF, 0xC1}), "GFNI");              // vgf2p8mulb ymm
    EXPECT_EQ(ext({0xC4, 0xE2, 0x7D, 0xDC, 0xC1}), "VAES");              // vaesenc ymm
    EXPECT_EQ(ext({0xC4, 0xE3, 0x7D, 0x44, 0xC1, 0x00}), "VPCLMULQDQ");  // vpclmulqdq ymm
    EXPECT_EQ(ext({0x0F, 0x3A, 0xCC, 0xC0, 0x00}), "SHA");              // sha1rnds4
    EXPECT_EQ(ext({0x66, 0x0F, 0x38, 0xCF, 0xC1}), "GFNI");              // gf2p8mulb xmm, legacy
    EXPECT_EQ(ext({0x62, 0xF1, 0xFD, 0x48, 0x58, 0xC1}), "AVX-512 (EVEX)");
    // What Valgrind decodes is named by none: vfmadd231pd ymm, vaddpd ymm (2-byte VEX), addpd.
    EXPECT_EQ(ext({0xC4, 0xE2, 0xF5, 0xB8, 0xC2}), "");
    EXPECT_EQ(ext({0xC5, 0xF5, 0x58, 0xC2}), "");
    EXPECT_EQ(ext({0x66, 0x0F, 0x58, 0xC1}), "");
    EXPECT_EQ(ext({}), "");
}

TEST(UndecodedInstruction, ReadsValgrindsLog) {
    const std::string log =
        "==1== Command: ./vnni\n"
        "vex amd64->IR: unhandled instruction bytes: 0xC4 0xE2 0x55 0x50 0xC 0x2 0x48 0x83 0xC0 0x20\n"
        "vex amd64->IR:   REX=0 REX.W=0 REX.R=0 REX.X=0 REX.B=0\n";
    const auto u = undecoded_instruction(log);
    ASSERT_TRUE(u.has_value());
    EXPECT_EQ(u->bytes, (std::vector<std::uint8_t>{0xC4, 0xE2, 0x55, 0x50, 0x0C, 0x02, 0x48, 0x83, 0xC0, 0x20}));
    EXPECT_FALSE(u->evex);
    EXPECT_EQ(u->extension, "AVX-VNNI");
    const auto e = undecoded_instruction("vex amd64->IR: unhandled instruction bytes: 0x62 0xF1 0xFD 0x48 0x58\n");
    ASSERT_TRUE(e.has_value());
    EXPECT_TRUE(e->evex);
    EXPECT_FALSE(undecoded_instruction("==1== Process terminating with default action of signal 4 (SIGILL)\n"));
}

} // namespace
} // namespace roofline
