// Reference kernels' counts on paper (core/reference_kernels.hpp), where their bytes
// land in a hierarchy, and the size sweeps of `roofline kernels --sizes`.
#include "core/reference_kernels.hpp"

#include "core/level.hpp"
#include "cachesim_fixture.hpp"
#include "rl_cachesim.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

namespace roofline {
namespace {

const ReferenceKernel& kernel(const std::string& name) {
    const auto* k = find_reference_kernel(name);
    if (!k) throw std::runtime_error("no kernel " + name);
    return *k;
}

// The formulas --list shows, evaluated as KernelBytesText describes them: numbers, names,
// juxtaposition or * as a product, / + - ^, parentheses, log2 ceil floor min max.
class ListedFormula {
public:
    ListedFormula(const std::string& text, const std::map<std::string, double>& names) : s_(text), names_(names) {}
    double value() {
        const double v = sum();
        skip();
        if (i_ != s_.size()) throw std::invalid_argument("'" + s_ + "': unexpected '" + s_.substr(i_) + "'");
        return v;
    }

private:
    void skip() {
        while (i_ < s_.size() && s_[i_] == ' ') ++i_;
    }
    bool eat(char c) {
        skip();
        if (i_ < s_.size() && s_[i_] == c) return ++i_, true;
        return false;
    }
    bool starts_factor() {
        skip();
        return i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '(' || s_[i_] == '.');
    }
    double sum() {
        double v = product();
        for (;;) {
            if (eat('+')) v += product();
            else if (eat('-')) v -= product();
            else return v;
        }
    }
    double product() {
        double v = power();
        for (;;) {
            if (eat('*')) v *= power();
            else if (eat('/')) v /= power();
            else if (starts_factor()) v *= power();
            else return v;
        }
    }
    double power() {
        const double base = unary();
        return eat('^') ? std::pow(base, unary()) : base;
    }
    double unary() { return eat('-') ? -unary() : primary(); }
    double primary() {
        skip();
        if (eat('(')) {
            const double v = sum();
            if (!eat(')')) throw std::invalid_argument("'" + s_ + "': ')' expected");
            return v;
        }
        const std::size_t start = i_;
        if (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.')) {
            while (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.')) ++i_;
            return std::stod(s_.substr(start, i_ - start));
        }
        while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
        const std::string name = s_.substr(start, i_ - start);
        if (name.empty()) throw std::invalid_argument("'" + s_ + "': a name or number expected at " + s_.substr(i_));
        if (i_ < s_.size() && s_[i_] == '(') {  // a function: no space before its parenthesis
            ++i_;
            std::vector<double> args{sum()};
            while (eat(',')) args.push_back(sum());
            if (!eat(')')) throw std::invalid_argument("'" + s_ + "': ')' expected after " + name);
            if (name == "log2" && args.size() == 1) return std::log2(args[0]);
            if (name == "ceil" && args.size() == 1) return std::ceil(args[0]);
            if (name == "floor" && args.size() == 1) return std::floor(args[0]);
            if (name == "min" && args.size() == 2) return std::min(args[0], args[1]);
            if (name == "max" && args.size() == 2) return std::max(args[0], args[1]);
            throw std::invalid_argument("'" + s_ + "': unknown function " + name);
        }
        const auto it = names_.find(name);
        if (it == names_.end()) throw std::invalid_argument("'" + s_ + "': unknown name " + name);
        return it->second;
    }
    std::string s_;
    const std::map<std::string, double>& names_;
    std::size_t i_ = 0;
};

TEST(ReferenceKernels, TheListedFormulasAreWhatIsCounted) {
    for (const auto& k : reference_kernels()) {
        for (const double bytes : {48e3, 3e6}) {
            const KernelParams params = k.resolved();
            const std::int64_t n = k.n_for_working_set(bytes, params);
            std::map<std::string, double> names{{k.size_symbol, static_cast<double>(n)}};
            for (const auto& [name, value] : params) names[name] = static_cast<double>(value);
            const auto eval = [&](const std::string& text) {
                try {
                    return text.empty() ? 0.0 : ListedFormula(text, names).value();
                } catch (const std::exception& e) {
                    ADD_FAILURE() << k.name << ": " << e.what();
                    return -1.0;
                }
            };
            for (const auto& v : k.where) names[v.name] = eval(v.formula);
            const auto c = k.counts(n, params);
            const std::string at = k.name + " at " + k.size_symbol + " = " + std::to_string(n);
            EXPECT_NEAR(eval(k.flops_text), c.flops, 1e-9 * c.flops) << at << ": FLOPs " << k.flops_text;
            EXPECT_NEAR(eval(k.bytes.l1), c.loaded + c.stored, 1e-9 * c.loaded) << at << ": L1 " << k.bytes.l1;
            EXPECT_NEAR(eval(k.bytes.memory), c.memory_read + c.memory_written, 1e-9 * c.memory_read)
                << at << ": memory " << k.bytes.memory;
            EXPECT_NEAR(eval(k.bytes.write_allocate), c.write_allocate, 1e-9 * c.memory_read)
                << at << ": write-allocate '" << k.bytes.write_allocate << "'";
        }
    }
}

TEST(ReferenceKernels, ParametersChangeTheCountsAndAreChecked) {
    const auto& atb = kernel("atb_ours");
    // m = 8: 2 K m^2 FLOPs + m^2 a chunk of 256 rows; 3 K m^2 bytes loaded; 16 K m from memory
    const auto c8 = atb.counts(1000, {{"m", 8}});
    EXPECT_DOUBLE_EQ(c8.flops, 2 * 1000 * 64 + 64 * 4);
    EXPECT_DOUBLE_EQ(c8.loaded, 3 * 1000 * 64);
    EXPECT_DOUBLE_EQ(c8.memory_read, 16 * 1000 * 8);
    const auto c32 = kernel("atb_openblas").counts(1000, {{"m", 32}});
    EXPECT_DOUBLE_EQ(c32.flops, 2 * 1000 * 32 * 32);
    EXPECT_DOUBLE_EQ(c32.working_set, 16 * 1000 * 32 + 8 * 32 * 32);
    // The block that ran sets the L1 bytes: per k, rows + cols doubles for each block.
    EXPECT_DOUBLE_EQ(atb_ours_counts(1000, 16, atb_block(16, 256)).loaded, 3 * 1000 * 256);
    EXPECT_DOUBLE_EQ(atb_ours_counts(1000, 16, atb_block(16, 512)).loaded, 1.5 * 1000 * 256);
    EXPECT_EQ(atb_block(16, 512).vector_bits, 512);
    EXPECT_EQ(atb_block(24, 512).rows, 4) << "8 x 16 blocks need m % 16 == 0";
    EXPECT_EQ(atb_block(32, 256).cols, 8);
    EXPECT_EQ(atb_block(32, 128).cols, 4) << "the baseline: 4 x 4 blocks in SSE2 registers";
    EXPECT_DOUBLE_EQ(atb_ours_counts(1000, 16, atb_block(16, 128)).loaded, 4 * 1000 * 256);
    EXPECT_DOUBLE_EQ(atb_ours_counts(1000, 16, atb_block(16, 512)).flops, atb.counts(1000, {{"m", 16}}).flops);
    EXPECT_EQ(atb_chunk_rows(16), 128);
    EXPECT_EQ(atb_chunk_rows(8), 256);
    EXPECT_EQ(atb_chunk_rows(512), 16);
    // The defaults are the kernel's usual shape.
    EXPECT_DOUBLE_EQ(atb.counts(1000).flops, atb.counts(1000, {{"m", 16}}).flops);
    EXPECT_EQ(atb.resolved().at("m"), 16);
    EXPECT_DOUBLE_EQ(kernel("spmv_random").counts(10, {{"nnzr", 3}}).flops, 60);
    EXPECT_THROW(atb.counts(1000, {{"m", 12}}), std::invalid_argument);  // not a multiple of 8
    EXPECT_THROW(atb.counts(1000, {{"m", 1024}}), std::invalid_argument);
    EXPECT_THROW(atb.counts(1000, {{"nnzr", 4}}), std::invalid_argument);  // not its parameter
    EXPECT_THROW(kernel("stream_triad").resolved({{"m", 8}}), std::invalid_argument);
    // A working set asked for comes out for every value.
    for (const std::int64_t m : {8, 16, 64})
        EXPECT_NEAR(atb.counts(atb.n_for_working_set(64e6, {{"m", m}}), {{"m", m}}).working_set, 64e6, 64e6 * 0.01)
            << m;
}

// --param's text as the option is parsed: its form, a name some kernel has, values some kernel
// with it takes (atb_ours and atb_openblas share m: 8 to 512, multiples of 8).
TEST(ReferenceKernels, ParamTextIsCheckedAsParsed) {
    const auto m = parse_kernel_param("m=8,16,8,512");
    EXPECT_EQ(m.name, "m");
    EXPECT_EQ(m.values, (std::vector<std::int64_t>{8, 16, 512})) << "each once, in order";
    EXPECT_EQ(parse_kernel_param("nnzr=1").values, std::vector<std::int64_t>{1});
    const auto refused = [](const std::string& text) {
        try {
            (void)parse_kernel_param(text);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(refused("m"), "--param expects NAME=V1,V2,... (got 'm')");
    EXPECT_EQ(refused("=8"), "--param expects NAME=V1,V2,... (got '=8')");
    EXPECT_EQ(refused("m="), "--param expects NAME=V1,V2,... (got 'm=')");
    EXPECT_EQ(refused("m=8,x"), "--param m: 'x' is not a whole number");
    EXPECT_EQ(refused("m=8,,16"), "--param m: '' is not a whole number");
    EXPECT_EQ(refused("q=1"), "--param q: no kernel has it (parameters: m (atb_ours), m (atb_openblas), nnzr (spmv_random))");
    EXPECT_EQ(refused("m=12"), "--param: atb_ours: m = 12: m must be 8 to 512, a multiple of 8");
    EXPECT_EQ(refused("nnzr=0"), "--param: spmv_random: nnzr = 0: nnzr must be 1 to 4096");
    EXPECT_EQ(refused("m=\nx=1"), "--param m: '\\nx=1' is not a whole number") << "a line break stays on its line";
}

TEST(ReferenceKernels, StreamTriadCountsAsStreamDoes) {
    const auto c = kernel("stream_triad").counts(1000);
    EXPECT_DOUBLE_EQ(c.flops, 2000);
    EXPECT_DOUBLE_EQ(c.loaded, 16000);
    EXPECT_DOUBLE_EQ(c.stored, 8000);
    EXPECT_DOUBLE_EQ(c.write_allocate, 8000);  // 32 B per iteration with write-allocate
    EXPECT_DOUBLE_EQ(c.working_set, 24000);
}

TEST(ReferenceKernels, EveryKernelsCountsAtKnownSizes) {
    struct Known {
        const char* name;
        std::int64_t n;
        double flops, loaded, stored, write_allocate, working_set;
    };
    const Known known[] = {
        {"stream_copy", 100, 0, 800, 800, 800, 1600},
        {"stream_scale", 100, 100, 800, 800, 800, 1600},
        {"stream_add", 100, 100, 1600, 800, 800, 2400},
        {"daxpy", 100, 200, 1600, 800, 0, 1600},  // y is read before it is written
        {"ddot", 100, 215, 1600, 0, 0, 1600},
        {"sum_sp_scalar", 100, 100, 400, 0, 0, 400},
        {"sum_sp_unrolled", 100, 103, 400, 0, 0, 400},  // + the 3 adds that join the four chains
        {"sum_sp_simd", 100, 115, 400, 0, 0, 400},      // + 12 + 3 that join four vectors of four
        // 8 x 8 interior points of a 10 x 10 grid; b's 8 interior rows of 10 write-allocated
        {"jacobi2d", 10, 4 * 64, 32 * 64, 8 * 64, 8 * 80, 1600},
        {"stencil3d", 5, 8 * 27, 56 * 27, 8 * 27, 8 * 45, 2000},   // 3^3 interior points of a 5^3 grid, 9 rows of 5
        {"mvm_row", 10, 270, 1600, 80, 80, 960},
        {"mvm_col", 10, 200, 1680, 880, 80, 960},                 // y loaded and stored for every column
        {"spmv_laplace3d", 3, 270, 2812, 216, 216, 2164},          // 27 rows, 135 nonzeros
        {"dgemm_naive", 10, 2000, 16000, 800, 800, 2400},
        {"dgemm_openblas", 10, 2000, 1600, 800, 800, 2400},
        {"atb_ours", 100, 51456, 76800, 2048, 2048, 27648},  // + 256 adds of the one chunk's sums into C
        {"atb_openblas", 100, 51200, 25600, 2048, 2048, 27648},
        {"fft3d", 4, 5 * 64 * 6, 16 * 64, 16 * 64, 16 * 64, 32 * 64},  // N = 64 points, log2 N = 6
        {"lbm_d3q19", 5, 219 * 27, 152 * 27, 152 * 27, 152 * 45, 304 * 125},  // 3^3 interior cells of 5^3, 9 rows of 5
        // 100 rows of 8 nonzeros (the default nnzr): 20 B a nonzero + 4 B a row pointer, y written
        {"spmv_random", 100, 1600, 20 * 800 + 4 * 101, 800, 800, 12 * 800 + 4 * 101 + 1600},
    };
    std::set<std::string> seen;
    for (const auto& k : known) {
        const auto c = kernel(k.name).counts(k.n);
        EXPECT_DOUBLE_EQ(c.flops, k.flops) << k.name;
        EXPECT_DOUBLE_EQ(c.loaded, k.loaded) << k.name;
        EXPECT_DOUBLE_EQ(c.stored, k.stored) << k.name;
        EXPECT_DOUBLE_EQ(c.write_allocate, k.write_allocate) << k.name;
        EXPECT_DOUBLE_EQ(c.working_set, k.working_set) << k.name;
        seen.insert(k.name);
    }
    seen.insert("stream_triad");
    for (const auto& k : reference_kernels()) EXPECT_TRUE(seen.count(k.name)) << k.name << " has no known counts here";
}

TEST(ReferenceKernels, SizeForAWorkingSetComesBackToIt) {
    for (const auto& k : reference_kernels()) {
        for (const double bytes : {64e3, 8e6, 1e9}) {
            const auto ws = k.counts(k.n_for_working_set(bytes)).working_set;
            EXPECT_LE(ws, bytes * 1.0001) << k.name;
            // a grid's side is whole: at 64 KB an LBM cube of 5^3 cells is 38 KB, 6^3 is 66 KB
            EXPECT_GE(ws, bytes * (bytes >= 1e6 ? 0.75 : 0.5)) << k.name;
        }
        EXPECT_GE(k.n_for_working_set(1), 2) << k.name << ": a tiny request still gives a kernel to run";
    }
}

std::vector<CacheLevel> hierarchy() {
    return {{1, 32 << 10, 64, 8, 1, 1}, {2, 512 << 10, 64, 8, 1, 1}, {3, 32 << 20, 64, 16, 8, 1}};
}

TEST(ReferenceKernels, ColdDataComesFromMemoryWhateverItsSize) {
    // Flushed before the call, a 24 KB triad that fits in L1 still reads its arrays from DRAM:
    // its footprint with the write-allocate reads crosses every level below L1.
    const auto& triad = kernel("stream_triad");
    const auto cold = bytes_by_level(triad.counts(1000), hierarchy(), 1, true);
    EXPECT_DOUBLE_EQ(cold.at("L1"), 24000);
    EXPECT_DOUBLE_EQ(cold.at("L2"), 32000);
    EXPECT_DOUBLE_EQ(cold.at("L3"), 32000);
    EXPECT_DOUBLE_EQ(cold.at("DRAM"), 32000);
    EXPECT_DOUBLE_EQ(bytes_by_level(triad.counts(1000), hierarchy(), 2, true).at("DRAM"), 64000) << "both threads'";
    // A kernel with reuse keeps its L1 loads; DRAM gets its footprint (A and B read, C written
    // and write-allocated).
    const auto gemm = bytes_by_level(kernel("dgemm_naive").counts(10), hierarchy(), 1, true);
    EXPECT_DOUBLE_EQ(gemm.at("L1"), 16000 + 800);
    EXPECT_DOUBLE_EQ(gemm.at("DRAM"), 1600 + 800 + 800);
    // Every kernel, however small, has DRAM bytes when cold.
    for (const auto& k : reference_kernels()) {
        const auto bytes = bytes_by_level(k.counts(k.n_for_working_set(4096)), hierarchy(), 1, true);
        EXPECT_GT(bytes.count("DRAM") ? bytes.at("DRAM") : 0.0, 0) << k.name;
        EXPECT_FALSE(bytes_by_level(k.counts(k.n_for_working_set(4096)), hierarchy()).count("DRAM")) << k.name;
    }
}

TEST(ReferenceKernels, WorkingSetOverTheLastCacheItSpills) {
    const auto& triad = kernel("stream_triad");
    EXPECT_EQ(working_set_over_cache(triad.counts(1000), hierarchy(), 1), 0) << "24 KB fits in L1";
    EXPECT_DOUBLE_EQ(working_set_over_cache(triad.counts(100000), hierarchy(), 1), 2.4e6 / (512 << 10));
    EXPECT_DOUBLE_EQ(working_set_over_cache(triad.counts(10000000), hierarchy(), 1), 2.4e8 / (32 << 20));
    EXPECT_EQ(working_set_over_cache(triad.counts(10000000), {}, 1), 0) << "no caches known";
}

TEST(ReferenceKernels, BytesLandAtTheLevelsTheWorkingSetSpills) {
    const auto& triad = kernel("stream_triad");
    auto in_l1 = bytes_by_level(triad.counts(1000), hierarchy());  // 24 KB
    EXPECT_EQ(in_l1.size(), 1u);
    EXPECT_DOUBLE_EQ(in_l1.at("L1"), 24000);
    auto in_l3 = bytes_by_level(triad.counts(100000), hierarchy());  // 2.4 MB: spills L1 and L2
    // below L1 the traffic: 24 B an iteration and 8 B of write-allocate reads (as the roofs below L1 count)
    EXPECT_DOUBLE_EQ(in_l3.at("L2"), 3.2e6);
    EXPECT_DOUBLE_EQ(in_l3.at("L3"), 3.2e6);
    EXPECT_FALSE(in_l3.count("DRAM"));
    auto in_dram = bytes_by_level(triad.counts(10000000), hierarchy());
    EXPECT_DOUBLE_EQ(in_dram.at("DRAM"), 3.2e8);
    EXPECT_DOUBLE_EQ(bytes_by_level(triad.counts(10), {}).at("DRAM"), 320);
    // daxpy stores to what it read: no write-allocate reads
    EXPECT_DOUBLE_EQ(bytes_by_level(kernel("daxpy").counts(10), {}).at("DRAM"), 240);
    // jacobi: 40 B a point at L1; from memory (the layer condition) all of a, and b's 2000
    // interior rows written and write-allocated
    const auto j = bytes_by_level(kernel("jacobi2d").counts(2002), hierarchy());
    EXPECT_DOUBLE_EQ(j.at("L1"), 40.0 * 2000 * 2000);
    EXPECT_DOUBLE_EQ(j.at("DRAM"), 8.0 * 2002 * 2002 + 16.0 * 2002 * 2000);
}

// The grids' memory traffic, whole rows: the source's halo comes from memory too. A 4 x 4
// Jacobi reads 12 of a's 16 elements (not the corners), all in its 4 rows, and stores 4 in
// b's 2 middle rows; a 4^3 stencil reads every row of a but the 4 along its edges and stores
// into 4 of b's rows.
TEST(ReferenceKernels, GridKernelsReadTheirHaloFromMemory) {
    const auto j = kernel("jacobi2d").counts(4);
    EXPECT_DOUBLE_EQ(j.memory_read, 8 * 16);
    EXPECT_DOUBLE_EQ(j.memory_written, 8 * 8);
    EXPECT_DOUBLE_EQ(j.write_allocate, 8 * 8);
    const auto s = kernel("stencil3d").counts(4);
    EXPECT_DOUBLE_EQ(s.memory_read, 8 * 4 * 12);
    EXPECT_DOUBLE_EQ(s.memory_written, 8 * 4 * 4);
    EXPECT_DOUBLE_EQ(s.write_allocate, 8 * 4 * 4);
    const auto l = kernel("lbm_d3q19").counts(4);
    EXPECT_DOUBLE_EQ(l.memory_read, 19 * 8 * 4 * 4);
    EXPECT_DOUBLE_EQ(l.write_allocate, 19 * 8 * 4 * 4);
    // Cold at 16 KiB (n = 10): a's 96 rows and b's 64 rows twice (written, write-allocated):
    // 17,920 B from DRAM, where the interior points alone gave 12,288.
    const auto& k = kernel("stencil3d");
    const auto cold = bytes_by_level(k.counts(k.n_for_working_set(16 << 10)), hierarchy(), 1, true);
    EXPECT_DOUBLE_EQ(cold.at("DRAM"), 8 * 10 * 96 + 2 * 8 * 10 * 64);
}

// The loops of bench/reference_stencils.cpp, access by access (loads in the order the
// source writes them, then the store), through the Valgrind tool's cache simulator. Cold, a
// grid whose rows are whole lines (n a multiple of 8, 64-byte aligned arrays, as the kernels
// allocate them) reads and writes at DRAM exactly what the counts say; warm and out of
// cache, a sweep after a sweep moves the same bytes.
namespace grid_sim {
using Counters = std::array<unsigned long long, RL_CS_NCOUNTERS>;
constexpr std::uint64_t kA = 1ull << 28, kB = 1ull << 30;  // the arrays' addresses, far apart

struct Sim : roofline::testing::CacheSim {
    using CacheSim::CacheSim;
    Counters c{};
    void load(std::uint64_t base, std::int64_t i) { rl_cs_access(&cs, 0, base + 8 * i, 8, RL_CS_LOAD, c.data()); }
    void store(std::uint64_t base, std::int64_t i) { rl_cs_access(&cs, 0, base + 8 * i, 8, RL_CS_STORE, c.data()); }
    unsigned long long dram_read() const { return c[RL_CS_READ + 2]; }
    unsigned long long dram_written() const { return c[RL_CS_WRITE + 2]; }
};

rl_cs_config hierarchy(unsigned long long l1, unsigned long long l2, unsigned long long l3) {
    rl_cs_config c{};
    c.levels = 3;
    c.cores = 1;
    c.level[0] = {l1, 64, 8, 1, 0};
    c.level[1] = {l2, 64, 8, 1, 0};
    c.level[2] = {l3, 64, 16, 1, 0};
    return c;
}

void jacobi(Sim& s, std::int64_t n) {
    for (std::int64_t i = 1; i + 1 < n; ++i)
        for (std::int64_t j = 1; j + 1 < n; ++j) {
            for (const std::int64_t at : {(i - 1) * n + j, (i + 1) * n + j, i * n + j - 1, i * n + j + 1}) s.load(kA, at);
            s.store(kB, i * n + j);
        }
}
void stencil(Sim& s, std::int64_t n) {
    const std::int64_t p = n * n;
    for (std::int64_t i = 1; i + 1 < n; ++i)
        for (std::int64_t j = 1; j + 1 < n; ++j)
            for (std::int64_t k = 1; k + 1 < n; ++k) {
                const std::int64_t c = i * p + j * n + k;
                for (const std::int64_t at : {c, c - 1, c + 1, c - n, c + n, c - p, c + p}) s.load(kA, at);
                s.store(kB, c);
            }
}
// The velocities of bench/reference_stencils.cpp's D3Q19.
constexpr int kCx[19] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
constexpr int kCy[19] = {0, 0, 0, 1, -1, 0, 0, 1, -1, -1, 1, 0, 0, 0, 0, 1, -1, 1, -1};
constexpr int kCz[19] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1, -1, 1, 1, -1, -1, 1};
void lbm(Sim& s, std::int64_t n) {
    const std::int64_t cells = n * n * n;
    for (std::int64_t z = 1; z + 1 < n; ++z)
        for (std::int64_t y = 1; y + 1 < n; ++y)
            for (std::int64_t x = 1; x + 1 < n; ++x) {
                const std::int64_t c = (z * n + y) * n + x;
                for (int q = 0; q < 19; ++q) s.load(kA, q * cells - (kCz[q] * n * n + kCy[q] * n + kCx[q]) + c);
                for (int q = 0; q < 19; ++q) s.store(kB, q * cells + c);
            }
}
} // namespace grid_sim

TEST(ReferenceKernels, ColdGridTrafficIsWhatTheCacheSimulatorCounts) {
    using namespace grid_sim;
    struct Case {
        const char* name;
        std::int64_t n;
        void (*run)(Sim&, std::int64_t);
    };
    for (const Case& g : {Case{"jacobi2d", 32, jacobi}, Case{"jacobi2d", 64, jacobi}, Case{"stencil3d", 16, stencil},
                          Case{"stencil3d", 24, stencil}, Case{"lbm_d3q19", 8, lbm}}) {
        Sim sim(hierarchy(32 << 10, 512 << 10, 4 << 20));  // every array fits: only the first touch misses
        g.run(sim, g.n);
        rl_cs_flush(&sim.cs, sim.c.data());  // the dirty lines written back
        const auto counts = kernel(g.name).counts(g.n);
        const std::string at = std::string(g.name) + " n = " + std::to_string(g.n);
        EXPECT_EQ(sim.dram_read(), counts.memory_read + counts.write_allocate) << at;
        EXPECT_EQ(sim.dram_written(), counts.memory_written) << at;
    }
}

TEST(ReferenceKernels, WarmGridSweepsOutOfCacheMoveTheSameTraffic) {
    using namespace grid_sim;
    // 512 KiB a grid, over a 256 KiB last level; three rows (the layer condition) fit L1.
    Sim sim(hierarchy(32 << 10, 128 << 10, 256 << 10));
    const std::int64_t n = 256;
    jacobi(sim, n);
    sim.c = {};
    jacobi(sim, n);  // the steady state: what the first sweep left dirty is written back now
    const auto counts = kernel("jacobi2d").counts(n);
    EXPECT_NEAR(static_cast<double>(sim.dram_read()), counts.memory_read + counts.write_allocate,
                0.01 * counts.memory_read);
    EXPECT_NEAR(static_cast<double>(sim.dram_written()), counts.memory_written, 0.01 * counts.memory_written);
}

// Where the data comes from: the first cache a thread's share of holds the working set, DRAM
// when none does or the arrays are flushed; the bytes stop there.
TEST(ReferenceKernels, DataLevelIsWhereTheWorkingSetLives) {
    EXPECT_EQ(data_level(24e3, hierarchy()), "L1");
    EXPECT_EQ(data_level(2.4e6, hierarchy()), "L3");
    EXPECT_EQ(data_level(2.4e8, hierarchy()), "DRAM");
    EXPECT_EQ(data_level(24e3, hierarchy(), 1, true), "DRAM") << "flushed arrays come from memory";
    EXPECT_EQ(data_level(24e3, {}), "DRAM") << "no caches known";
    EXPECT_EQ(data_level(20e6, hierarchy(), 2), "DRAM") << "half of the 32 MiB L3 a thread";
    // A private 2 MiB L2 and a 16 MiB L3 shared by 16 cores: on 16 threads, 1 MiB of L3 each.
    // 1.5 MiB a thread lives in L2: no bytes below it (the L3 share it overflows is not crossed).
    const std::vector<CacheLevel> big_l2 = {{1, 48 << 10, 64, 12, 1, 16}, {2, 2 << 20, 64, 16, 1, 16},
                                            {3, 16 << 20, 64, 16, 16, 1}};
    KernelCounts c;
    c.loaded = c.memory_read = c.working_set = 1.5 * (1 << 20);
    EXPECT_EQ(data_level(c.working_set, big_l2, 16), "L2");
    const auto bytes = bytes_by_level(c, big_l2, 16);
    EXPECT_TRUE(bytes.count("L2"));
    EXPECT_FALSE(bytes.count("L3"));
    EXPECT_FALSE(bytes.count("DRAM"));
    EXPECT_DOUBLE_EQ(working_set_over_cache(c, big_l2, 16), 1.5 * (1 << 20) / (48 << 10));
    // A level of unknown size holds nothing: 16 KB lives in L1 still, 1 MB past the unknown L2.
    std::vector<CacheLevel> unknown_l2 = hierarchy();
    unknown_l2[1].size_bytes = 0;
    EXPECT_EQ(data_level(16e3, unknown_l2), "L1");
    EXPECT_EQ(data_level(1e6, unknown_l2), "L3");
    c.working_set = 16e3;
    EXPECT_EQ(bytes_by_level(c, unknown_l2).size(), 1u);
    // Whatever the case, the data level is the deepest level with bytes.
    for (const auto& k : reference_kernels())
        for (const double ws : {4e3, 100e3, 1e6, 8e6, 1e9})
            for (const bool cold : {false, true}) {
                const auto kc = k.counts(k.n_for_working_set(ws));
                const auto b = bytes_by_level(kc, hierarchy(), 1, cold);
                std::string deepest = "L1";
                for (const auto& entry : b)
                    if (level_before(deepest, entry.first)) deepest = entry.first;
                EXPECT_EQ(deepest, data_level(kc.working_set, hierarchy(), 1, cold))
                    << k.name << " " << ws;
            }
}

// Two threads on their own arrays: each has half of a shared L3, all of its private L2.
TEST(ReferenceKernels, ThreadsSplitSharedCachesAndAddTheirBytes) {
    const auto per_thread = kernel("stream_triad").counts(100000);  // 2.4 MB a thread
    const auto one = bytes_by_level(per_thread, hierarchy(), 1);
    const auto two = bytes_by_level(per_thread, hierarchy(), 2);
    EXPECT_DOUBLE_EQ(two.at("L1"), 2 * one.at("L1"));
    EXPECT_DOUBLE_EQ(two.at("L3"), 2 * one.at("L3"));
    EXPECT_FALSE(two.count("DRAM"));  // 2.4 MB fits half of 32 MiB
    auto shared = hierarchy();
    shared[2].size_bytes = 4 << 20;  // a 4 MiB L3 shared by 8 cores: 2 MiB a thread
    EXPECT_FALSE(bytes_by_level(per_thread, shared, 1).count("DRAM"));
    EXPECT_DOUBLE_EQ(bytes_by_level(per_thread, shared, 2).at("DRAM"), 2 * 3.2e6);
}

TEST(ReferenceKernels, SizeSweeps) {
    EXPECT_EQ(parse_size_sweep("1K..8K:x2"), (std::vector<std::uint64_t>{1024, 2048, 4096, 8192}));
    EXPECT_EQ(parse_size_sweep("1K..8K"), (std::vector<std::uint64_t>{1024, 2048, 4096, 8192}));
    EXPECT_EQ(parse_size_sweep("32K,1M,4096"), (std::vector<std::uint64_t>{32768, 1 << 20, 4096}));
    EXPECT_EQ(parse_size_sweep("1K..1G:x2").size(), 21u);
    EXPECT_EQ(parse_size_sweep("4K..4K"), std::vector<std::uint64_t>{4096});
    for (const char* bad : {"", "1K..", "..1M", "1K..1M:2", "1K..1M:x1", "1M..1K", "0", "1K,,2K", "1..1G:x1.001",
                            "x"})
        EXPECT_THROW(parse_size_sweep(bad), std::invalid_argument) << bad;
}

// What is wrong with a size is said, not only that it is "not a size": '1T' was called that,
// though it is one in a unit the parser does not take, and '0' though it is zero; a step of
// x1.001 was refused as not "above 1".
TEST(ReferenceKernels, SizeSweepMessagesSayWhy) {
    const auto message = [](const std::string& text) {
        try {
            (void)parse_size_sweep(text);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    EXPECT_NE(message("1T").find("unknown size unit in '1T' (use B, kB, MB or GB)"), std::string::npos) << message("1T");
    EXPECT_EQ(message("1K..1T:x2").rfind("in '1K..1T:x2': unknown size unit in '1T'", 0), 0u) << message("1K..1T:x2");
    EXPECT_EQ(message("16K,0").rfind("in '16K,0': size must be positive: '0'", 0), 0u) << message("16K,0");
    EXPECT_NE(message("2000000000G").find("at most 1 EiB"), std::string::npos) << message("2000000000G");
    EXPECT_NE(message("1K..1M:x1.001").find("F from 1.01 to 1024"), std::string::npos) << message("1K..1M:x1.001");
    EXPECT_NE(message("1K..1M:x2000").find("F from 1.01 to 1024"), std::string::npos) << message("1K..1M:x2000");
    EXPECT_NO_THROW(parse_size_sweep("1K..2K:x1.01"));  // the smallest step the message names is taken
}

} // namespace
} // namespace roofline
