// Reference kernels whose work and traffic are known on paper (issue 12): what each
// computes, its FLOPs and bytes as functions of its size, and where its traffic
// lands in a cache hierarchy. Pure: the code that runs them lives in bench/.
#pragma once

#include "core/machine_model.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

// One call of a kernel at size n (its parameter: elements per array, grid points).
struct KernelCounts {
    double flops = 0;
    double loaded = 0;          // bytes the loop's loads read (nominal)
    double stored = 0;          // bytes its stores write (nominal)
    double memory_read = 0;     // bytes read from the level that holds the data, each array once
    double memory_written = 0;  // bytes written back there
    double write_allocate = 0;  // bytes read for stored lines not read first (a write-allocate cache)
    double working_set = 0;     // bytes the kernel touches: all its arrays
};

// Values of a kernel's parameters beyond its size (atb: "m" = 16); a parameter not given
// takes its default.
using KernelParams = std::map<std::string, std::int64_t>;

struct KernelParameter {
    std::string name;           // "m"
    std::int64_t default_value = 0;
    std::int64_t min = 1, max = 1;
    std::int64_t multiple_of = 1;
    std::string meaning;        // "M = N, the columns of A and B"
};

// Every reference kernel, one value each, in the order of reference_kernels() (the table's
// rows say which they are). bench's registry gives each its code by this id, so a kernel with
// counts and no code (or code and no counts) is found where the registry is built and by its
// unit test, not when someone runs it.
enum class ReferenceKernelId {
    stream_copy, stream_scale, stream_add, stream_triad, daxpy, ddot,
    sum_sp_scalar, sum_sp_unrolled, sum_sp_simd,
    jacobi2d, stencil3d, mvm_row, mvm_col, spmv_laplace3d, dgemm_naive, dgemm_openblas, atb_ours,
    lbm_d3q19, fft3d, atb_openblas, spmv_random,
};
inline constexpr std::size_t kReferenceKernelCount = static_cast<std::size_t>(ReferenceKernelId::spmv_random) + 1;

// A kernel's bytes of one call on paper, as formulas of its size (and parameters) that are
// exactly what counts() gives (a unit test evaluates them): L1 = loaded + stored, memory =
// memory_read + memory_written, write_allocate ("" when none). Formula syntax: numbers, names,
// a product by juxtaposition ("16 n^2") or *, / + - ^ and parentheses, log2(), ceil(), floor(),
// min(), max().
struct KernelBytesText {
    std::string l1;
    std::string memory;
    std::string write_allocate;
};
// A name a kernel's formulas use beyond its size and parameters: "nnz" = "7 g^3 - 6 g^2".
struct FormulaVariable {
    std::string name;
    std::string formula;
};

struct ReferenceKernel {
    ReferenceKernelId id;
    std::string name;         // "stream_triad"
    std::string code;         // "a[i] = b[i] + s * c[i]"
    std::string precision;    // "dp" or "sp"
    std::string parameter;    // what n is: "n elements per array"
    std::string flops_text;   // "2 n": a formula as KernelBytesText's, exactly counts().flops
    KernelBytesText bytes;    // {"24 n", "24 n", "8 n"}
    std::string note;         // what sets its ceiling, what is assumed; may be empty
    KernelCounts (*counts_of)(std::int64_t n, const KernelParams& params);  // params complete
    std::int64_t (*n_of)(double bytes, const KernelParams& params);
    // Without --sizes, larger working sets are left out: one call would take too long (the
    // naive triple loop at 64 MiB runs half a minute); 0: no limit.
    double default_max_bytes = 0;
    std::vector<KernelParameter> parameters = {};  // beyond n; empty for most
    std::string size_symbol = "n";                  // the size's name in the formulas ("g", "K")
    std::vector<FormulaVariable> where = {};        // the formulas' other names, in order

    // `given` checked against `parameters` (a name it does not have, a value out of range or
    // not a multiple: std::invalid_argument saying which) and completed with the defaults.
    KernelParams resolved(const KernelParams& given = {}) const;
    // One call at size n.
    KernelCounts counts(std::int64_t n, const KernelParams& params = {}) const { return counts_of(n, resolved(params)); }
    // The n whose working set is closest to `bytes` (at least the smallest size it runs at).
    std::int64_t n_for_working_set(double bytes, const KernelParams& params = {}) const {
        return n_of(bytes, resolved(params));
    }
};

// The chunk of K rows our A^T B kernel keeps in L1/L2 while every block of C passes over it:
// 128 rows at m = 16 (32 KiB of A and B), fewer for wider matrices, at least 16.
std::int64_t atb_chunk_rows(std::int64_t m);

// The block of C our A^T B kernel keeps in registers over a chunk: 4 x 8 in 256-bit registers
// (AVX2+FMA), 4 x 4 in 128-bit ones (SSE2, the baseline), or 8 x 16 in 512-bit ones where the CPU has AVX-512 and
// m is a multiple of 16. The L1 bytes depend on it: per k, rows + cols doubles for each of the
// (m / rows) (m / cols) blocks.
struct AtbBlock {
    int rows = 4, cols = 8, vector_bits = 256;
};
// `widest_bits`: the widest vectors the run may use (512, 256 or 128).
AtbBlock atb_block(std::int64_t m, int widest_bits);
// atb_ours's counts with the block that ran (the table's counts assume 4 x 8).
KernelCounts atb_ours_counts(std::int64_t k, std::int64_t m, const AtbBlock& block);

// Every kernel, in the order --list prints them.
const std::vector<ReferenceKernel>& reference_kernels();
const ReferenceKernel* find_reference_kernel(const std::string& name);
// The table's row for `id` (reference_kernels()[id]: the rows are in the enum's order, which its
// unit test checks).
const ReferenceKernel& reference_kernel(ReferenceKernelId id);

// Bytes per level of one call whose working set is `counts.working_set`, warm caches,
// LRU: L1 gets the nominal bytes (loads + stores); a level below gets the memory traffic
// (each array read and written once) when the working set does not fit the levels above
// it (each capacity as one thread has it), else nothing: the levels from L2 down to
// data_level() get it, no other. `caches` L1 first; "DRAM" last.
// Nominal, without the write-allocate reads, as the machine model's bandwidth roofs are
// (MemoryRoof::gbs): the two are compared. The write-allocate bytes are the caller's to
// report beside them.
// With `threads` > 1, `counts` are one thread's, each thread works on its own arrays, and
// the capacities are what one thread has of each cache (shared levels split, consecutive
// cores); the bytes returned are all threads'.
// The working set over one thread's share of the last cache it spills before data_level()
// (0 when it fits in L1 or no caches are known): near 1, part of it still hits there (see
// bytes_by_level).
double working_set_over_cache(const KernelCounts& counts, const std::vector<CacheLevel>& caches, int threads);
// `data_cold`: every call starts with none of its data in any cache (its arrays flushed before
// it): whatever it touches first crosses every level from memory, so every level below L1 gets
// the memory traffic (its compulsory footprint, with the write-allocate reads), whatever the
// working set; L1 keeps the loop's loads and stores (a kernel with reuse, dgemm, still has them).
std::map<std::string, double> bytes_by_level(const KernelCounts& counts, const std::vector<CacheLevel>& caches,
                                             int threads = 1, bool data_cold = false);
// The level a call's data comes from, the one its point is judged at: "DRAM" when cold
// (`data_cold`: the arrays flushed), else where one thread's `working_set` (bytes) lives, the
// first cache whose share for one thread holds it ("L1", "L2", ...; a size not known holds
// nothing), "DRAM" when none does or no caches are known. The deepest level bytes_by_level
// gives bytes at.
std::string data_level(double working_set, const std::vector<CacheLevel>& caches, int threads = 1,
                       bool data_cold = false);

// One --param of `roofline kernels`, "NAME=V1,V2,...": the name and its values, each once, in
// the order given. Throws std::invalid_argument with the whole message when the text is not of
// that form ("--param expects NAME=V1,V2,... (got 'm')"), a value is no whole number ("--param
// m: 'x' is not a whole number"), no kernel has the parameter ("--param q: no kernel has it
// (parameters: m (atb_ours), ...)"), or no kernel that has it takes a value ("--param: atb_ours:
// m = 12: m must be 8 to 512, a multiple of 8"): what the text alone says, checked as the option
// is parsed. Which of the kernels chosen have it is the run's to check.
struct KernelParamValues {
    std::string name;
    std::vector<std::int64_t> values;
    std::vector<std::int64_t> repeated;  // the values given more than once (each once here, as first given)
};
KernelParamValues parse_kernel_param(const std::string& text);

// "1K..1G:x2" (sizes from 1 KiB to 1 GiB, each twice the last), "64K..4M:x4",
// "32K,256K,8M" (a list). Throws std::invalid_argument saying what is wrong.
std::vector<std::uint64_t> parse_size_sweep(const std::string& text);

} // namespace roofline
