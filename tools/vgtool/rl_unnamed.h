/* Code without a symbol (a stripped program's or library's functions): its function's range from
 * the unwind table (.eh_frame_hdr, which strip keeps) and the name every table gives it.  Plain C
 * with no library calls, so the Valgrind tool, the sampler and the loop finder share one naming. */
#ifndef RL_UNNAMED_H
#define RL_UNNAMED_H

#ifdef __cplusplus
extern "C" {
#endif

typedef unsigned long long rl_u64;

/* One function the unwind table covers: [start, start + size), link-time addresses. */
typedef struct {
    rl_u64 start, size;
} RlCodeRange;

/* Reads n bytes of the file at `offset` into buf; returns how many it read. */
typedef unsigned long (*RlReadAt)(void *ctx, rl_u64 offset, void *buf, unsigned long n);

/* How many entries the unwind table of the 64-bit ELF file `read` reads holds: at least as many
 * as rl_unwind_functions writes.  0 when it has none, or not in the usual encoding (GCC's and
 * Clang's on x86-64). */
unsigned long rl_unwind_count(RlReadAt read, void *ctx);

/* The functions of that table (at most cap), sorted by start; returns how many it wrote. */
unsigned long rl_unwind_functions(RlReadAt read, void *ctx, RlCodeRange *out, unsigned long cap);

/* The range of `ranges` (sorted, n of them) holding link-time address `at`; NULL when none. */
const RlCodeRange *rl_range_at(const RlCodeRange *ranges, unsigned long n, rl_u64 at);

/* Longest name rl_unnamed_code_name writes (with its NUL); a longer file name is cut. */
#define RL_UNNAMED_NAME_MAX 256

/* The name of code without a symbol in the file at `path` (its base name is used):
 * "(no symbol: FILE+0xSTART)" for the function starting at link-time address `start` (the
 * unwind table's), "(no symbol: FILE)" for code of the file in no such function (has_start 0).
 * Written to out (cap bytes, NUL-terminated). */
void rl_unnamed_code_name(char *out, int cap, const char *path, rl_u64 start, int has_start);

#ifdef __cplusplus
}
#endif

#endif
