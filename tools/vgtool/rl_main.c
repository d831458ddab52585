/* roofline: a Valgrind tool that counts FP operations (by kind, precision
 * and vector width, counting lanes) and bytes loaded/stored, per region and
 * per function.  Output format: src/measure/PROTOCOL.md.  Method: README.md.
 *
 * Written from the public tool headers (pub_tool_*.h, libvex_ir.h). */

#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_machine.h"
#include "pub_tool_options.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "libvex_guest_offsets.h"
#include "valgrind.h"

#include "rl_cachesim.h"
#include "rl_counters.h"
#include "rl_distinct.h"
#include "rl_fnmatch.h"
#include "rl_insn.h"
#include "rl_unnamed.h"

/* VEX's IR optimiser, from the libvex this tool is linked with statically (Valgrind
 * 3.19's VEX/priv/ir_opt.h, guest_amd64_defs.h, main_globals.h; not in the public
 * headers). The tool counts what every guest instruction does, so it must see the
 * front end's IR: the optimiser that normally runs before instrumentation unrolls small
 * loops and then merges repeated identical FP operations (CSE) and removes those whose
 * result is overwritten (dead code), e.g. a loop of `vsqrtpd %ymm1,%ymm0` kept one sqrt
 * in four. So the tool runs VEX with --vex-iropt-level=0 (post_clo_init) and optimises
 * its instrumented block itself, at the level asked for (optimise_instrumented). */
extern VexControl vex_control;
extern IRSB *do_iropt_BB(IRSB *bb0, IRExpr *(*specHelper)(const HChar *, IRExpr **, IRStmt **, Int),
                         Bool (*preciseMemExnsFn)(Int, Int, VexRegisterUpdates),
                         VexRegisterUpdates pxControl, Addr guest_addr, VexArch guest_arch);
extern IRExpr *guest_amd64_spechelper(const HChar *function_name, IRExpr **args, IRStmt **precedingStmts,
                                      Int n_precedingStmts);
extern Bool guest_amd64_state_requires_precise_mem_exns(Int, Int, VexRegisterUpdates);

/* ------------------------------------------------------------------ */
/* Options                                                              */
/* ------------------------------------------------------------------ */

static const HChar *clo_out = NULL;
#define MAX_TRACKED 64 /* bits of a ULong: the patterns an entry matches */
static const HChar *clo_funcs[MAX_TRACKED];
static Int n_clo_funcs = 0;
/* Process scope (default): a region counts the work of every thread while it
 * is open on any thread (threaded BLAS, OpenMP, FFTW pools).  Thread scope:
 * only the work of the thread that opened it (LIKWID's semantics). */
static Bool clo_thread_scope = False;
/* The cache hierarchy to simulate (README "Cache simulation"): levels from L1 down,
 * each SIZE:WAYS:LINE:SHARED_BY[:victim], comma-separated; none: no simulation. */
static const HChar *clo_cache = NULL;
static Int clo_cache_cores = 1;
/* The core of each CPU (by OS number) of the machine simulated, "0,0,1,1": with it a
 * thread runs on the core its CPU affinity allows, as in a native run. */
static const HChar *clo_cpu_cores = NULL;
/* Functions counted instruction by instruction (--roofline-per-instruction): the loops
 * of `roofline measure --loops` are joined from these counts by address. */
static const HChar *clo_insn_funcs[MAX_TRACKED];
static Int n_clo_insn_funcs = 0;
/* ... and every function of these object files (--roofline-per-instruction-object, repeatable):
 * the program's own code and the libraries asked for, as Valgrind names their files (the
 * resolved paths). */
static const HChar *clo_insn_objs[MAX_TRACKED];
static Int n_clo_insn_objs = 0;

/* ------------------------------------------------------------------ */
/* Cost records: one per (superblock segment).  A segment is a run of IR  */
/* statements with no side exit inside and one function; its static     */
/* costs are multiplied by how often it ran.                             */
/* ------------------------------------------------------------------ */

/* The raw counters of a cost record (Raw below). */
enum { RAW_COUNT, RAW_LD, RAW_ST, RAW_TAKEN, RAW_EXEC, RAW_PER_REC };

struct InsnStat;
typedef struct {
    ULong *count;  /* executions; incremented by generated code */
    ULong *dyn_ld; /* guarded loads: bytes added by generated code */
    ULong *dyn_st; /* guarded stores */
    Int fn;        /* function index */
    /* Per-instruction functions: the one guest instruction this record counts, and for
     * a side exit of it (a jump), how often the exit was taken; when the exit goes to the
     * next instruction, the jump was taken the other times it ran (*exec minus *taken). */
    struct InsnStat *insn;
    ULong *taken;
    ULong *exec;
    Bool exit_to_next;
    ULong insns;   /* guest instructions per execution (its RL_INSN cost) */
    ULong flops;   /* FLOPs per execution (the RL_FLOP costs summed): a region's FLOPs by file */
    ULong seen[RAW_PER_REC]; /* its raw counters as the last harvest saw them */
    UInt nz;       /* number of nonzero static costs */
    UChar idx[RL_NC];
    ULong val[RL_NC];
} CostRec;

static CostRec **recs = NULL;
static Int n_recs = 0, cap_recs = 0;

/* Counters written by generated code live in dedicated memory, apart from
 * everything else: placed among ordinary heap blocks (next to data the core
 * writes) they made instrumented loops up to 2x slower. */
#define CTR_STATIC (1 << 19)
#define CTR_CHUNK (1 << 16)
#define CTR_STRIDE 8 /* one counter per 64-byte line */
static ULong ctr_static[CTR_STATIC] __attribute__((aligned(4096)));
static ULong *ctr_cur = ctr_static;
static SizeT ctr_left = CTR_STATIC;
static ULong zero_ctr = 0; /* never written: stands for an unused counter */

static ULong *new_ctr(void)
{
    if (ctr_left == 0) {
        ctr_cur = VG_(calloc)("rl.ctr", CTR_CHUNK, sizeof(ULong));
        ctr_left = CTR_CHUNK;
    }
    ULong *c = ctr_cur;
    ctr_cur += CTR_STRIDE;
    ctr_left -= CTR_STRIDE;
    return c;
}

/* An array of n pointers with room for at least one more: doubled (from 1024) when full. */
static void *grown_pointers(void *array, Int n, Int *cap, const HChar *cost_centre)
{
    if (n < *cap) return array;
    Int nc = *cap ? 2 * *cap : 1024;
    void **grown = VG_(malloc)(cost_centre, nc * sizeof(void *));
    for (Int i = 0; i < n; i++) grown[i] = ((void **)array)[i];
    if (array) VG_(free)(array);
    *cap = nc;
    return grown;
}

static CostRec *new_rec(Int fn, const ULong *cost)
{
    CostRec *r = VG_(calloc)("rl.rec", 1, sizeof(CostRec));
    r->count = r->dyn_ld = r->dyn_st = r->taken = r->exec = &zero_ctr;
    r->fn = fn;
    r->insns = cost[RL_INSN];
    for (Int i = 0; i < RL_NC; i++)
        if (cost[i]) { r->idx[r->nz] = (UChar)i; r->val[r->nz] = cost[i]; r->nz++; }
    for (Int i = 0; i < 2 * RL_NKIND; i++) r->flops += cost[i];
    recs = grown_pointers(recs, n_recs, &cap_recs, "rl.recs");
    recs[n_recs++] = r;
    return r;
}

/* Running totals (harvest): region events need the process's totals, and summing every
 * record each time made a region's begin and end cost O(all code translated), about 55 us
 * each in a real program. Instead each superblock has a flag, on the line of its first
 * counter; its first run after a harvest (an inline test of the flag) puts it on the
 * touched list, and a harvest adds what the counters of the listed superblocks' records
 * gained since they were last seen (CostRec.seen), then clears the list: O(superblocks run
 * since the last event). The simulator's counter blocks are listed the same way by
 * rl_cache_access. */
typedef struct {
    ULong *flag;            /* nonzero: on the touched list */
    Int rec_begin, rec_end; /* its cost records, recs[rec_begin..rec_end) */
} SbInfo;
static SbInfo **touched_sb = NULL;
static Int n_touched_sb = 0, cap_touched_sb = 0;
static ULong **touched_cb = NULL;
static Int n_touched_cb = 0, cap_touched_cb = 0;

static VG_REGPARM(1) void rl_touch_sb(UWord p)
{
    SbInfo *sbi = (SbInfo *)p;
    *sbi->flag = 1;
    touched_sb = grown_pointers(touched_sb, n_touched_sb, &cap_touched_sb, "rl.touched");
    touched_sb[n_touched_sb++] = sbi;
}

/* ------------------------------------------------------------------ */
/* Cache simulation state                                               */
/* ------------------------------------------------------------------ */

static Bool cache_on = False;
static rl_cs cache;
/* The core the running thread is mapped to (thread_core). */
static Int cur_core = 0;
/* The core of each CPU, from --roofline-cpu-cores (-1: not a CPU of the model). */
#define MAX_CPUS 8192
static Short *cpu_core = NULL;
static Int n_cpus = 0;
/* Where each thread (by tid) ran last, for the output: core + 1 (0: never ran), and
 * whether its affinity pinned it there. */
#define MAX_PLACED 1024
static Short placed_core[MAX_PLACED];
static Bool placed_pinned[MAX_PLACED];
/* The running core's L1 ways, read by the inline hit check of every access: a
 * line of its own. */
static struct { rl_cs_way *v; UChar pad[56]; } l1_box __attribute__((aligned(64)));
static Bool l1_inline = False; /* the check is generated */
static UInt l1_line_shift = 6;
static rl_cs_way *l1_none = NULL; /* stands for an L1 without memory: never a hit */
/* Where a stamp goes when the inline check missed (the call does the access). */
static ULong stamp_sink = 0;

/* Per access of a guest instruction: the byte offset in the L1 ways where its last
 * line was (rl_cs_access's answer). An offset, not a pointer, so it stays valid when
 * the thread, and with it the core and its L1 instance, changes: the tag check
 * decides. Keyed by the instruction's address and the access's place in it, so the
 * copies of a loop body that VEX unrolls in one superblock share it (each copy with
 * its own would find the line moved on by the other copy once per line). */
typedef struct {
    VgHashNode node; /* key: address * 64 + access */
    ULong offset;
} AccessMemo;
static VgHashTable *memos = NULL;
static Addr memo_insn = 0;  /* the guest instruction being instrumented */
static UInt memo_access = 0; /* accesses of it so far */

static ULong *memo_for_access(void)
{
    const UWord key = (UWord)memo_insn * 64 + (memo_access < 63 ? memo_access : 63);
    memo_access++;
    if (!memos) memos = VG_(HT_construct)("rl.memos");
    AccessMemo *m = VG_(HT_lookup)(memos, key);
    if (!m) {
        m = VG_(calloc)("rl.memo", 1, sizeof(AccessMemo));
        m->node.key = key;
        VG_(HT_add_node)(memos, m);
    }
    return &m->offset;
}
/* A block of the simulator's counters (a function's or a counted instruction's): the
 * RL_CS_NCOUNTERS counters rl_cs_access adds to, then whether it is on the touched list
 * (harvest), who it is (2 x function index, or 2 x instruction index + 1), and the
 * counters as the last harvest saw them. */
#define CB_TOUCHED RL_CS_NCOUNTERS
#define CB_ID (RL_CS_NCOUNTERS + 1)
#define CB_SEEN (RL_CS_NCOUNTERS + 2)
#define CB_SIZE (2 * RL_CS_NCOUNTERS + 2)

static void touch_cb(ULong *c)
{
    c[CB_TOUCHED] = 1;
    touched_cb = grown_pointers(touched_cb, n_touched_cb, &cap_touched_cb, "rl.touchedcb");
    touched_cb[n_touched_cb++] = c;
}

/* Per function: the simulator's counters (blocks that never move: generated code
 * holds their addresses); index = function index. */
static ULong **fn_cache = NULL;
static Int cap_fn_cache = 0;

static void *cache_alloc(unsigned long long bytes) { return VG_(calloc)("rl.cache", 1, (SizeT)bytes); }

static ULong *fn_cache_block(Int fn)
{
    if (fn >= cap_fn_cache) {
        Int nc = cap_fn_cache ? 2 * cap_fn_cache : 256;
        while (nc <= fn) nc *= 2;
        ULong **grown = VG_(calloc)("rl.fcache", (SizeT)nc, sizeof(ULong *));
        for (Int i = 0; i < cap_fn_cache; i++) grown[i] = fn_cache[i];
        if (fn_cache) VG_(free)(fn_cache);
        fn_cache = grown;
        cap_fn_cache = nc;
    }
    if (!fn_cache[fn]) {
        fn_cache[fn] = VG_(calloc)("rl.fcache", CB_SIZE, sizeof(ULong));
        fn_cache[fn][CB_ID] = 2 * (ULong)fn;
    }
    return fn_cache[fn];
}

/* Per-instruction counts (--roofline-per-instruction): one entry per guest instruction
 * of the functions asked for. Its simulator counters never move (generated code holds
 * their address); the other counts are summed from its cost records at the end
 * (instruction_counts). */
typedef struct InsnStat {
    VgHashNode node; /* key: guest address */
    Int fn;
    Addr link;       /* its address in its object file (the guest address less the text bias) */
    HChar *obj;      /* the object file, or NULL */
    ULong cache[CB_SIZE]; /* a counter block (CB_*) */
    Int index;       /* its place in insn_list */
    struct CallTarget *targets; /* an indirect call: where it went (rl_indirect_call) */
    Bool plt;        /* a PLT stub's: its indirect jump goes where the call to the stub went */
} InsnStat;

/* A place an indirect call went to, how often, and what is there (found when first seen:
 * a library unloaded later is then still named). */
typedef struct CallTarget {
    struct CallTarget *next;
    Addr at;
    ULong calls;
    Addr link;      /* its address in its object file */
    HChar *obj;     /* the object file, or NULL */
    HChar *fn;      /* the function starting or holding it, or NULL */
} CallTarget;
static VgHashTable *insn_stats = NULL;
static InsnStat **insn_list = NULL;
static Int n_insn = 0, cap_insn = 0;

/* The object holding the code at a: its DebugInfo by its text or, for a PLT stub (outside the
 * text a DebugInfo covers), the DebugInfo of the file whose PLT it is in (*plt set). */
static DebugInfo *code_debuginfo(Addr a, Bool *plt)
{
    *plt = False;
    DebugInfo *di = VG_(find_DebugInfo)(VG_(current_DiEpoch)(), a);
    if (di) return di;
    const HChar *obj = NULL;
    if (VG_(DebugInfo_sect_kind)(&obj, a) != Vg_SectPLT || !obj) return NULL;
    for (const DebugInfo *d = VG_(next_DebugInfo)(NULL); d; d = VG_(next_DebugInfo)(d)) {
        const HChar *file = VG_(DebugInfo_get_filename)(d);
        if (file && VG_(strcmp)(file, obj) == 0) {
            *plt = True;
            return (DebugInfo *)d;
        }
    }
    return NULL;
}

static InsnStat *insn_stat(Addr a, Int fn)
{
    if (!insn_stats) insn_stats = VG_(HT_construct)("rl.insns");
    InsnStat *s = VG_(HT_lookup)(insn_stats, (UWord)a);
    if (s) return s;
    s = VG_(calloc)("rl.insn", 1, sizeof(InsnStat));
    s->node.key = (UWord)a;
    s->fn = fn;
    s->link = a;
    DebugInfo *di = code_debuginfo(a, &s->plt);
    if (di) {
        s->link = a - (Addr)VG_(DebugInfo_get_text_bias)(di);
        const HChar *file = VG_(DebugInfo_get_filename)(di);
        if (file) s->obj = VG_(strdup)("rl.insnobj", file);
    }
    VG_(HT_add_node)(insn_stats, s);
    insn_list = grown_pointers(insn_list, n_insn, &cap_insn, "rl.insnlist");
    s->index = n_insn;
    s->cache[CB_ID] = 2 * (ULong)n_insn + 1;
    insn_list[n_insn++] = s;
    return s;
}

/* The calling kernel thread's CPU affinity (the running guest thread's: each runs on
 * its own kernel thread); the mask's size in bytes, or <= 0. Not a Valgrind tool API:
 * the system call itself. */
static Long own_affinity(UChar *mask, ULong bytes)
{
#if defined(__x86_64__)
    Long r;
    __asm__ volatile("syscall" : "=a"(r) : "0"((Long)__NR_sched_getaffinity), "D"(0L), "S"(bytes), "d"(mask)
                     : "rcx", "r11", "memory");
    return r;
#else
    (void)mask;
    (void)bytes;
    return -1;
#endif
}

/* Where thread tid (1-based, creation order) runs. With the CPUs' cores known: on the
 * one core its affinity allows (a pinned thread: OpenMP binding, taskset, pthread
 * attributes); allowed several, the (tid-1) mod k-th of those k cores, as the
 * kernel spreads threads over idle cores. Without: core (tid-1) mod cores. */
static Int thread_core(ThreadId tid)
{
    const Int n = tid >= 1 ? (Int)tid - 1 : 0;
    static UChar mask[MAX_CPUS / 8];
    static UChar seen[RL_CS_MAX_CORES];
    if (cpu_core) {
        const Long got = own_affinity(mask, sizeof(mask));
        static Int cores[RL_CS_MAX_CORES];
        Int k = 0;
        VG_(memset)(seen, 0, sizeof(seen));
        for (Int cpu = 0; got > 0 && cpu < n_cpus && cpu < 8 * got; cpu++) {
            const Int c = cpu_core[cpu];
            if (c < 0 || !(mask[cpu / 8] & (1u << (cpu % 8))) || seen[c]) continue;
            seen[c] = 1;
            cores[k++] = c;
        }
        if (k > 0) {
            /* in core order: the simulator's shared instances take consecutive cores */
            Int m = 0;
            for (Int c = 0; c < cache.cores; c++)
                if (seen[c]) cores[m++] = c;
            if (tid < MAX_PLACED) placed_pinned[tid] = k == 1;
            return cores[n % m];
        }
    }
    if (tid < MAX_PLACED) placed_pinned[tid] = False;
    return n % cache.cores;
}

static void cache_set_core(ThreadId tid)
{
    if (!cache_on) return;
    cur_core = thread_core(tid);
    if (tid < MAX_PLACED) placed_core[tid] = (Short)(cur_core + 1);
    rl_cs_way *w = rl_cs_l1_ways(&cache, cur_core);
    l1_box.v = w ? w : l1_none;
}

/* The distinct lines touched (rl_distinct.h): the whole run's sketch, and those of the
 * regions open now (cache_ctx_update keeps the list: process scope, open anywhere; thread
 * scope, on the running thread), set beside the last level's size (measure's note that a
 * point filling most of it has a lower bound for its DRAM bytes). Fed here, where every
 * access that is not an inline L1 hit comes: a line a region touches is a miss there at
 * least once, unless it was in L1 when the region opened (at most L1's size left out).
 * Non-temporal stores are left out: their lines take no room in the caches. */
#define MAX_SKETCHES 1025 /* every region (MAX_REGIONS) and the whole run */
static rl_ds *program_touched = NULL;
static rl_ds *touched_now[MAX_SKETCHES];
static Int n_touched_now = 0;

static void rl_cache_access(UWord addr, UWord size_kind, UWord ctr, UWord memo)
{
    const unsigned size = (unsigned)(size_kind & 0xffffff);
    const int kind = (int)(size_kind >> 24);
    const long long at = rl_cs_access(&cache, cur_core, (ULong)addr, size, kind, (ULong *)ctr);
    if (at >= 0 && memo) *(ULong *)memo = (ULong)at;
    if (!((ULong *)ctr)[CB_TOUCHED]) touch_cb((ULong *)ctr);
    if (kind != RL_CS_NT_STORE) {
        const ULong first = (ULong)addr >> l1_line_shift, last = ((ULong)addr + (size ? size : 1) - 1) >> l1_line_shift;
        for (ULong line = first; line <= last; line++) {
            const ULong h = rl_ds_hash(line);
            for (Int k = 0; k < n_touched_now; k++) rl_ds_add(touched_now[k], h);
        }
    }
}

/* Bytes of the distinct lines a sketch saw (0 for none). */
static ULong touched_bytes(const rl_ds *s)
{
    return s ? rl_ds_estimate(s) * (ULong)cache.lv[0].cfg.line : 0;
}

/* Bytes of `lines` lines. */
static ULong line_bytes(ULong lines) { return lines * (ULong)cache.lv[0].cfg.line; }

/* Dirty bytes held by the whole hierarchy now (written back later, at eviction). */
static ULong cache_dirty_bytes(void)
{
    ULong b = 0;
    if (!cache_on) return 0;
    for (Int l = 0; l < cache.levels; l++) b += rl_cs_dirty_lines(&cache, l) * cache.lv[l].cfg.line;
    return b;
}

/* ------------------------------------------------------------------ */
/* Functions (name table)                                               */
/* ------------------------------------------------------------------ */

/* Functions are told apart by name and by the file they are in: two libraries' `kern`s are two
 * entries (each with its own counts), named "kern (liba.so)" and "kern (libb.so)" in the output
 * (fn_out_name); a name no other file has is written as it is. */
/* flag_only: its FP instructions compute nothing the program uses, they raise an exception flag
 * (fp_flag_only_function), so their operations are counted apart (RL_FP_FLAG), not as FLOPs. */
typedef struct { HChar *name; HChar *obj; Int next; Bool flag_only; Int file; } FnEnt; /* obj: the file it is in, or NULL; file: its index in files[] (-1: none) */
#define FN_HASH 4096
static Int fn_head[FN_HASH];
static FnEnt *fns = NULL;
static Int n_fns = 0, cap_fns = 0;

/* The name of code in no file (an anonymous executable mapping: a JIT's output), alike in
 * measure's sampler (ProcessCode::name_at). */
#define RL_NO_FILE_NAME "(code outside any file: generated at run time)"

/* The files functions are in, each once (a region's FLOPs by file: fn_file). */
static HChar **files = NULL;
static Int n_files = 0, cap_files = 0;

static Int file_index(const HChar *obj)
{
    if (!obj) return -1;
    for (Int i = 0; i < n_files; i++)
        if (VG_(strcmp)(files[i], obj) == 0) return i;
    files = grown_pointers(files, n_files, &cap_files, "rl.files");
    files[n_files] = VG_(strdup)("rl.filename", obj);
    return n_files++;
}

static UInt str_hash(const HChar *s)
{
    UInt h = 2166136261u;
    while (*s) { h ^= (UChar)*s++; h *= 16777619u; }
    return h;
}

static Bool same_obj(const HChar *a, const HChar *b)
{
    return a == b || (a && b && VG_(strcmp)(a, b) == 0);
}

/* libgcc's soft-fp exception raiser: after each binary128 (__float128) operation whose result is
 * inexact (1.0Q/3, every product of such values), __addtf3, __multf3, ... call it, and it runs one
 * real divss (0.0f/0.0f, 1.0f/3.0f ...) for the sake of the flag that division sets. Counted as
 * FLOPs, a __float128 dot product was an f32 point of 2 FLOPs per element, all in this function. */
static Bool fp_flag_only_function(const HChar *name)
{
    return VG_(strcmp)(name, "__sfp_handle_exceptions") == 0;
}

/* The entry of function `name` in file `obj` (NULL: none known), made on first sight. */
static Int fn_index_in(const HChar *name, const HChar *obj)
{
    UInt h = str_hash(name) % FN_HASH;
    for (Int i = fn_head[h]; i >= 0; i = fns[i].next)
        if (VG_(strcmp)(fns[i].name, name) == 0 && same_obj(fns[i].obj, obj)) return i;
    if (n_fns == cap_fns) {
        Int nc = cap_fns ? 2 * cap_fns : 256;
        FnEnt *nf = VG_(malloc)("rl.fns", nc * sizeof(FnEnt));
        for (Int i = 0; i < n_fns; i++) nf[i] = fns[i];
        if (fns) VG_(free)(fns);
        fns = nf;
        cap_fns = nc;
    }
    fns[n_fns].name = VG_(strdup)("rl.fnname", name);
    fns[n_fns].obj = obj ? VG_(strdup)("rl.objname", obj) : NULL;
    fns[n_fns].flag_only = fp_flag_only_function(name);
    fns[n_fns].file = file_index(obj);
    fns[n_fns].next = fn_head[h];
    fn_head[h] = n_fns;
    return n_fns++;
}

static Int fn_index(const HChar *name) { return fn_index_in(name, NULL); }

/* Each file's functions without a symbol, from its unwind table (read once, when its first
 * unnamed code runs), so two of them are two entries, named as measure's sampler and loop finder
 * name them. */
typedef struct {
    HChar *obj;
    RlCodeRange *ranges;
    unsigned long n;
} UnnamedFile;
static UnnamedFile *unnamed_files = NULL;
static Int n_unnamed_files = 0, cap_unnamed_files = 0;

static unsigned long read_file_at(void *ctx, rl_u64 offset, void *buf, unsigned long n)
{
    const Int fd = *(Int *)ctx;
    if (VG_(lseek)(fd, (Off64T)offset, VKI_SEEK_SET) != (Off64T)offset) return 0;
    const Int got = VG_(read)(fd, buf, (Int)n);
    return got > 0 ? (unsigned long)got : 0;
}

static const RlCodeRange *unnamed_function_at(const HChar *obj, Addr link)
{
    UnnamedFile *f = NULL;
    for (Int i = 0; i < n_unnamed_files && !f; i++)
        if (VG_(strcmp)(unnamed_files[i].obj, obj) == 0) f = &unnamed_files[i];
    if (!f) {
        if (n_unnamed_files == cap_unnamed_files) {
            cap_unnamed_files = cap_unnamed_files ? 2 * cap_unnamed_files : 8;
            unnamed_files = VG_(realloc)("rl.unnamedfiles", unnamed_files, cap_unnamed_files * sizeof(UnnamedFile));
        }
        f = &unnamed_files[n_unnamed_files++];
        f->obj = VG_(strdup)("rl.unnamedobj", obj);
        f->ranges = NULL;
        f->n = 0;
        SysRes r = VG_(open)(obj, VKI_O_RDONLY, 0);
        if (!sr_isError(r)) {
            Int fd = (Int)sr_Res(r);
            const unsigned long count = rl_unwind_count(read_file_at, &fd);
            if (count > 0) {
                f->ranges = VG_(malloc)("rl.unnamedranges", count * sizeof(RlCodeRange));
                f->n = rl_unwind_functions(read_file_at, &fd, f->ranges, count);
            }
            VG_(close)(fd);
        }
    }
    return rl_range_at(f->ranges, f->n, (rl_u64)link);
}

static Int fn_of_addr(Addr a)
{
    const HChar *name = NULL;
    const HChar *obj = NULL;
    if (!VG_(get_objname)(VG_(current_DiEpoch)(), a, &obj) || !obj || !*obj) obj = NULL;
    if (!VG_(get_fnname)(VG_(current_DiEpoch)(), a, &name) || !name || !*name) {
        /* Code without a symbol (a stripped library's static functions: FFTW's codelets,
           libgfortran's matmul) is kept apart by its file, named as measure's sampler names it;
           code in no file was generated at run time. */
        if (!obj) return fn_index(RL_NO_FILE_NAME);
        const RlCodeRange *range = NULL;
        Bool plt;
        DebugInfo *di = code_debuginfo(a, &plt);
        if (di) range = unnamed_function_at(obj, a - (Addr)VG_(DebugInfo_get_text_bias)(di));
        HChar buf[RL_UNNAMED_NAME_MAX];
        rl_unnamed_code_name(buf, sizeof buf, obj, range ? range->start : 0, range != NULL);
        return fn_index_in(buf, obj);
    }
    return fn_index_in(name, obj);
}

/* Whether another file has a function of fn's name (entries of one name share a chain). */
static Bool fn_ambiguous(Int fn)
{
    for (Int i = fn_head[str_hash(fns[fn].name) % FN_HASH]; i >= 0; i = fns[i].next)
        if (i != fn && VG_(strcmp)(fns[i].name, fns[fn].name) == 0 && !same_obj(fns[i].obj, fns[fn].obj)) return True;
    return False;
}

/* "NAME (FILE)", FILE the base name of obj (NULL: NAME), into buf. */
static const HChar *qualified_name(const HChar *name, const HChar *obj, HChar *buf, Int cap)
{
    if (!obj) return name;
    const HChar *slash = VG_(strrchr)(obj, '/');
    VG_(snprintf)(buf, cap, "%s (%s)", name, slash ? slash + 1 : obj);
    return buf;
}

/* Function fn's name as the output gives it: qualified by its file when another has its name. */
static const HChar *fn_out_name(Int fn, HChar *buf, Int cap)
{
    if (fn < 0 || fn >= n_fns) return RL_NO_FILE_NAME;
    return fn_ambiguous(fn) ? qualified_name(fns[fn].name, fns[fn].obj, buf, cap) : fns[fn].name;
}

/* Whether function fn is counted instruction by instruction (decided once per function). */
static UChar *fn_insn_mode = NULL; /* 0: not decided, 1: yes, 2: no */
static Int cap_fn_insn_mode = 0;

static Bool fn_per_insn(Int fn)
{
    if (n_clo_insn_funcs == 0 || fn < 0) return False;
    if (fn >= cap_fn_insn_mode) {
        Int nc = cap_fn_insn_mode ? 2 * cap_fn_insn_mode : 256;
        while (nc <= fn) nc *= 2;
        UChar *grown = VG_(calloc)("rl.fnmode", (SizeT)nc, 1);
        for (Int i = 0; i < cap_fn_insn_mode; i++) grown[i] = fn_insn_mode[i];
        if (fn_insn_mode) VG_(free)(fn_insn_mode);
        fn_insn_mode = grown;
        cap_fn_insn_mode = nc;
    }
    if (!fn_insn_mode[fn]) {
        fn_insn_mode[fn] = 2;
        for (Int i = 0; i < n_clo_insn_funcs; i++)
            if (rl_name_matches(clo_insn_funcs[i], fns[fn].name)) fn_insn_mode[fn] = 1;
    }
    return fn_insn_mode[fn] == 1;
}

/* Whether the instruction at a is in the object counted instruction by instruction. */
static Bool in_insn_object(Addr a)
{
    static DebugInfo *last = NULL;
    static Bool last_in = False;
    if (n_clo_insn_objs == 0) return False;
    Bool plt;
    DebugInfo *di = code_debuginfo(a, &plt);
    if (!di) return False;
    if (di != last) {
        const HChar *file = VG_(DebugInfo_get_filename)(di);
        last = di;
        last_in = False;
        for (Int i = 0; file && i < n_clo_insn_objs && !last_in; i++) last_in = VG_(strcmp)(file, clo_insn_objs[i]) == 0;
    }
    return last_in;
}

/* ------------------------------------------------------------------ */
/* Raw counters: what every count is made of                            */
/* ------------------------------------------------------------------ */

/* The counters generated code and the simulator write, as they stood at one moment (or a
 * region's share of them: the sum of what they gained while it was open). Per cost record:
 * executions, guarded bytes loaded and stored, a side exit's taken and its instruction's
 * executions; per function and per counted instruction: the simulator's counters. The
 * per-function and per-instruction counts are made from a Raw, so a marker region's are made
 * the same way as the whole run's (measure --loops inside a region). */
typedef struct {
    ULong *rec;   /* RAW_PER_REC per cost record */
    Int n_rec;
    ULong *fcache; /* RL_CS_NCOUNTERS per function */
    Int n_fcache;
    ULong *icache; /* RL_CS_NCOUNTERS per counted instruction */
    Int n_icache;
} Raw;

static ULong raw_live(const CostRec *r, Int field)
{
    switch (field) {
    case RAW_COUNT: return *r->count;
    case RAW_LD: return *r->dyn_ld;
    case RAW_ST: return *r->dyn_st;
    case RAW_TAKEN: return *r->taken;
    default: return *r->exec;
    }
}

static void raw_free(Raw *r)
{
    if (r->rec) VG_(free)(r->rec);
    if (r->fcache) VG_(free)(r->fcache);
    if (r->icache) VG_(free)(r->icache);
    VG_(memset)(r, 0, sizeof(Raw));
}

/* a[0..*n) grown to `want` entries of `per` counters, the new ones zero */
static ULong *raw_grown(ULong *a, Int *n, Int want, Int per)
{
    if (want <= *n && a) return a;
    ULong *g = VG_(calloc)("rl.raw", (SizeT)(want ? want : 1) * per, sizeof(ULong));
    for (SizeT i = 0; a && i < (SizeT)*n * per; i++) g[i] = a[i];
    if (a) VG_(free)(a);
    if (want > *n) *n = want;
    return g;
}

/* The counters as they stand now, into `out` (its arrays kept and grown: a region opened
 * often reuses them). */
static void raw_fill(Raw *out)
{
    out->rec = raw_grown(out->rec, &out->n_rec, n_recs, RAW_PER_REC);
    out->fcache = raw_grown(out->fcache, &out->n_fcache, cache_on ? cap_fn_cache : 0, RL_CS_NCOUNTERS);
    out->icache = raw_grown(out->icache, &out->n_icache, n_insn, RL_CS_NCOUNTERS);
    for (Int k = 0; k < n_recs; k++)
        for (Int f = 0; f < RAW_PER_REC; f++) out->rec[(SizeT)k * RAW_PER_REC + f] = raw_live(recs[k], f);
    for (Int f = 0; f < out->n_fcache; f++)
        for (Int k = 0; k < RL_CS_NCOUNTERS; k++)
            out->fcache[(SizeT)f * RL_CS_NCOUNTERS + k] = f < cap_fn_cache && fn_cache[f] ? fn_cache[f][k] : 0;
    for (Int i = 0; i < out->n_icache; i++)
        for (Int k = 0; k < RL_CS_NCOUNTERS; k++)
            out->icache[(SizeT)i * RL_CS_NCOUNTERS + k] = i < n_insn ? insn_list[i]->cache[k] : 0;
}

/* a (n entries of `per` counters) with room for `need` entries, the new ones zero: at least
 * doubled when it grows (a region's gain grows with the code translated). */
static ULong *raw_reserve(ULong *a, Int *n, Int need, Int per)
{
    if (need <= *n && a) return a;
    Int want = need > 2 * *n ? need : 2 * *n;
    if (want < 64) want = 64;
    ULong *g = VG_(calloc)("rl.raw", (SizeT)want * per, sizeof(ULong));
    for (SizeT i = 0; a && i < (SizeT)*n * per; i++) g[i] = a[i];
    if (a) VG_(free)(a);
    *n = want;
    return g;
}

/* Exclusive counts of every function (n_fns x RL_NC, fresh) from `raw`; the counted
 * instructions' simulator counters go to their functions too. */
static ULong *function_counts(const Raw *raw)
{
    ULong *fc = VG_(calloc)("rl.fc", (SizeT)(n_fns ? n_fns : 1) * RL_NC, sizeof(ULong));
    for (Int k = 0; k < raw->n_rec && k < n_recs; k++) {
        const CostRec *r = recs[k];
        const ULong *v = &raw->rec[(SizeT)k * RAW_PER_REC];
        ULong *c = &fc[(SizeT)r->fn * RL_NC];
        for (UInt j = 0; j < r->nz; j++) c[r->idx[j]] += r->val[j] * v[RAW_COUNT];
        c[RL_LD] += v[RAW_LD];
        c[RL_ST] += v[RAW_ST];
    }
    for (Int f = 0; f < raw->n_fcache && f < n_fns; f++)
        for (Int k = 0; k < RL_CS_NCOUNTERS; k++) fc[(SizeT)f * RL_NC + RL_CACHE + k] += raw->fcache[(SizeT)f * RL_CS_NCOUNTERS + k];
    for (Int i = 0; i < raw->n_icache && i < n_insn; i++) {
        const Int fn = insn_list[i]->fn;
        if (fn < 0 || fn >= n_fns) continue;
        for (Int k = 0; k < RL_CS_NCOUNTERS; k++) fc[(SizeT)fn * RL_NC + RL_CACHE + k] += raw->icache[(SizeT)i * RL_CS_NCOUNTERS + k];
    }
    return fc;
}

/* Each counted instruction's counts from `raw`: c (n_insn x RL_NC), how often it jumped
 * (taken) and whether it has a side exit (has_exit), all fresh. They add up to their
 * functions' counts. */
typedef struct { ULong *c, *taken; Bool *has_exit; } InsnCounts;
static InsnCounts instruction_counts(const Raw *raw)
{
    InsnCounts out;
    out.c = VG_(calloc)("rl.ic", (SizeT)(n_insn ? n_insn : 1) * RL_NC, sizeof(ULong));
    out.taken = VG_(calloc)("rl.ic", (SizeT)(n_insn ? n_insn : 1), sizeof(ULong));
    out.has_exit = VG_(calloc)("rl.ic", (SizeT)(n_insn ? n_insn : 1), sizeof(Bool));
    for (Int i = 0; i < raw->n_icache && i < n_insn; i++)
        for (Int k = 0; k < RL_CS_NCOUNTERS; k++) out.c[(SizeT)i * RL_NC + RL_CACHE + k] = raw->icache[(SizeT)i * RL_CS_NCOUNTERS + k];
    for (Int k = 0; k < raw->n_rec && k < n_recs; k++) {
        const CostRec *r = recs[k];
        if (!r->insn) continue;
        const ULong *v = &raw->rec[(SizeT)k * RAW_PER_REC];
        const Int i = r->insn->index;
        ULong *c = &out.c[(SizeT)i * RL_NC];
        for (UInt j = 0; j < r->nz; j++) c[r->idx[j]] += r->val[j] * v[RAW_COUNT];
        c[RL_LD] += v[RAW_LD];
        c[RL_ST] += v[RAW_ST];
        if (r->taken == &zero_ctr) continue;
        out.has_exit[i] = True;
        if (!r->exit_to_next) out.taken[i] += v[RAW_TAKEN];
        else if (v[RAW_EXEC] >= v[RAW_TAKEN]) out.taken[i] += v[RAW_EXEC] - v[RAW_TAKEN];
    }
    return out;
}

static void free_instruction_counts(InsnCounts *ic)
{
    VG_(free)(ic->c);
    VG_(free)(ic->taken);
    VG_(free)(ic->has_exit);
}

/* ------------------------------------------------------------------ */
/* Regions                                                               */
/* ------------------------------------------------------------------ */

#define MAX_THREADS 512
#define TBITS (MAX_THREADS / 64)
typedef struct {
    HChar *name;
    ULong calls;
    ULong c[RL_NC];
    ULong dirty_at_end; /* cache simulation: dirty bytes held when it last closed */
    /* cache simulation: DRAM write-backs of the lines its stores made dirty that were still
     * dirty when the run ended (the end's flush, flush_dirty_at_exit, charged to their writer) */
    ULong dirty_at_exit;
    /* cache simulation: open in a set of regions past the writer contexts (ctx_intern): lines
     * it wrote then carry no writer, so dirty_at_exit may lack some (dirty_at_exit_up_to) */
    Bool ctx_lost;
    /* cache simulation: the distinct lines touched while open, opening by opening (0: none
     * yet); sk_open: its activations open now, on any thread (an opening lasts while any is) */
    rl_dso *touched;
    Int sk_open;
    /* process scope: open activations on all threads, and the process totals
     * when the first of them began (the region counts the union of them) */
    Int open;
    ULong snap[RL_NC];
    /* threads that did FP work / any memory access in the region (thread slots: Valgrind reuses
     * a finished thread's) */
    ULong flop_threads[TBITS], mem_threads[TBITS];
    /* the most of those that worked at once (see "Threads at once"), FLOPs [0] and memory [1];
     * open_seq: the scheduler segment when it last opened (process scope) */
    Int at_once[2];
    ULong open_seq;
    /* each thread's FLOPs and bytes (loaded + stored) while it was open, by its number (TState
     * no: Valgrind reuses a finished thread's slot): tw[2 * no] and tw[2 * no + 1], n_tw entries
     * (the threads that worked in it, and the busiest one, for measure's note on unequal shares) */
    ULong *tw;
    Int n_tw;
    /* function regions, process scope: instructions of each function executed
     * while the region was open (inner: n_inner entries, by function index), added
     * by each harvest while it is open */
    Bool by_function;
    ULong *inner;
    Int n_inner;
    /* client-request regions, process scope, with instructions counted one by one
     * (region_detail): the raw counters' gain while it was open, added by each harvest
     * while it is open; its functions' and instructions' counts are made from `gain` */
    Bool detail;
    Raw gain;
    /* FLOPs run while it was open (process scope: on any thread; thread scope: on the thread
     * that opened it), by the file of the function that ran them (files[]): the FLOPs of
     * libm's exp called from inside it are its own, and this says which file ran them. */
    ULong *file_flops;
    Int n_file_flops;
} Region;
#define MAX_REGIONS 1024
static Region regions[MAX_REGIONS];
static Int n_regions = 0;
/* process scope: regions with open > 0 */
static Int open_list[MAX_REGIONS];
static Int n_open = 0;

/* Begin requests of regions past MAX_REGIONS distinct names: not counted, said in the output
 * ("regions_over_limit") with the first such name. */
static ULong over_limit_calls = 0;
static HChar *over_limit_first = NULL;

static Int region_index(const HChar *name)
{
    for (Int i = 0; i < n_regions; i++)
        if (VG_(strcmp)(regions[i].name, name) == 0) return i;
    if (n_regions == MAX_REGIONS) {
        if (!over_limit_first) over_limit_first = VG_(strdup)("rl.rname", name);
        return -1;
    }
    VG_(memset)(&regions[n_regions], 0, sizeof(Region));
    regions[n_regions].name = VG_(strdup)("rl.rname", name);
    return n_regions++;
}

static void set_bit(ULong *bits, ThreadId tid)
{
    if (tid < MAX_THREADS) bits[tid / 64] |= 1ULL << (tid % 64);
}

static Int count_bits(const ULong *bits)
{
    Int n = 0;
    for (Int i = 0; i < TBITS; i++)
        for (ULong b = bits[i]; b; b &= b - 1) n++;
    return n;
}

static ULong flops_of(const ULong *c)
{
    ULong f = 0;
    for (Int i = 0; i < 2 * RL_NKIND; i++) f += c[i];
    return f;
}

/* Thread slots of a region: those that did FLOPs in it, or, in a region without
 * FLOPs, those that loaded or stored ("thread_slots"). */
static Int region_threads(const Region *r)
{
    return flops_of(r->c) ? count_bits(r->flop_threads) : count_bits(r->mem_threads);
}

/* Threads by number: at most this many are told apart (later ones share the last number). */
#define MAX_THREAD_NOS (1 << 16)

static void tw_add_to(ULong **tw, Int *n_tw, Int no, ULong flops, ULong bytes)
{
    if (no >= MAX_THREAD_NOS) no = MAX_THREAD_NOS - 1;
    *tw = raw_reserve(*tw, n_tw, no + 1, 2);
    (*tw)[2 * no] += flops;
    (*tw)[2 * no + 1] += bytes;
}

static void tw_add(Region *r, Int no, ULong flops, ULong bytes) { tw_add_to(&r->tw, &r->n_tw, no, flops, bytes); }

/* Whether thread number `no` did work of kind k (0: FLOPs, 1: loads or stores) in these pairs. */
static Bool tw_did(const ULong *tw, Int n_tw, Int no, Int k)
{
    if (no >= MAX_THREAD_NOS) no = MAX_THREAD_NOS - 1;
    return tw && no < n_tw && tw[2 * no + k] != 0;
}

/* The threads that did work of kind k in these pairs ("threads_working"). */
static Int tw_count(const ULong *tw, Int n_tw, Int k)
{
    Int n = 0;
    for (Int i = 0; tw && i < n_tw; i++) n += tw[2 * i + k] != 0;
    return n;
}

/* Its threads at once ("threads"): of FLOPs, or in a region without, of loads and stores; a
 * region whose work was never seen at a thread's flush (none) gives its slots. */
static Int region_at_once(const Region *r)
{
    const Int n = r->at_once[flops_of(r->c) ? 0 : 1];
    return n > 0 ? n : region_threads(r);
}


/* Whether a region's counts are kept by function and by instruction too: a client-request
 * region in process scope when instructions are counted one by one (measure --loops: the
 * loops run inside each region). In thread scope another thread's work moves the same
 * counters while the region is open, so it is not split there. */
static Bool region_detail(const Region *r)
{
    return !r->by_function && !clo_thread_scope && (n_clo_insn_funcs > 0 || n_clo_insn_objs > 0);
}

/* Open activation: region index, snapshot of totals at begin, and (for
 * function regions) the stack pointer at entry. */
typedef struct { Int region; ULong snap[RL_NC]; Addr sp; } Act;
#define MAX_DEPTH 256
typedef struct {
    Act act[MAX_DEPTH];
    Int depth;
    Int fdepth; /* function acts */
    ULong acc[RL_NC]; /* work done by this thread up to when it last stopped running */
    Addr alt_lo, alt_hi; /* its alternate signal stack (sigaltstack), [lo, hi); hi 0: none */
    ThreadId tid;
    Int no; /* its number: 1 for the first thread, counting every thread created */
    /* Threads at once, per kind (0: FLOPs, 1: loads or stores): its current stretch of work
     * began at scheduler segment ready[k]; open[k]: it did that work in every segment since
     * (closed: at closed[k], 0 = never); seg[k]: it did such work in the running segment. */
    ULong ready[2], closed[2];
    Bool open[2], seg[2];
    /* the last segment that did such work; since when it has run without doing it and without
     * waiting (threads it creates then count as created there: see rl_thread_create) */
    ULong last_work[2], idle_from[2];
    /* the segment whose end last moved ready[] on, and ready[] before it */
    ULong stop_seq, ready_before[2];
    /* a syscall: the segment it began in, and whether stretches were open then */
    ULong sys_seq;
    Bool sys_open[2];
} TState;
static TState *tstate[MAX_THREADS];
static Int max_tid_seen = 0;
static Int n_thread_nos = 0;
/* each thread's FLOPs and bytes by number, the whole run's (the program's busiest thread) */
static ULong *program_tw;
static Int n_program_tw;

static TState *ts_of(ThreadId tid)
{
    if (tid >= MAX_THREADS) tid = MAX_THREADS - 1;
    if (!tstate[tid]) {
        tstate[tid] = VG_(calloc)("rl.ts", 1, sizeof(TState));
        tstate[tid]->tid = tid;
        tstate[tid]->no = ++n_thread_nos;
        if ((Int)tid > max_tid_seen) max_tid_seen = tid;
    }
    return tstate[tid];
}

/* Threads at once.  Valgrind runs one thread at a time, so "threads that did FLOPs" counts
 * thread slots, not parallelism: a main thread's serial FLOPs before it starts 2 workers and
 * joins them read 3. Instead each thread's work is cut into stretches: a stretch begins when
 * the thread becomes able to run (created, back from a syscall during which other threads ran,
 * or after a scheduler segment -- start_client_code to stop_client_code -- of no such work) and
 * lasts while every segment of it does the work; it ends at a segment without, at a syscall
 * that waits for others (pthread_join, a futex wait, a barrier: waiting_syscall), at its exit.
 * Two threads worked at once when their stretches overlap in segments: a thread created or woken
 * while another works, and run after it (Valgrind gave it no slice sooner), still counts with it,
 * as natively it would run beside it; threads a thread creates one after the other without
 * working between count from the first creation (Valgrind may run the first far into its work
 * while the creator waits for the lock after an mmap), but not from before the last thread's
 * exit (the creator may have joined it without waiting). A spinning waiter's segments do no
 * FLOPs, so its stretch ends. The counts are kept at each moment a thread does work: it and the
 * threads whose stretches overlap its own, each once (by thread number, finished ones too).
 * Limits: a hand-over by spinning alone (a worker released by a flag, no syscall, in the slice
 * its releaser's work ended) counts the releaser with it; a thread whose whole work ran before
 * its sibling was created (a short one) is not counted with it. */
static ULong seg_seq = 1;
static ULong last_exit_seq = 0; /* the segment in which a thread last exited */

static void stretch_close(TState *t, Int k)
{
    if (t->open[k]) { t->open[k] = False; t->closed[k] = seg_seq; }
}

/* Finished threads' last stretches (their slots may hold new threads): number and end, per kind. */
typedef struct { Int no; ULong closed[2]; } Ghost;
#define MAX_GHOSTS 512
static Ghost ghosts[MAX_GHOSTS];
static Int n_ghosts = 0;

/* The other threads whose stretch of kind k overlaps [since, now]: open now, or closed since;
 * with a region's pairs, only those that did that work in it. */
static Int overlapping(const TState *u, Int k, ULong since, const ULong *tw, Int n_tw, Bool in_region)
{
    Int n = 0;
    for (Int i = 0; i <= max_tid_seen && i < MAX_THREADS; i++) {
        const TState *t = tstate[i];
        if (!t || t == u) continue;
        if (in_region && !tw_did(tw, n_tw, t->no, k)) continue;
        if (t->open[k] || (t->closed[k] && t->closed[k] >= since)) n++;
    }
    for (Int g = 0; g < n_ghosts; g++)
        if (ghosts[g].closed[k] >= since && (!in_region || tw_did(tw, n_tw, ghosts[g].no, k))) n++;
    return n;
}

/* A thread ends: its last stretches stay to be overlapped; those no live thread's stretch can
 * reach any more (ended before every live thread became ready) are dropped. */
static void ghost_add(const TState *t)
{
    ULong oldest = ~0ULL;
    for (Int i = 0; i <= max_tid_seen && i < MAX_THREADS; i++)
        if (tstate[i] && tstate[i] != t)
            for (Int k = 0; k < 2; k++)
                if (tstate[i]->ready[k] < oldest) oldest = tstate[i]->ready[k];
    Int kept = 0;
    for (Int g = 0; g < n_ghosts; g++)
        if (ghosts[g].closed[0] >= oldest || ghosts[g].closed[1] >= oldest) ghosts[kept++] = ghosts[g];
    n_ghosts = kept;
    if (!t->closed[0] && !t->closed[1]) return;
    if (n_ghosts == MAX_GHOSTS) { /* the oldest goes */
        for (Int g = 1; g < n_ghosts; g++) ghosts[g - 1] = ghosts[g];
        n_ghosts--;
    }
    ghosts[n_ghosts].no = t->no;
    ghosts[n_ghosts].closed[0] = t->closed[0];
    ghosts[n_ghosts].closed[1] = t->closed[1];
    n_ghosts++;
}

static Int program_at_once[2];

/* Per-thread attribution.  Valgrind runs one thread at a time.  cur_tid is
 * the thread that ran client code last; switch_snap the process totals when it
 * started running.  When another thread starts, the work done since then is
 * added to cur_tid's acc (see rl_start_client_code).  A thread's own totals
 * are thus its acc, plus (if it is cur_tid) totals() - switch_snap. */
static ThreadId cur_tid = VG_INVALID_THREADID;
static ULong switch_snap[RL_NC];

/* The process's totals, kept running by harvest(). */
static ULong run_tot[RL_NC];
/* Regions a harvest adds to besides run_tot: open in process scope, and counting by
 * function (inner) or by instruction (gain). */
static Int credit_list[MAX_REGIONS];
static Int n_credit = 0;
/* Regions a harvest adds FLOPs by file to: those open (process scope), or open on the thread
 * that ran since the last harvest (thread scope; each once however often it is open there). */
static Int flop_credit_list[MAX_REGIONS];
static Int n_flop_credit = 0;

/* What record k's raw counters gained since the last harvest, into run_tot and the
 * credited regions. */
static void harvest_rec(Int k)
{
    CostRec *r = recs[k];
    ULong d[RAW_PER_REC];
    Bool any = False;
    for (Int f = 0; f < RAW_PER_REC; f++) {
        const ULong v = raw_live(r, f);
        d[f] = v - r->seen[f];
        r->seen[f] = v;
        any |= d[f] != 0;
    }
    if (!any) return;
    if (d[RAW_COUNT])
        for (UInt j = 0; j < r->nz; j++) run_tot[r->idx[j]] += r->val[j] * d[RAW_COUNT];
    run_tot[RL_LD] += d[RAW_LD];
    run_tot[RL_ST] += d[RAW_ST];
    if (d[RAW_COUNT] && r->flops && r->fn >= 0 && fns[r->fn].file >= 0)
        for (Int c = 0; c < n_flop_credit; c++) {
            Region *g = &regions[flop_credit_list[c]];
            const Int file = fns[r->fn].file;
            g->file_flops = raw_reserve(g->file_flops, &g->n_file_flops, file + 1, 1);
            g->file_flops[file] += r->flops * d[RAW_COUNT];
        }
    for (Int c = 0; c < n_credit; c++) {
        Region *g = &regions[credit_list[c]];
        if (g->by_function && d[RAW_COUNT] && r->insns && r->fn >= 0) {
            g->inner = raw_reserve(g->inner, &g->n_inner, r->fn + 1, 1);
            g->inner[r->fn] += r->insns * d[RAW_COUNT];
        }
        if (g->detail) {
            g->gain.rec = raw_reserve(g->gain.rec, &g->gain.n_rec, k + 1, RAW_PER_REC);
            for (Int f = 0; f < RAW_PER_REC; f++) g->gain.rec[(SizeT)k * RAW_PER_REC + f] += d[f];
        }
    }
}

/* The same for a block of simulator counters. */
static void harvest_cb(ULong *cb)
{
    ULong d[RL_CS_NCOUNTERS];
    for (Int k = 0; k < RL_CS_NCOUNTERS; k++) {
        d[k] = cb[k] - cb[CB_SEEN + k];
        cb[CB_SEEN + k] = cb[k];
        run_tot[RL_CACHE + k] += d[k];
    }
    const Bool insn = (cb[CB_ID] & 1) != 0;
    const Int at = (Int)(cb[CB_ID] >> 1);
    for (Int c = 0; c < n_credit; c++) {
        Region *g = &regions[credit_list[c]];
        if (!g->detail) continue;
        ULong *into;
        if (insn) {
            g->gain.icache = raw_reserve(g->gain.icache, &g->gain.n_icache, at + 1, RL_CS_NCOUNTERS);
            into = &g->gain.icache[(SizeT)at * RL_CS_NCOUNTERS];
        } else {
            g->gain.fcache = raw_reserve(g->gain.fcache, &g->gain.n_fcache, at + 1, RL_CS_NCOUNTERS);
            into = &g->gain.fcache[(SizeT)at * RL_CS_NCOUNTERS];
        }
        for (Int k = 0; k < RL_CS_NCOUNTERS; k++) into[k] += d[k];
    }
}

/* Brings run_tot (and the open regions' inner and gain) up to date: the work of every
 * superblock and counter block touched since the last harvest. Every region event
 * harvests before the set of open regions changes, so what a harvest adds to a region
 * was done while it was open. */
static void harvest(void)
{
    n_credit = 0;
    n_flop_credit = 0;
    if (!clo_thread_scope)
        for (Int k = 0; k < n_open; k++) {
            const Region *g = &regions[open_list[k]];
            if (g->by_function || g->detail) credit_list[n_credit++] = open_list[k];
            flop_credit_list[n_flop_credit++] = open_list[k];
        }
    else if (cur_tid != VG_INVALID_THREADID) {
        const TState *t = ts_of(cur_tid);
        for (Int i = 0; i < t->depth; i++) {
            Int k = 0;
            while (k < n_flop_credit && flop_credit_list[k] != t->act[i].region) k++;
            if (k == n_flop_credit) flop_credit_list[n_flop_credit++] = t->act[i].region;
        }
    }
    for (Int i = 0; i < n_touched_sb; i++) {
        SbInfo *sbi = touched_sb[i];
        *sbi->flag = 0;
        for (Int k = sbi->rec_begin; k < sbi->rec_end; k++) harvest_rec(k);
    }
    n_touched_sb = 0;
    for (Int i = 0; i < n_touched_cb; i++) {
        touched_cb[i][CB_TOUCHED] = 0;
        harvest_cb(touched_cb[i]);
    }
    n_touched_cb = 0;
}

/* The process's totals now (every thread's work). */
static void totals(ULong *out)
{
    harvest();
    for (Int i = 0; i < RL_NC; i++) out[i] = run_tot[i];
}


/* Also marks cur_tid as a worker of every region open in process scope when
 * it did work since it started running. */
static void flush_cur(const ULong *now)
{
    if (cur_tid != VG_INVALID_THREADID) {
        TState *c = ts_of(cur_tid);
        ULong d[RL_NC];
        for (Int i = 0; i < RL_NC; i++) {
            d[i] = now[i] - switch_snap[i];
            c->acc[i] += d[i];
        }
        const Bool flops = flops_of(d) != 0, mem = d[RL_LD] != 0 || d[RL_ST] != 0;
        for (Int k = 0; k < n_open; k++) {
            Region *r = &regions[open_list[k]];
            if (flops) set_bit(r->flop_threads, cur_tid);
            if (mem) set_bit(r->mem_threads, cur_tid);
            if (flops || mem) tw_add(r, c->no, flops_of(d), d[RL_LD] + d[RL_ST]);
        }
        if (flops || mem) tw_add_to(&program_tw, &n_program_tw, c->no, flops_of(d), d[RL_LD] + d[RL_ST]);
        const Bool did[2] = {flops, mem};
        for (Int kind = 0; kind < 2; kind++) {
            if (!did[kind]) continue;
            c->seg[kind] = True;
            c->open[kind] = True; /* from c->ready[kind] */
            c->last_work[kind] = seg_seq;
            const Int all = 1 + overlapping(c, kind, c->ready[kind], NULL, 0, False);
            if (all > program_at_once[kind]) program_at_once[kind] = all;
            if (!clo_thread_scope) {
                /* only what overlaps while the region was open, of threads that worked in it */
                for (Int j = 0; j < n_open; j++) {
                    Region *r = &regions[open_list[j]];
                    const ULong since = c->ready[kind] > r->open_seq ? c->ready[kind] : r->open_seq;
                    const Int n = 1 + overlapping(c, kind, since, r->tw, r->n_tw, True);
                    if (n > r->at_once[kind]) r->at_once[kind] = n;
                }
            } else {
                /* thread scope: the threads working now with the region open on them too */
                for (Int i = 0; i < c->depth; i++) {
                    Region *r = &regions[c->act[i].region];
                    Int n = 1;
                    for (Int o = 0; o <= max_tid_seen && o < MAX_THREADS; o++) {
                        const TState *t = tstate[o];
                        if (!t || t == c || !t->open[kind]) continue;
                        for (Int a = 0; a < t->depth; a++)
                            if (t->act[a].region == c->act[i].region) { n++; break; }
                    }
                    if (n > r->at_once[kind]) r->at_once[kind] = n;
                }
            }
        }
    }
    for (Int i = 0; i < RL_NC; i++) switch_snap[i] = now[i];
}

/* totals of work done by thread t (its TState), as of now */
static void thread_totals(TState *t, ULong *out)
{
    if (cur_tid != VG_INVALID_THREADID && t == ts_of(cur_tid)) {
        totals(out);
        for (Int i = 0; i < RL_NC; i++) out[i] = t->acc[i] + (out[i] - switch_snap[i]);
    } else {
        for (Int i = 0; i < RL_NC; i++) out[i] = t->acc[i];
    }
}

/* The counts that activations are measured against: the thread's own in
 * thread scope, the process's in process scope (then also closing the
 * running thread's share of work, so that worker bits are up to date). */
static void scope_now(TState *t, ULong *now)
{
    if (clo_thread_scope) {
        thread_totals(t, now);
    } else {
        totals(now);
        flush_cur(now);
    }
}

/* Writer contexts (cache simulation). A write-back happens when a dirty line is evicted,
 * often by another region's accesses than the one that wrote it: a region writing an array
 * that stays in cache, then one streaming other data, had the second charged the first's
 * write-backs (and unread write-allocate fills). Each line carries the context of its last
 * store, an id of the multiset of regions open then (process scope: open anywhere; thread
 * scope: on the storing thread, an activation each); a write-back written in another
 * context than the current one is charged to the writer's regions and taken from the
 * current ones (rl_charge). The bytes still move when the line is evicted: the whole run,
 * and the functions and instructions (and a region's functions and instructions, under
 * the writer region), count them where the eviction happened. */
#define CTX_HASH 4096
typedef struct { Int *regions; Int n; UInt hash; Int next; } WriterCtx; /* next: index + 1, 0 = none */
static WriterCtx *ctxs = NULL;
static Int n_ctxs = 0, cap_ctxs = 0;
static Int ctx_head[CTX_HASH]; /* index + 1 */
static Bool ctx_overflow = False; /* more contexts than a line can name: the rest charged where evicted */

/* The id of the multiset regions[0..n) (sorted), or RL_CS_MAX_CTX (unknown) once the ids
 * run out. */
static UInt ctx_intern(const Int *r, Int n)
{
    UInt h = 2166136261u ^ (UInt)n;
    for (Int i = 0; i < n; i++) h = (h ^ (UInt)r[i]) * 16777619u;
    for (Int i = ctx_head[h % CTX_HASH] - 1; i >= 0; i = ctxs[i].next - 1) {
        if (ctxs[i].hash != h || ctxs[i].n != n) continue;
        Int k = 0;
        while (k < n && ctxs[i].regions[k] == r[k]) k++;
        if (k == n) return (UInt)i;
    }
    if (n_ctxs >= (Int)RL_CS_MAX_CTX) {
        ctx_overflow = True;
        return RL_CS_MAX_CTX;
    }
    if (n_ctxs == cap_ctxs) {
        const Int nc = cap_ctxs ? 2 * cap_ctxs : 64;
        WriterCtx *g = VG_(malloc)("rl.ctx", (SizeT)nc * sizeof(WriterCtx));
        for (Int i = 0; i < n_ctxs; i++) g[i] = ctxs[i];
        if (ctxs) VG_(free)(ctxs);
        ctxs = g;
        cap_ctxs = nc;
    }
    WriterCtx *c = &ctxs[n_ctxs];
    c->regions = VG_(malloc)("rl.ctx", (SizeT)(n ? n : 1) * sizeof(Int));
    for (Int i = 0; i < n; i++) c->regions[i] = r[i];
    c->n = n;
    c->hash = h;
    c->next = ctx_head[h % CTX_HASH];
    ctx_head[h % CTX_HASH] = n_ctxs + 1;
    return (UInt)n_ctxs++;
}

static Int cmp_int(const void *a, const void *b)
{
    const Int x = *(const Int *)a, y = *(const Int *)b;
    return x < y ? -1 : x > y;
}

/* The simulator's current context: the regions open now (thread scope: on t, the running
 * thread). After every change of them, and at a thread switch in thread scope. */
static void cache_ctx_update(const TState *t)
{
    static Int list[MAX_REGIONS > MAX_DEPTH ? MAX_REGIONS : MAX_DEPTH];
    Int n = 0;
    if (!cache_on) return;
    if (clo_thread_scope) {
        for (Int i = 0; t && i < t->depth; i++) list[n++] = t->act[i].region;
    } else {
        for (Int k = 0; k < n_open; k++) list[n++] = open_list[k];
    }
    VG_(ssort)(list, n, sizeof(Int), cmp_int);
    /* each region once: one open twice on a thread counts its outermost activation only
     * (act_close), so a write-back is charged to it once */
    Int distinct = 0;
    for (Int i = 0; i < n; i++)
        if (i == 0 || list[i] != list[i - 1]) list[distinct++] = list[i];
    n = distinct;
    const UInt ctx = ctx_intern(list, n);
    if (ctx == RL_CS_MAX_CTX)
        for (Int i = 0; i < n; i++) regions[list[i]].ctx_lost = True;
    cache.ctx_bits = (ULong)ctx << RL_CS_CTX_SHIFT;
    /* the sketches of touched lines: the whole run's, and each region's */
    n_touched_now = 0;
    touched_now[n_touched_now++] = program_touched;
    for (Int i = 0; i < n; i++) {
        Region *r = &regions[list[i]];
        if (!r->touched) {
            r->touched = VG_(calloc)("rl.touched", 1, sizeof(rl_dso));
            rl_dso_init(r->touched);
        }
        touched_now[n_touched_now++] = rl_dso_current(r->touched);
    }
}

/* delta (added modulo 2^64: a charge taken is a negative delta) to a region's `counter`,
 * and to its gain by the evicting access's counter block, ctr, where it is split by
 * instruction (so its functions still add up to it). */
static void region_charge(Int region, Int counter, ULong delta, const ULong *ctr)
{
    Region *r = &regions[region];
    r->c[RL_CACHE + counter] += delta;
    if (!r->detail) return;
    const Int at = (Int)(ctr[CB_ID] >> 1);
    if (ctr[CB_ID] & 1) {
        r->gain.icache = raw_reserve(r->gain.icache, &r->gain.n_icache, at + 1, RL_CS_NCOUNTERS);
        r->gain.icache[(SizeT)at * RL_CS_NCOUNTERS + counter] += delta;
    } else {
        r->gain.fcache = raw_reserve(r->gain.fcache, &r->gain.n_fcache, at + 1, RL_CS_NCOUNTERS);
        r->gain.fcache[(SizeT)at * RL_CS_NCOUNTERS + counter] += delta;
    }
}

/* rl_cs_charge_fn: bytes written back in context `now` of a line written in `writer`. The
 * regions of `now` count them (the access's counters got them, and their windows hold
 * those): taken away; the regions of `writer` get them. */
static void rl_charge(void *arg, unsigned writer, unsigned now, int counter, unsigned long long bytes,
                      unsigned long long *ctr)
{
    (void)arg;
    if (writer >= (unsigned)n_ctxs || now >= (unsigned)n_ctxs) return; /* unknown: where evicted */
    for (Int i = 0; i < ctxs[now].n; i++) region_charge(ctxs[now].regions[i], counter, 0 - (ULong)bytes, ctr);
    for (Int i = 0; i < ctxs[writer].n; i++) region_charge(ctxs[writer].regions[i], counter, (ULong)bytes, ctr);
}

/* rl_cs_charge_fn of the end's flush (flush_dirty_at_exit): a DRAM write-back of a line
 * written in context `writer` goes to the dirty_at_exit of that context's regions (none for a
 * line written with no region open, nor past the contexts: writer_contexts_exhausted). */
static ULong exit_unattributed; /* of those, lines written past the contexts: no writer known */
static void rl_charge_exit(void *arg, unsigned writer, unsigned now, int counter, unsigned long long bytes,
                           unsigned long long *ctr)
{
    (void)arg; (void)now; (void)ctr;
    if (counter != RL_CS_WRITE + cache.levels - 1) return;
    if (writer >= (unsigned)n_ctxs) {
        exit_unattributed += bytes;
        return;
    }
    for (Int i = 0; i < ctxs[writer].n; i++) regions[ctxs[writer].regions[i]].dirty_at_exit += bytes;
}

/* The lines still dirty in the simulated caches when the run ends are written back in no
 * count (the hardware does it after the run). This writes them all back now, as evictions
 * would (rl_cs_flush), into counters of its own that no point gets, and charges each DRAM
 * write-back to the regions open at the store that made it due, as a region's `write` is:
 * their dirty_at_exit. Returns the DRAM write-back bytes of every writer (the program's).
 * Leaves the caches clean: called after all else that reads their state. */
static ULong flush_dirty_at_exit(void)
{
    static ULong scratch[RL_CS_NCOUNTERS];
    VG_(memset)(scratch, 0, sizeof(scratch));
    cache.charge = rl_charge_exit;
    /* "now": no region open, so that every line a region wrote is charged (regions still open
     * were closed at the end) */
    cache.ctx_bits = (ULong)ctx_intern(NULL, 0) << RL_CS_CTX_SHIFT;
    rl_cs_flush(&cache, scratch);
    cache.charge = NULL;
    return scratch[RL_CS_WRITE + cache.levels - 1];
}

static void act_begin(TState *t, ThreadId tid, Int region, Addr sp)
{
    if (region < 0) return;
    Region *r = &regions[region];
    r->calls++;
    if (t->depth == MAX_DEPTH) return;
    Act *a = &t->act[t->depth++];
    a->region = region;
    a->sp = sp;
    r->sk_open++;
    scope_now(t, a->snap);
    if (clo_thread_scope) {
        set_bit(r->flop_threads, tid);
        set_bit(r->mem_threads, tid);
    } else if (r->open++ == 0) {
        for (Int i = 0; i < RL_NC; i++) r->snap[i] = a->snap[i];
        r->open_seq = seg_seq;
        open_list[n_open++] = region;
        if (region_detail(r)) r->detail = True;
    }
    cache_ctx_update(t);
}

/* now: from scope_now. t->act[0..open_below) are activations still open below `a` on its
 * thread: in thread scope a region open there already (nested in itself) counts from its
 * outermost activation only, as in process scope and in the marker library's timing (its inner
 * activations' work is inside the outer one's: adding both counted it twice). */
static void act_close(const TState *t, Int open_below, Act *a, const ULong *now)
{
    Region *r = &regions[a->region];
    /* the last of its activations open on any thread: an opening of its sketch ends */
    if (--r->sk_open == 0 && r->touched) rl_dso_close(r->touched);
    if (clo_thread_scope) {
        for (Int i = 0; i < open_below; i++)
            if (t->act[i].region == a->region) return;
        for (Int i = 0; i < RL_NC; i++) r->c[i] += now[i] - a->snap[i];
        ULong d[RL_NC];
        for (Int i = 0; i < RL_NC; i++) d[i] = now[i] - a->snap[i];
        tw_add(r, t->no, flops_of(d), d[RL_LD] + d[RL_ST]);
        r->dirty_at_end = cache_dirty_bytes();
        return;
    }
    if (--r->open > 0) return;
    for (Int i = 0; i < RL_NC; i++) r->c[i] += now[i] - r->snap[i];
    r->dirty_at_end = cache_dirty_bytes();
    for (Int k = 0; k < n_open; k++)
        if (open_list[k] == a->region) { open_list[k] = open_list[--n_open]; break; }
}

/* End the innermost open client-request activation when it is `region`; an end of any other
 * region is ignored, as the marker library ignores it (roofline.h: the region must be the
 * innermost open one; the library reports the error). Closing the named one and those opened
 * after it, as this did, left the two runs apart: begin(outer) begin(inner) end(outer)
 * end(inner) kept 'outer' open to the exit in the timed run but counted it only up to its
 * ignored end. Function activations opened after it stay open: they end when their frame is
 * popped, whatever marker calls the function makes. */
static void act_end(TState *t, Int region)
{
    Int k;
    for (k = t->depth - 1; k >= 0; k--)
        if (t->act[k].sp == 0) break;
    if (k < 0 || t->act[k].region != region) return;
    ULong now[RL_NC];
    scope_now(t, now);
    Int kept = k;
    for (Int j = k; j < t->depth; j++) {
        if (j == k || t->act[j].sp == 0) act_close(t, k, &t->act[j], now);
        else t->act[kept++] = t->act[j];
    }
    t->depth = kept;
    cache_ctx_update(t);
}

/* Function regions (--roofline-function): begin at entry to the function
 * when it is not already active on this thread; end when a superblock
 * starts with SP above the SP recorded at entry (i.e. the frame was
 * popped by ret, longjmp, or unwinding).  sp_limit is the smallest entry
 * SP of the running thread's open function activations (~0 = none), or 0
 * while the thread runs on its alternate signal stack (see act_gone). */
/* Read by every instrumented block: keep it on a line of its own. */
static struct { Addr v; UChar pad[56]; } sp_limit_box __attribute__((aligned(64))) = { ~(Addr)0, {0} };
#define sp_limit (sp_limit_box.v)
static Int tracked_region[MAX_TRACKED];

static Bool on_alt_stack(const TState *t, Addr a) { return t->alt_hi != 0 && a >= t->alt_lo && a < t->alt_hi; }

/* Whether function activation a's frame is gone, SP being sp. A signal handler on the
 * alternate stack runs at an SP that says nothing about the frames of the stack it
 * interrupted (an alternate stack above a thread's stack looked like a return: the rest of
 * the interrupted call went uncounted): those are left open while SP is on the alternate
 * stack, and judged again when it leaves it (sigreturn, or a longjmp out of the handler).
 * A function called on the alternate stack has returned once SP is off it. */
static Bool act_gone(const TState *t, const Act *a, Addr sp)
{
    if (a->sp == 0) return False; /* a client-request region: ended by its end request */
    const Bool sp_alt = on_alt_stack(t, sp);
    if (on_alt_stack(t, a->sp)) return !sp_alt || a->sp < sp;
    return !sp_alt && a->sp < sp;
}

static void recompute_limit(TState *t, Addr sp)
{
    Addr lim = ~(Addr)0;
    for (Int i = 0; i < t->depth; i++)
        if (t->act[i].sp != 0 && t->act[i].sp < lim) lim = t->act[i].sp;
    /* on the alternate stack with a function open: check every block, so that leaving
     * the alternate stack (in either direction) is seen */
    if (lim != ~(Addr)0 && on_alt_stack(t, sp)) lim = 0;
    sp_limit = lim;
}

static VG_REGPARM(2) void rl_fn_enter(UWord which, UWord sp)
{
    const ThreadId tid = VG_(get_running_tid)();
    TState *t = ts_of(tid);
    Int region = tracked_region[which];
    for (Int i = 0; i < t->depth; i++)
        if (t->act[i].region == region && t->act[i].sp != 0) {
            regions[region].calls++; /* recursive call: inside the open one */
            return;
        }
    act_begin(t, tid, region, (Addr)sp);
    recompute_limit(t, (Addr)sp);
}

static VG_REGPARM(1) void rl_sp_check(UWord sp)
{
    TState *t = ts_of(VG_(get_running_tid)());
    /* close every function activation whose frame is gone; the client-request regions
     * opened inside it stay open, as the marker library keeps them (a longjmp or a throw
     * past their end: closed at exit, their time running to it) */
    Int kept = 0;
    Bool have = False;
    ULong now[RL_NC];
    for (Int j = 0; j < t->depth; j++) {
        if (!act_gone(t, &t->act[j], (Addr)sp)) {
            if (kept != j) t->act[kept] = t->act[j];
            kept++;
            continue;
        }
        if (!have) { scope_now(t, now); have = True; }
        act_close(t, kept, &t->act[j], now);
    }
    t->depth = kept;
    if (have) cache_ctx_update(t);
    recompute_limit(t, (Addr)sp);
}

/* A thread that changed its own CPU affinity moves now; another thread's change is
 * seen when that thread next runs (every switch asks the kernel). */
static void note_futex_wake(UInt no, const UWord *args);

static void rl_pre_syscall(ThreadId tid, UInt no, UWord *args, UInt n)
{
    (void)n;
    /* Threads at once: a syscall may block (join, futex wait), so the thread's stretches end
     * here; rl_post_syscall reopens them when no other thread ran meanwhile. */
    TState *t = ts_of(tid);
    t->sys_seq = seg_seq;
    note_futex_wake(no, args);
    for (Int k = 0; k < 2; k++) {
        /* A segment cut short by a syscall says nothing of spinning: only a whole time slice
         * without work moves the start of its next stretch on (a new thread's start-up code,
         * syscalls between short stretches, still count from when it could run). */
        if (t->stop_seq == seg_seq && !t->open[k] && t->ready[k] == seg_seq + 1) t->ready[k] = t->ready_before[k];
        t->sys_open[k] = t->open[k];
        stretch_close(t, k);
    }
}

/* The segment of the last FUTEX_WAKE (or another waking op) on each futex word, by a small
 * hash of its address: a waiter woken there was natively running again from then, although
 * under Valgrind it may get the lock only after its waker's whole work (libgomp's team start). */
#define WAKE_SLOTS 1024
static struct { Addr addr; ULong seq; } futex_wakes[WAKE_SLOTS];
static UInt wake_slot(Addr a) { return (UInt)((a >> 2) ^ (a >> 12)) % WAKE_SLOTS; }

static void note_futex_wake(UInt no, const UWord *args)
{
    if (no != __NR_futex) return;
    const UWord op = args[1] & 127;
    /* FUTEX_WAKE, _REQUEUE, _CMP_REQUEUE, _WAKE_OP (uaddr2 too), _UNLOCK_PI, _WAKE_BITSET */
    if (op != 1 && op != 3 && op != 4 && op != 5 && op != 7 && op != 10) return;
    for (Int i = 0; i < (op == 5 ? 2 : 1); i++) {
        const Addr a = (Addr)(i ? args[4] : args[0]);
        futex_wakes[wake_slot(a)].addr = a;
        futex_wakes[wake_slot(a)].seq = seg_seq;
    }
}

/* Syscalls that wait for another thread or an event (the thread then does no work natively
 * either), as opposed to those during which Valgrind merely let other threads run (an mmap). */
static Bool waiting_syscall(UInt no, const UWord *args)
{
    if (no == __NR_futex) {
        const UWord op = args[1] & 127; /* FUTEX_CMD_MASK less the private flag */
        /* FUTEX_WAIT, _LOCK_PI, _WAIT_BITSET, _WAIT_REQUEUE_PI, _LOCK_PI2 (linux/futex.h) */
        return op == 0 || op == 6 || op == 9 || op == 11 || op == 13;
    }
    switch (no) {
    case __NR_wait4: case __NR_waitid: case __NR_nanosleep: case __NR_clock_nanosleep:
    case __NR_select: case __NR_pselect6: case __NR_poll: case __NR_ppoll: case __NR_epoll_wait:
    case __NR_epoll_pwait: case __NR_read: case __NR_readv: case __NR_recvfrom: case __NR_recvmsg:
    case __NR_pause: case __NR_rt_sigsuspend: case __NR_rt_sigtimedwait: case __NR_accept:
    case __NR_accept4: case __NR_msgrcv: case __NR_semop: case __NR_semtimedop: case __NR_sched_yield:
        return True;
    default:
        return False;
    }
}

static void rl_post_syscall(ThreadId tid, UInt no, UWord *args, UInt n, SysRes res)
{
    (void)n;
    {
        TState *t = ts_of(tid);
        const Bool waited = seg_seq != t->sys_seq && waiting_syscall(no, args);
        /* woken by another thread's FUTEX_WAKE: running again natively from then */
        ULong woke = seg_seq;
        if (waited && no == __NR_futex) {
            const Addr a = (Addr)args[0];
            if (futex_wakes[wake_slot(a)].addr == a && futex_wakes[wake_slot(a)].seq >= t->sys_seq)
                woke = futex_wakes[wake_slot(a)].seq;
        }
        for (Int k = 0; k < 2; k++) {
            if (waited) t->ready[k] = t->idle_from[k] = woke; /* others ran while it waited */
            else if (t->sys_open[k]) t->open[k] = True; /* it went on working */
        }
    }
    if (no == __NR_sigaltstack && !sr_isError(res) && args[0] != 0 &&
        VG_(am_is_valid_for_client)((Addr)args[0], sizeof(vki_stack_t), VKI_PROT_READ)) {
        /* the thread's alternate signal stack, for act_gone */
        const vki_stack_t *ss = (const vki_stack_t *)args[0];
        TState *t = ts_of(tid);
        if (ss->ss_flags & VKI_SS_DISABLE) t->alt_lo = t->alt_hi = 0;
        else { t->alt_lo = (Addr)ss->ss_sp; t->alt_hi = (Addr)ss->ss_sp + ss->ss_size; }
        return;
    }
    if (!cache_on || !cpu_core || no != __NR_sched_setaffinity || sr_isError(res)) return;
    if (args[0] == 0 || (Int)args[0] == VG_(gettid)()) cache_set_core(tid);
}

/* A new thread has no alternate signal stack (clone clears it); its slot may be a dead
 * thread's. */
static void rl_thread_create(ThreadId parent, ThreadId child)
{
    const Bool reused = tstate[child < MAX_THREADS ? child : MAX_THREADS - 1] != NULL;
    TState *t = ts_of(child);
    if (reused) t->no = ++n_thread_nos; /* another thread than the one that had the slot */
    t->alt_lo = t->alt_hi = 0;
    /* a dead thread's slot: its stretches are over; the new one may work from now, or from
     * when its creator stopped working (threads created one after another: natively
     * microseconds apart) */
    const TState *p = parent != VG_INVALID_THREADID ? ts_of(parent) : NULL;
    for (Int k = 0; k < 2; k++) {
        stretch_close(t, k);
        /* not before the last thread's exit: the creator may have joined it without waiting (a
         * second pool after the first), which Valgrind does not see */
        ULong from = p && !p->open[k] && p->idle_from[k] ? p->idle_from[k] : seg_seq;
        if (from <= last_exit_seq) from = last_exit_seq + 1;
        t->ready[k] = from < seg_seq ? from : seg_seq;
        t->idle_from[k] = t->ready[k];
        t->seg[k] = False;
    }
}

static void rl_thread_exit(ThreadId tid)
{
    TState *t = ts_of(tid);
    if (tid == cur_tid) {
        ULong now[RL_NC];
        totals(now);
        flush_cur(now);
    }
    for (Int k = 0; k < 2; k++) stretch_close(t, k);
    ghost_add(t);
    last_exit_seq = seg_seq;
    /* its slot's next thread starts with no stretch of its own */
    t->closed[0] = t->closed[1] = 0;
}

/* The end of a scheduler segment (a time slice, or a syscall's start): the running thread's
 * work so far is its own (flush_cur, which also counts threads at once), and a stretch in which
 * this segment did no such work ends. */
static void rl_stop_client_code(ThreadId tid, ULong blocks)
{
    (void)blocks;
    if (tid != cur_tid) return;
    ULong now[RL_NC];
    totals(now);
    flush_cur(now);
    TState *t = ts_of(tid);
    for (Int k = 0; k < 2; k++) {
        if (!t->seg[k]) {
            /* its stretch ended with the last segment that worked */
            if (t->open[k]) {
                t->open[k] = False;
                t->closed[k] = t->last_work[k];
                t->idle_from[k] = t->last_work[k] + 1;
            }
            t->ready_before[k] = t->ready[k];
            t->ready[k] = seg_seq + 1;
        }
        t->seg[k] = False;
    }
    t->stop_seq = seg_seq;
}

static void rl_start_client_code(ThreadId tid, ULong blocks)
{
    (void)blocks;
    seg_seq++;
    if (tid != cur_tid) {
        /* thread switch (rare: once per time slice at most): the work done
         * since the last switch was the outgoing thread's */
        ULong now[RL_NC];
        totals(now);
        flush_cur(now);
        cur_tid = tid;
        cache_set_core(tid);
        if (clo_thread_scope) cache_ctx_update(ts_of(tid)); /* the regions open on it */
    }
    if (n_clo_funcs > 0) recompute_limit(ts_of(tid), VG_(get_SP)(tid));
}

/* ------------------------------------------------------------------ */
/* Client requests                                                       */
/* ------------------------------------------------------------------ */

/* Whether the marker library has made its calibration's regions (request 2): after it, a region
 * of the program under their names is the program's, not the calibration's. */
static Bool calibration_done = False;

/* A client-request region named as roofline measure names points of its own, "(program)", a
 * "<function NAME>" region, or (after the library's calibration) "(roofline marker calls)" and
 * "(roofline marker calls, whole)": "NAME (marker region)", as the marker library records it in
 * the timed run (src/marker/marker.cpp, region_name), so the two still merge. Under the name
 * itself it was dropped beside the program's point, read as --region-function's, or added to
 * the calibration (the marker calls' cost taken off every region). Fresh (the caller frees it),
 * or NULL: the name as it is. */
static HChar *marker_region_name(const HChar *name)
{
    const Bool reserved = VG_(strcmp)(name, "(program)") == 0 || VG_(strncmp)(name, "<function ", 10) == 0 ||
                          (calibration_done && (VG_(strcmp)(name, "(roofline marker calls)") == 0 ||
                                                VG_(strcmp)(name, "(roofline marker calls, whole)") == 0));
    if (!reserved) return NULL;
    const SizeT n = VG_(strlen)(name);
    HChar *out = VG_(malloc)("rl.rname", n + 20);
    VG_(strcpy)(out, name);
    VG_(strcpy)(out + n, " (marker region)");
    return out;
}

static Bool rl_handle_client_request(ThreadId tid, UWord *args, UWord *ret)
{
    if (!VG_IS_TOOL_USERREQ('R', 'L', args[0])) return False;
    const HChar *name = (const HChar *)args[1];
    if (!name) name = "(null)";
    HChar *renamed = marker_region_name(name);
    if (renamed) name = renamed;
    TState *t = ts_of(tid);
    Bool handled = True;
    switch (args[0] - VG_USERREQ_TOOL_BASE('R', 'L')) {
    case 0: {
        const Int region = region_index(name);
        if (region < 0) over_limit_calls++;
        act_begin(t, tid, region, 0);
        break;
    }
    case 1: act_end(t, region_index(name)); break;
    case 2: calibration_done = True; break;
    default: handled = False;
    }
    if (renamed) VG_(free)(renamed);
    if (!handled) return False;
    *ret = 0;
    return True;
}

/* ------------------------------------------------------------------ */
/* Instrumentation                                                       */
/* ------------------------------------------------------------------ */

static IRExpr *mk_ptr(const void *p) { return IRExpr_Const(IRConst_U64((ULong)(Addr)p)); }

/* addr += delta (I64 expression) */
static void add_to_counter(IRSB *sb, ULong *addr, IRExpr *delta)
{
    IRTemp t1 = newIRTemp(sb->tyenv, Ity_I64);
    IRTemp t2 = newIRTemp(sb->tyenv, Ity_I64);
    addStmtToIRSB(sb, IRStmt_WrTmp(t1, IRExpr_Load(Iend_LE, Ity_I64, mk_ptr(addr))));
    addStmtToIRSB(sb, IRStmt_WrTmp(t2, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(t1), delta)));
    addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mk_ptr(addr), IRExpr_RdTmp(t2)));
}

/* guarded byte count: addr += guard ? size : 0 */
static void add_guarded(IRSB *sb, ULong *addr, IRExpr *guard, ULong size)
{
    IRTemp w = newIRTemp(sb->tyenv, Ity_I64);
    addStmtToIRSB(sb, IRStmt_WrTmp(w, IRExpr_ITE(guard, IRExpr_Const(IRConst_U64(size)),
                                                 IRExpr_Const(IRConst_U64(0)))));
    add_to_counter(sb, addr, IRExpr_RdTmp(w));
}

/* t = e (a flat expression) */
static IRExpr *bind(IRSB *sb, IRType ty, IRExpr *e)
{
    IRTemp t = newIRTemp(sb->tyenv, ty);
    addStmtToIRSB(sb, IRStmt_WrTmp(t, e));
    return IRExpr_RdTmp(t);
}

static IRExpr *u64(ULong v) { return IRExpr_Const(IRConst_U64(v)); }

/* One access for the cache simulator: a call of rl_cache_access, skipped inline
 * when the L1 way this instruction's last access ended in still holds the line
 * (for a store: dirty already), which a hit anywhere in the set, not only on its
 * most recently used line, makes common: streams whose lines share a set (arrays
 * a page multiple apart) alternate in it. Such a hit only moves the line to the
 * front of the set's LRU order: the stamp gets ++clock, as rl_cs_access would do.
 * guard: the access's own guard (guarded loads and stores), or NULL. */
/* The simulator's counters of the instruction being instrumented, when its function is
 * counted instruction by instruction (else NULL: its function's). */
static ULong *insn_cache = NULL;

static void emit_cache_access(IRSB *sb, IRExpr *addr, Int size, Int kind, IRExpr *guard, Int fn)
{
    if (!cache_on || size <= 0 || !addr) return;
    if (fn < 0) fn = fn_index("(unknown)");
    IRExpr *call_guard = guard;
    ULong *memo = NULL;
    if (l1_inline && kind != RL_CS_NT_STORE) {
        memo = memo_for_access();
        IRExpr *shift = IRExpr_Const(IRConst_U8((UChar)l1_line_shift));
        IRExpr *line = bind(sb, Ity_I64, IRExpr_Binop(Iop_Shr64, addr, shift));
        IRExpr *end = bind(sb, Ity_I64, IRExpr_Binop(Iop_Add64, addr, u64((ULong)size - 1)));
        IRExpr *last = bind(sb, Ity_I64, IRExpr_Binop(Iop_Shr64, end, shift));
        IRExpr *base = bind(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, mk_ptr(&l1_box.v)));
        IRExpr *off = bind(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, mk_ptr(memo)));
        IRExpr *way = bind(sb, Ity_I64, IRExpr_Binop(Iop_Add64, base, off));
        IRExpr *entry = bind(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, way));
        /* RL_CS_TAG(line): (line + 1) << RL_CS_TAG_SHIFT, the entry's flags below it */
        IRExpr *line1 = bind(sb, Ity_I64, IRExpr_Binop(Iop_Add64, line, u64(1)));
        IRExpr *tag = bind(sb, Ity_I64, IRExpr_Binop(Iop_Shl64, line1, IRExpr_Const(IRConst_U8(RL_CS_TAG_SHIFT))));
        /* A load hits a clean or dirty entry not marked unread (a line a store brought
         * in: the call clears the mark, so a load of it is never inline); a store hits
         * a dirty one written since it came up (rl_cachesim.h), marked unread or not.
         * Either, whoever wrote it (the writer's context, above the tag). */
        const ULong ignored = RL_CS_CTX_MASK | (kind == RL_CS_LOAD ? RL_CS_DIRTY | RL_CS_WRITTEN_ALL : RL_CS_UNREAD);
        const ULong required = kind == RL_CS_LOAD ? 0 : RL_CS_DIRTY | RL_CS_WRITTEN_ALL;
        IRExpr *key = bind(sb, Ity_I64, IRExpr_Binop(Iop_Or64, tag, u64(ignored | required)));
        IRExpr *have = bind(sb, Ity_I64, IRExpr_Binop(Iop_Or64, entry, u64(ignored)));
        IRExpr *hit = bind(sb, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, have, key));
        IRExpr *one_line = bind(sb, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, line, last));
        IRExpr *fast = bind(sb, Ity_I1, IRExpr_Binop(Iop_And1, hit, one_line));
        if (guard) fast = bind(sb, Ity_I1, IRExpr_Binop(Iop_And1, guard, fast));
        /* the stamp: into the way on a hit, else into the sink (the call stamps) */
        IRExpr *clock = bind(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, mk_ptr(&cache.clock)));
        IRExpr *tick = bind(sb, Ity_I64, IRExpr_Binop(Iop_Add64, clock, u64(1)));
        addStmtToIRSB(sb, IRStmt_Store(Iend_LE, mk_ptr(&cache.clock), tick));
        IRExpr *stamp_at = bind(sb, Ity_I64, IRExpr_Binop(Iop_Add64, way, u64(sizeof(ULong))));
        IRExpr *dest = bind(sb, Ity_I64, IRExpr_ITE(fast, stamp_at, mk_ptr(&stamp_sink)));
        addStmtToIRSB(sb, IRStmt_Store(Iend_LE, dest, tick));
        IRExpr *slow = bind(sb, Ity_I1, IRExpr_Unop(Iop_Not1, fast));
        call_guard = guard ? bind(sb, Ity_I1, IRExpr_Binop(Iop_And1, guard, slow)) : slow;
    }
    ULong *counters = insn_cache ? insn_cache : fn_cache_block(fn);
    IRDirty *d = unsafeIRDirty_0_N(0, "rl_cache_access", VG_(fnptr_to_fnentry)(rl_cache_access),
                                   mkIRExprVec_4(addr, u64((ULong)size | ((ULong)kind << 24)),
                                                 mk_ptr(counters), mk_ptr(memo)));
    if (call_guard) d->guard = call_guard;
    addStmtToIRSB(sb, IRStmt_Dirty(d));
}

typedef struct {
    ULong cost[RL_NC];
    Bool any;
    Int fn;
    InsnStat *insn; /* a per-instruction function's segment: its one instruction */
} Seg;

/* A record of the segment's function (and instruction) without static costs, for bytes
 * the generated code adds when an access's guard is true (dyn_ld, dyn_st). */
static CostRec *guarded_rec(Seg *seg)
{
    if (seg->fn < 0) seg->fn = fn_index("(unknown)");
    ULong zero[RL_NC];
    VG_(memset)(zero, 0, sizeof(zero));
    CostRec *r = new_rec(seg->fn, zero);
    r->insn = seg->insn;
    return r;
}

/* if (!*flag) rl_touch_sb(sbi): the superblock goes on the touched list (harvest) the
 * first time it runs after a harvest. At its start, and again after a helper that may
 * harvest (rl_fn_enter): the segments after it would not be seen otherwise. */
static void emit_touch_check(IRSB *sb, SbInfo *sbi)
{
    IRExpr *flag = bind(sb, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, mk_ptr(sbi->flag)));
    IRExpr *first = bind(sb, Ity_I1, IRExpr_Binop(Iop_CmpEQ64, flag, u64(0)));
    IRDirty *d = unsafeIRDirty_0_N(1, "rl_touch_sb", VG_(fnptr_to_fnentry)(rl_touch_sb), mkIRExprVec_1(mk_ptr(sbi)));
    d->guard = first;
    addStmtToIRSB(sb, IRStmt_Dirty(d));
}

/* The execution counter of the instruction being instrumented (per-instruction functions). */
static ULong *insn_exec = NULL;
/* The counter line of the superblock being instrumented, whose word 1 is its touched flag:
 * its first segment's counter goes in word 0 (the flag costs no line of its own). */
static ULong *sb_first_ctr = NULL;

static void seg_flush(IRSB *sb, Seg *s)
{
    if (s->any) {
        CostRec *r = new_rec(s->fn, s->cost);
        r->count = sb_first_ctr ? sb_first_ctr : new_ctr();
        sb_first_ctr = NULL;
        r->insn = s->insn;
        if (s->insn) insn_exec = r->count;
        add_to_counter(sb, r->count, IRExpr_Const(IRConst_U64(1)));
    }
    for (Int i = 0; i < RL_NC; i++) s->cost[i] = 0;
    s->any = False;
}

/* Per guest instruction FP tally, turned into costs at the next IMark. */
typedef struct {
    ULong ops[2][RL_NKIND][3]; /* [prec][kind][width]: lanes (FLOPs/lane=1; fma 2) */
    ULong fma_lanes[2];        /* per-lane scalar MAdd/MSub ops (vector FMA split by VEX) */
    Int vadd[2], vsub[2];      /* vector add/sub ops: addsub detection */
    Int vadd_w[2], vsub_w[2];
} InsnFP;

static void insn_reset(InsnFP *f) { VG_(memset)(f, 0, sizeof(*f)); }

/* `ymm`: the guest instruction is VEX.256 (rl_vex_vector_bits); `dot`: it is DPPS (2)
 * or DPPD (1) (rl_dot_product); `x87`: an x87 instruction (rl_is_x87), its FLOPs
 * also counted apart; `flag`: in a function that only raises FP flags (FnEnt.flag_only),
 * its operations counted apart (RL_FP_FLAG) and not as FLOPs. */
static void insn_commit(InsnFP *f, Seg *s, Bool ymm, Int dot, Bool x87, Bool flag)
{
    /* A dot product: two FLOPs an element, a multiply and an add, whatever the mask and
     * however VEX expanded it (rl_insn.h says why). Only where its ops were tallied: a
     * second commit of the same instruction (after a side exit) adds nothing. */
    ULong tallied = 0;
    if (dot)
        for (Int k = 0; k < RL_NKIND; k++)
            for (Int w = 0; w < 3; w++) tallied += f->ops[dot == 2 ? 1 : 0][k][w];
    if (dot && tallied) {
        const Int p = dot == 2 ? 1 : 0, w = ymm ? 2 : 1;
        const ULong elements = (ULong)(dot == 2 ? 4 : 2) * (ymm ? 2 : 1);
        VG_(memset)(f->ops[p], 0, sizeof(f->ops[p]));
        f->fma_lanes[p] = 0;
        f->vadd[p] = f->vsub[p] = 0;
        f->ops[p][RL_MUL][w] = elements;
        f->ops[p][RL_ADD][w] = elements;
    }
    for (Int p = 0; p < 2; p++) {
        /* addsubpd/ps: VEX computes a full-width add and a full-width sub and
         * blends them; the instruction does one op per lane. Halve both. */
        if (f->vadd[p] == 1 && f->vsub[p] == 1 && f->vadd_w[p] == f->vsub_w[p]) {
            Int w = f->vadd_w[p];
            f->ops[p][RL_ADD][w] /= 2;
            f->ops[p][RL_SUB][w] /= 2;
        }
        /* VEX.256 instructions that VEX computes as two 128-bit halves (VHADDPD/PS,
         * VHSUBPD/PS ymm): the FLOPs are the 256-bit instruction's. */
        if (ymm)
            for (Int k = 0; k < RL_NKIND; k++) {
                f->ops[p][k][2] += f->ops[p][k][1];
                f->ops[p][k][1] = 0;
            }
        /* FMA: VEX splits a vector FMA into one scalar MAdd per lane; the
         * number of such ops in one guest instruction gives the width. */
        if (f->fma_lanes[p]) {
            ULong bits = f->fma_lanes[p] * (p == 0 ? 64 : 32);
            Int w = bits <= 64 ? 0 : bits <= 128 ? 1 : 2;
            f->ops[p][RL_FMA][w] += f->fma_lanes[p] * 2;
        }
        for (Int k = 0; k < RL_NKIND; k++)
            for (Int w = 0; w < 3; w++) {
                ULong n = f->ops[p][k][w];
                if (!n) continue;
                s->any = True;
                if (flag) {
                    s->cost[RL_FP_FLAG] += n;
                    continue;
                }
                s->cost[RL_FLOP(p, k)] += n;
                s->cost[RL_W_SCALAR + w] += n;
                if (x87) s->cost[RL_X87] += n;
                s->any = True;
            }
    }
    insn_reset(f);
}

/* classify an FP op: returns False if not counted. prec 0=f64 1=f32,
 * width 0=scalar 1=128 2=256, lanes, kind. */
static Bool classify(IROp op, Int *prec, Int *kind, Int *width, Int *lanes)
{
#define C(OP, P, K, W, L) case OP: *prec = P; *kind = K; *width = W; *lanes = L; return True;
    switch (op) {
    C(Iop_AddF64, 0, RL_ADD, 0, 1) C(Iop_SubF64, 0, RL_SUB, 0, 1)
    C(Iop_MulF64, 0, RL_MUL, 0, 1) C(Iop_DivF64, 0, RL_DIV, 0, 1)
    C(Iop_SqrtF64, 0, RL_SQRT, 0, 1)
    C(Iop_AddF32, 1, RL_ADD, 0, 1) C(Iop_SubF32, 1, RL_SUB, 0, 1)
    C(Iop_MulF32, 1, RL_MUL, 0, 1) C(Iop_DivF32, 1, RL_DIV, 0, 1)
    C(Iop_SqrtF32, 1, RL_SQRT, 0, 1)
    C(Iop_Add64F0x2, 0, RL_ADD, 0, 1) C(Iop_Sub64F0x2, 0, RL_SUB, 0, 1)
    C(Iop_Mul64F0x2, 0, RL_MUL, 0, 1) C(Iop_Div64F0x2, 0, RL_DIV, 0, 1)
    C(Iop_Max64F0x2, 0, RL_MINMAX, 0, 1) C(Iop_Min64F0x2, 0, RL_MINMAX, 0, 1)
    C(Iop_Sqrt64F0x2, 0, RL_SQRT, 0, 1)
    C(Iop_Add32F0x4, 1, RL_ADD, 0, 1) C(Iop_Sub32F0x4, 1, RL_SUB, 0, 1)
    C(Iop_Mul32F0x4, 1, RL_MUL, 0, 1) C(Iop_Div32F0x4, 1, RL_DIV, 0, 1)
    C(Iop_Max32F0x4, 1, RL_MINMAX, 0, 1) C(Iop_Min32F0x4, 1, RL_MINMAX, 0, 1)
    C(Iop_Sqrt32F0x4, 1, RL_SQRT, 0, 1)
    C(Iop_Add64Fx2, 0, RL_ADD, 1, 2) C(Iop_Sub64Fx2, 0, RL_SUB, 1, 2)
    C(Iop_Mul64Fx2, 0, RL_MUL, 1, 2) C(Iop_Div64Fx2, 0, RL_DIV, 1, 2)
    C(Iop_Max64Fx2, 0, RL_MINMAX, 1, 2) C(Iop_Min64Fx2, 0, RL_MINMAX, 1, 2)
    C(Iop_Sqrt64Fx2, 0, RL_SQRT, 1, 2)
    C(Iop_Add32Fx4, 1, RL_ADD, 1, 4) C(Iop_Sub32Fx4, 1, RL_SUB, 1, 4)
    C(Iop_Mul32Fx4, 1, RL_MUL, 1, 4) C(Iop_Div32Fx4, 1, RL_DIV, 1, 4)
    C(Iop_Max32Fx4, 1, RL_MINMAX, 1, 4) C(Iop_Min32Fx4, 1, RL_MINMAX, 1, 4)
    C(Iop_Sqrt32Fx4, 1, RL_SQRT, 1, 4)
    C(Iop_Add32Fx2, 1, RL_ADD, 1, 2) C(Iop_Sub32Fx2, 1, RL_SUB, 1, 2)
    C(Iop_Add64Fx4, 0, RL_ADD, 2, 4) C(Iop_Sub64Fx4, 0, RL_SUB, 2, 4)
    C(Iop_Mul64Fx4, 0, RL_MUL, 2, 4) C(Iop_Div64Fx4, 0, RL_DIV, 2, 4)
    C(Iop_Max64Fx4, 0, RL_MINMAX, 2, 4) C(Iop_Min64Fx4, 0, RL_MINMAX, 2, 4)
    C(Iop_Sqrt64Fx4, 0, RL_SQRT, 2, 4)
    C(Iop_Add32Fx8, 1, RL_ADD, 2, 8) C(Iop_Sub32Fx8, 1, RL_SUB, 2, 8)
    C(Iop_Mul32Fx8, 1, RL_MUL, 2, 8) C(Iop_Div32Fx8, 1, RL_DIV, 2, 8)
    C(Iop_Max32Fx8, 1, RL_MINMAX, 2, 8) C(Iop_Min32Fx8, 1, RL_MINMAX, 2, 8)
    C(Iop_Sqrt32Fx8, 1, RL_SQRT, 2, 8)
    default: return False;
    }
#undef C
}

static void tally_expr(InsnFP *f, IRExpr *e)
{
    IROp op;
    switch (e->tag) {
    case Iex_Unop: op = e->Iex.Unop.op; break;
    case Iex_Binop: op = e->Iex.Binop.op; break;
    case Iex_Triop: op = e->Iex.Triop.details->op; break;
    case Iex_Qop: op = e->Iex.Qop.details->op; break;
    default: return;
    }
    switch (op) {
    case Iop_MAddF64: case Iop_MSubF64: f->fma_lanes[0]++; return;
    case Iop_MAddF32: case Iop_MSubF32: f->fma_lanes[1]++; return;
    default: break;
    }
    Int p, k, w, l;
    if (!classify(op, &p, &k, &w, &l)) return;
    f->ops[p][k][w] += (ULong)l;
    if (w > 0 && k == RL_ADD) { f->vadd[p]++; f->vadd_w[p] = w; }
    if (w > 0 && k == RL_SUB) { f->vsub[p]++; f->vsub_w[p] = w; }
}

static Int loadg_size(IRLoadGOp cvt)
{
    switch (cvt) {
    case ILGop_IdentV128: return 16;
    case ILGop_Ident64: return 8;
    case ILGop_Ident32: return 4;
    case ILGop_16Uto32: case ILGop_16Sto32: return 2;
    case ILGop_8Uto32: case ILGop_8Sto32: return 1;
    default: return 0;
    }
}

static ULong nodecode_reported = 0;

/* An indirect call made by an instruction counted one by one went to `target`: measure
 * --loops gives the function called there to the loop holding the call. */
static VG_REGPARM(2) void rl_indirect_call(UWord site, UWord target)
{
    InsnStat *s = (InsnStat *)site;
    for (CallTarget *t = s->targets; t; t = t->next)
        if (t->at == (Addr)target) {
            t->calls++;
            return;
        }
    CallTarget *t = VG_(calloc)("rl.calltarget", 1, sizeof(CallTarget));
    t->at = t->link = (Addr)target;
    t->calls = 1;
    Bool plt;
    DebugInfo *di = code_debuginfo((Addr)target, &plt);
    if (di) {
        t->link = (Addr)target - (Addr)VG_(DebugInfo_get_text_bias)(di);
        const HChar *file = VG_(DebugInfo_get_filename)(di);
        if (file) t->obj = VG_(strdup)("rl.calltarget", file);
    }
    const HChar *name = NULL;
    if (VG_(get_fnname)(VG_(current_DiEpoch)(), (Addr)target, &name) && name && *name)
        t->fn = VG_(strdup)("rl.calltarget", name);
    t->next = s->targets;
    s->targets = t;
}

static VG_REGPARM(1) void rl_nodecode(UWord pc)
{
    const UChar *b = (const UChar *)pc;
    if (nodecode_reported++) return;
    /* EVEX prefix 0x62 (in 64-bit mode always EVEX): AVX-512 */
    if (b[0] == 0x62 || (b[0] >= 0x40 && b[0] <= 0x4f && b[1] == 0x62)) {
        VG_(umsg)("roofline: error: unsupported AVX-512 (EVEX) instruction at %#lx "
                  "(bytes %02x %02x %02x %02x): Valgrind cannot run AVX-512 code. Use the perf "
                  "engine (roofline measure --engine perf) or rebuild without AVX-512 "
                  "(e.g. -march=x86-64-v3 or -mno-avx512f).\n",
                  (unsigned long)pc, b[0], b[1], b[2], b[3]);
    } else {
        VG_(umsg)("roofline: error: Valgrind cannot decode the instruction at %#lx "
                  "(bytes %02x %02x %02x %02x); the program will get SIGILL. Use the perf "
                  "engine (roofline measure --engine perf) for this binary.\n",
                  (unsigned long)pc, b[0], b[1], b[2], b[3]);
    }
}

/* Per --roofline-function pattern: the functions it matched (clones folded
 * into one name), reported so that `measure` can name an ambiguous pattern's
 * candidates. */
#define MAX_MATCHED 16
static HChar *matched[MAX_TRACKED][MAX_MATCHED];
static HChar *matched_obj[MAX_TRACKED][MAX_MATCHED]; /* the file each is in, or NULL */
static Int n_matched[MAX_TRACKED];

/* A pattern's "NAME (FILE)" form: the function NAME in the file of base name FILE only (a
 * function's name as the output qualifies it). 0 when the pattern has no such suffix. */
static Bool pattern_in_file(const HChar *pattern, const HChar *name, const HChar *obj)
{
    const SizeT n = VG_(strlen)(pattern);
    if (!obj || n < 4 || pattern[n - 1] != ')') return False;
    const HChar *open = NULL;
    for (const HChar *p = pattern; p + 1 < pattern + n; p++)
        if (p[0] == ' ' && p[1] == '(') open = p;
    if (!open || open == pattern) return False;
    const HChar *slash = VG_(strrchr)(obj, '/');
    const HChar *base = slash ? slash + 1 : obj;
    const SizeT file_len = (SizeT)(pattern + n - 1 - (open + 2));
    if (VG_(strlen)(base) != file_len || VG_(strncmp)(open + 2, base, file_len) != 0) return False;
    HChar bare[RL_NAME_MAX];
    const SizeT bare_len = (SizeT)(open - pattern);
    if (bare_len >= RL_NAME_MAX) return False;
    VG_(memcpy)(bare, pattern, bare_len);
    bare[bare_len] = 0;
    return rl_name_matches(bare, name) != 0;
}

static void note_match(Int which, const HChar *symbol, const HChar *obj)
{
    HChar folded[RL_NAME_MAX];
    rl_fold_clones(symbol, folded, RL_NAME_MAX);
    for (Int i = 0; i < n_matched[which]; i++)
        if (VG_(strcmp)(matched[which][i], folded) == 0 && same_obj(matched_obj[which][i], obj)) return;
    if (n_matched[which] < MAX_MATCHED) {
        matched_obj[which][n_matched[which]] = obj ? VG_(strdup)("rl.matchobj", obj) : NULL;
        matched[which][n_matched[which]++] = VG_(strdup)("rl.match", folded);
    }
}

/* Matched function m of pattern w as the output names it: qualified by its file when another
 * file has a function of its name (another match, or any function that ran). */
static const HChar *matched_out_name(Int w, Int m, HChar *buf, Int cap)
{
    Bool other = False;
    for (Int i = 0; i < n_matched[w] && !other; i++)
        other = i != m && VG_(strcmp)(matched[w][i], matched[w][m]) == 0 && !same_obj(matched_obj[w][i], matched_obj[w][m]);
    for (Int i = fn_head[str_hash(matched[w][m]) % FN_HASH]; i >= 0 && !other; i = fns[i].next)
        other = VG_(strcmp)(fns[i].name, matched[w][m]) == 0 && !same_obj(fns[i].obj, matched_obj[w][m]);
    return other ? qualified_name(matched[w][m], matched_obj[w][m], buf, cap) : matched[w][m];
}

/* Whether a is the first instruction of a function (not of its .cold part, entered by a jump
 * from it): its executions are the function's calls (RL_ENTRY). */
static Bool is_function_entry(Addr a)
{
    const HChar *got = NULL;
    if (!VG_(get_fnname_if_entry)(VG_(current_DiEpoch)(), a, &got) || !got) return False;
    return !rl_is_cold_part(got);
}

/* The --roofline-function patterns whose function starts at a, as bits. */
static ULong tracked_entry(Addr a)
{
    if (n_clo_funcs == 0) return 0;
    const HChar *got = NULL;
    if (!VG_(get_fnname_if_entry)(VG_(current_DiEpoch)(), a, &got) || !got) return 0;
    /* a .cold part is entered by a jump from its function, not called */
    if (rl_is_cold_part(got)) return 0;
    HChar name[RL_NAME_MAX];
    VG_(strncpy)(name, got, RL_NAME_MAX - 1); /* got is invalidated by the next demangling */
    name[RL_NAME_MAX - 1] = 0;
    const HChar *obj = NULL;
    if (!VG_(get_objname)(VG_(current_DiEpoch)(), a, &obj) || !obj || !*obj) obj = NULL;
    ULong bits = 0;
    for (Int i = 0; i < n_clo_funcs; i++)
        if (rl_name_matches(clo_funcs[i], name) || pattern_in_file(clo_funcs[i], name, obj)) {
            bits |= 1ULL << i;
            note_match(i, name, obj);
        }
    return bits;
}

/* The optimisation level asked for (--vex-iropt-level, default 2), applied by the tool
 * after instrumenting; VEX itself runs at level 0 (see do_iropt_BB above). */
static Int opt_level = 2;
static VexRegisterUpdates opt_px = VexRegUpdUnwindregsAtMemAccess;

static IRSB *optimise_instrumented(IRSB *sb, const VexGuestExtents *vge)
{
    if (opt_level <= 0) return sb;
    vex_control.iropt_level = opt_level;
    sb = do_iropt_BB(sb, guest_amd64_spechelper, guest_amd64_state_requires_precise_mem_exns, opt_px,
                     (Addr)vge->base[0], VexArchAMD64);
    vex_control.iropt_level = 0;
    return sb;
}

/* The definitions of the input superblock's temporaries seen so far (flat IR: each is
 * written once, before it is read), for the patterns below. */
static IRExpr **tmp_def = NULL;
static Int cap_tmp_def = 0;

static IRExpr *def_of(IRExpr *e)
{
    if (!e || e->tag != Iex_RdTmp || (Int)e->Iex.RdTmp.tmp >= cap_tmp_def) return NULL;
    return tmp_def[e->Iex.RdTmp.tmp];
}

/* An AVX2 gather (VGATHERDPD/QPD/DPS/QPS, VPGATHERDD/QD/DQ/QQ) loads only the lanes its
 * mask selects, but VEX loads every lane: a lane left out of the mask loads from the stack
 * pointer instead, its value then discarded (guest_amd64_toIR.c, dis_VGATHER:
 * `addr = ITE(cond, lane address, RSP)`, the only place it builds such an address). For
 * such a load this returns the lane's condition, under which its bytes count; NULL for
 * any other load. */
static IRExpr *gather_lane_guard(IRExpr *addr)
{
    IRExpr *ite = def_of(addr);
    if (!ite || ite->tag != Iex_ITE) return NULL;
    IRExpr *alt = ite->Iex.ITE.iffalse, *alt_def = def_of(alt);
    if (alt_def) alt = alt_def;
    if (alt->tag != Iex_Get || alt->Iex.Get.offset != OFFSET_amd64_RSP || alt->Iex.Get.ty != Ity_I64) return NULL;
    return ite->Iex.ITE.cond;
}

/* The bytes a helper's declared memory area moves. XSAVE's and XRSTOR's x87 component
 * (FXSAVE and FXRSTOR are made of the same helpers) declares bytes 0..159 of the save
 * area, but bytes 24..31 are MXCSR and MXCSR_MASK, which belong to the SSE and AVX
 * components and which the next helper of the same instruction declares again (guarded
 * by RFBM[1] or RFBM[2]): counted in both, an XSAVE of x87 and SSE state stored 8 bytes
 * twice. The x87 state is bytes 0..23 and 32..159 (Intel SDM vol. 1, 13.4.1): 152. */
static Int helper_bytes(const IRDirty *d)
{
    const HChar *name = d->cee ? d->cee->name : NULL;
    if (name && d->mSize == 160 &&
        (VG_(strcmp)(name, "amd64g_dirtyhelper_XSAVE_COMPONENT_0") == 0 ||
         VG_(strcmp)(name, "amd64g_dirtyhelper_XRSTOR_COMPONENT_0") == 0))
        return 152;
    return d->mSize;
}

static IRSB *rl_instrument(VgCallbackClosure *closure, IRSB *in, const VexGuestLayout *layout,
                           const VexGuestExtents *vge, const VexArchInfo *archinfo_host,
                           IRType gWordTy, IRType hWordTy)
{
    (void)closure; (void)layout; (void)archinfo_host;
    if (gWordTy != hWordTy) VG_(tool_panic)("host/guest word size mismatch");

    IRSB *sb = deepCopyIRSBExceptStmts(in);
    Int i = 0;
    /* copy leading non-IMark statements */
    while (i < in->stmts_used && in->stmts[i]->tag != Ist_IMark) {
        addStmtToIRSB(sb, in->stmts[i]);
        i++;
    }

    if (n_clo_funcs > 0) {
        /* if (sp_limit < SP) rl_sp_check(SP) */
        IRTemp sp = newIRTemp(sb->tyenv, Ity_I64);
        IRTemp lim = newIRTemp(sb->tyenv, Ity_I64);
        IRTemp g = newIRTemp(sb->tyenv, Ity_I1);
        addStmtToIRSB(sb, IRStmt_WrTmp(sp, IRExpr_Get(OFFSET_amd64_RSP, Ity_I64)));
        addStmtToIRSB(sb, IRStmt_WrTmp(lim, IRExpr_Load(Iend_LE, Ity_I64, mk_ptr(&sp_limit))));
        addStmtToIRSB(sb, IRStmt_WrTmp(g, IRExpr_Binop(Iop_CmpLT64U, IRExpr_RdTmp(lim),
                                                         IRExpr_RdTmp(sp))));
        IRDirty *d = unsafeIRDirty_0_N(1, "rl_sp_check", VG_(fnptr_to_fnentry)(rl_sp_check),
                                       mkIRExprVec_1(IRExpr_RdTmp(sp)));
        d->guard = IRExpr_RdTmp(g);
        addStmtToIRSB(sb, IRStmt_Dirty(d));
    }
    /* after rl_sp_check, which may harvest */
    SbInfo *sbi = VG_(malloc)("rl.sbinfo", sizeof(SbInfo));
    sb_first_ctr = new_ctr();
    sbi->flag = sb_first_ctr + 1;
    sbi->rec_begin = sbi->rec_end = n_recs;
    emit_touch_check(sb, sbi);

    Seg seg;
    VG_(memset)(&seg, 0, sizeof(seg));
    seg.fn = -1;
    insn_cache = NULL;
    insn_exec = NULL;
    Addr insn_next = 0; /* the address after the instruction being instrumented */
    InsnStat *last_insn = NULL; /* the instruction being instrumented, when counted one by one */
    InsnFP fp;
    insn_reset(&fp);
    Bool insn_nt = False; /* the current guest instruction stores non-temporally */
    Bool insn_ymm = False; /* ... is VEX.256: its 128-bit FP ops are halves of 256-bit ones */
    Int insn_dot = 0;      /* ... is DPPS (2) or DPPD (1) */
    Bool insn_x87 = False; /* ... is an x87 instruction (long double) */
    Bool insn_flag = False; /* ... is in a function whose FP instructions only raise flags */
    Bool insn_rep = False; /* ... is a REP string op: one instruction however many passes (Ist_Exit) */
    if (in->tyenv->types_used > cap_tmp_def) {
        cap_tmp_def = in->tyenv->types_used * 2;
        tmp_def = VG_(realloc)("rl.tmpdef", tmp_def, cap_tmp_def * sizeof(IRExpr *));
    }
    VG_(memset)(tmp_def, 0, cap_tmp_def * sizeof(IRExpr *));

    for (; i < in->stmts_used; i++) {
        IRStmt *st = in->stmts[i];
        if (!st || st->tag == Ist_NoOp) continue;
        switch (st->tag) {
        case Ist_IMark: {
            insn_commit(&fp, &seg, insn_ymm, insn_dot, insn_x87, insn_flag);
            Addr a = (Addr)st->Ist.IMark.addr;
            Int fn = fn_of_addr(a);
            insn_flag = fns[fn].flag_only;
            memo_insn = a;
            memo_access = 0;
            ULong tr = tracked_entry(a);
            InsnStat *one = fn_per_insn(fn) || in_insn_object(a) ? insn_stat(a, fn) : NULL;
            if (fn != seg.fn || tr || one || seg.insn) {
                seg_flush(sb, &seg);
                seg.fn = fn;
            }
            seg.insn = one;
            last_insn = one;
            insn_cache = one ? one->cache : NULL;
            insn_exec = NULL;
            insn_next = a + st->Ist.IMark.len;
            insn_rep = st->Ist.IMark.len > 0 && rl_rep_string_op((const UChar *)a, (Int)st->Ist.IMark.len);
            seg.cost[RL_INSN]++;
            if (is_function_entry(a)) seg.cost[RL_ENTRY]++;
            seg.any = True;
            insn_nt = cache_on && st->Ist.IMark.len > 0 &&
                      rl_is_nontemporal_store((const UChar *)a, (Int)st->Ist.IMark.len);
            insn_ymm = st->Ist.IMark.len > 0 && rl_vex_vector_bits((const UChar *)a, (Int)st->Ist.IMark.len) == 256;
            insn_dot = st->Ist.IMark.len > 0 ? rl_dot_product((const UChar *)a, (Int)st->Ist.IMark.len) : 0;
            insn_x87 = st->Ist.IMark.len > 0 && rl_is_x87((const UChar *)a, (Int)st->Ist.IMark.len);
            addStmtToIRSB(sb, st);
            if (tr) {
                IRTemp sp = newIRTemp(sb->tyenv, Ity_I64);
                addStmtToIRSB(sb, IRStmt_WrTmp(sp, IRExpr_Get(OFFSET_amd64_RSP, Ity_I64)));
                for (Int w = 0; w < n_clo_funcs; w++) {
                    if (!(tr & (1ULL << w))) continue;
                    IRDirty *d = unsafeIRDirty_0_N(2, "rl_fn_enter", VG_(fnptr_to_fnentry)(rl_fn_enter),
                                                   mkIRExprVec_2(IRExpr_Const(IRConst_U64((ULong)w)),
                                                                 IRExpr_RdTmp(sp)));
                    addStmtToIRSB(sb, IRStmt_Dirty(d));
                }
                emit_touch_check(sb, sbi);
            }
            break;
        }
        case Ist_WrTmp: {
            IRExpr *e = st->Ist.WrTmp.data;
            if ((Int)st->Ist.WrTmp.tmp < cap_tmp_def) tmp_def[st->Ist.WrTmp.tmp] = e;
            IRExpr *lane = e->tag == Iex_Load ? gather_lane_guard(e->Iex.Load.addr) : NULL;
            if (lane) {
                const Int sz = sizeofIRType(e->Iex.Load.ty);
                CostRec *r = guarded_rec(&seg);
                r->dyn_ld = new_ctr();
                add_guarded(sb, r->dyn_ld, lane, (ULong)sz);
                emit_cache_access(sb, e->Iex.Load.addr, sz, RL_CS_LOAD, lane, seg.fn);
            } else if (e->tag == Iex_Load) {
                seg.cost[RL_LD] += sizeofIRType(e->Iex.Load.ty);
                seg.any = True;
                emit_cache_access(sb, e->Iex.Load.addr, sizeofIRType(e->Iex.Load.ty), RL_CS_LOAD, NULL, seg.fn);
            } else {
                tally_expr(&fp, e);
            }
            addStmtToIRSB(sb, st);
            break;
        }
        case Ist_Store: {
            IRType ty = typeOfIRExpr(in->tyenv, st->Ist.Store.data);
            seg.cost[RL_ST] += sizeofIRType(ty);
            /* a REP STOS/MOVS element (the only REP string ops that store): its fills are
             * counted apart, as fast-string stores may write whole lines without them */
            if (insn_rep) seg.cost[RL_REP_ST] += sizeofIRType(ty);
            seg.any = True;
            emit_cache_access(sb, st->Ist.Store.addr, sizeofIRType(ty),
                              insn_nt ? RL_CS_NT_STORE : insn_rep ? RL_CS_REP_STORE : RL_CS_STORE, NULL, seg.fn);
            addStmtToIRSB(sb, st);
            break;
        }
        case Ist_LoadG: {
            IRLoadG *lg = st->Ist.LoadG.details;
            addStmtToIRSB(sb, st);
            CostRec *r = guarded_rec(&seg);
            r->dyn_ld = new_ctr();
            add_guarded(sb, r->dyn_ld, lg->guard, (ULong)loadg_size(lg->cvt));
            emit_cache_access(sb, lg->addr, loadg_size(lg->cvt), RL_CS_LOAD, lg->guard, seg.fn);
            break;
        }
        case Ist_StoreG: {
            IRStoreG *sg = st->Ist.StoreG.details;
            addStmtToIRSB(sb, st);
            CostRec *r = guarded_rec(&seg);
            r->dyn_st = new_ctr();
            add_guarded(sb, r->dyn_st, sg->guard,
                        (ULong)sizeofIRType(typeOfIRExpr(in->tyenv, sg->data)));
            emit_cache_access(sb, sg->addr, sizeofIRType(typeOfIRExpr(in->tyenv, sg->data)),
                              insn_nt ? RL_CS_NT_STORE : RL_CS_STORE, sg->guard, seg.fn);
            break;
        }
        case Ist_CAS: {
            IRCAS *c = st->Ist.CAS.details;
            Int sz = sizeofIRType(typeOfIRExpr(in->tyenv, c->dataLo));
            if (c->dataHi) sz *= 2;
            seg.cost[RL_LD] += sz;
            seg.cost[RL_ST] += sz;
            seg.any = True;
            emit_cache_access(sb, c->addr, sz, RL_CS_STORE, NULL, seg.fn); /* a read for ownership, then the write */
            addStmtToIRSB(sb, st);
            break;
        }
        case Ist_LLSC: {
            if (st->Ist.LLSC.storedata == NULL) {
                Int sz = sizeofIRType(typeOfIRTemp(in->tyenv, st->Ist.LLSC.result));
                seg.cost[RL_LD] += sz;
                emit_cache_access(sb, st->Ist.LLSC.addr, sz, RL_CS_LOAD, NULL, seg.fn);
            } else {
                Int sz = sizeofIRType(typeOfIRExpr(in->tyenv, st->Ist.LLSC.storedata));
                seg.cost[RL_ST] += sz;
                emit_cache_access(sb, st->Ist.LLSC.addr, sz, RL_CS_STORE, NULL, seg.fn);
            }
            seg.any = True;
            addStmtToIRSB(sb, st);
            break;
        }
        case Ist_Dirty: {
            IRDirty *d = st->Ist.Dirty.details;
            const Bool reads = d->mFx == Ifx_Read || d->mFx == Ifx_Modify;
            const Bool writes = d->mFx == Ifx_Write || d->mFx == Ifx_Modify;
            /* A guard that is not a constant: the helper's memory bytes count when it is true
             * (XSAVE/XRSTOR's components, by the mask in EDX:EAX). The IR is the front end's,
             * not folded: a guard the optimiser would have found false is only known here
             * at run time. */
            const Bool guarded = d->guard && d->guard->tag != Iex_Const;
            const Bool never = d->guard && d->guard->tag == Iex_Const && !d->guard->Iex.Const.con->Ico.U1;
            if (d->mFx != Ifx_None && d->mSize > 0 && !never) {
                const Int bytes = helper_bytes(d);
                if (guarded) {
                    CostRec *r = guarded_rec(&seg);
                    if (reads) add_guarded(sb, r->dyn_ld = new_ctr(), d->guard, (ULong)bytes);
                    if (writes) add_guarded(sb, r->dyn_st = new_ctr(), d->guard, (ULong)bytes);
                } else {
                    if (reads) seg.cost[RL_LD] += bytes;
                    if (writes) seg.cost[RL_ST] += bytes;
                    seg.any = True;
                }
                /* a store after the read covers Modify: the line is read, then dirtied */
                emit_cache_access(sb, d->mAddr, d->mSize, d->mFx == Ifx_Read ? RL_CS_LOAD : RL_CS_STORE,
                                  guarded ? d->guard : NULL, seg.fn);
            }
            addStmtToIRSB(sb, st);
            break;
        }
        case Ist_Exit:
            insn_commit(&fp, &seg, insn_ymm, insn_dot, insn_x87, insn_flag);
            seg_flush(sb, &seg);
            if (insn_rep && st->Ist.Exit.dst->tag == Ico_U64 && (Addr)st->Ist.Exit.dst->Ico.U64 == insn_next) {
                /* A REP string op: VEX runs one element a pass of this block and jumps back to
                 * the instruction, whose first segment (above, +1 instruction) runs every pass;
                 * this exit leaves when the count is exhausted. The segment after it runs on
                 * every pass that did not leave here: it takes one instruction back (-1,
                 * modulo 2^64, as all counts are added), so the op counts once an execution
                 * however many elements it moves, with no counter update more a pass (memcpy
                 * and memset of 2 KiB and more are REP MOVSB and STOSB in glibc). A REPE/REPNE
                 * op that ends by its condition falls through the block's end: +1 there. */
                seg.cost[RL_INSN] = (ULong)-1;
                seg.any = True;
            }
            if (seg.insn && !insn_rep && st->Ist.Exit.jk == Ijk_Boring && st->Ist.Exit.dst->tag == Ico_U64) {
                /* a jump of a per-instruction function: how often it leaves by this exit */
                ULong zero[RL_NC];
                VG_(memset)(zero, 0, sizeof(zero));
                CostRec *r = new_rec(seg.fn, zero);
                r->insn = seg.insn;
                r->taken = new_ctr();
                r->exit_to_next = (Addr)st->Ist.Exit.dst->Ico.U64 == insn_next;
                if (r->exit_to_next && insn_exec) r->exec = insn_exec;
                add_guarded(sb, r->taken, st->Ist.Exit.guard, 1);
            }
            addStmtToIRSB(sb, st);
            break;
        default:
            addStmtToIRSB(sb, st);
            break;
        }
    }
    if (insn_rep && in->next->tag == Iex_Const && in->next->Iex.Const.con->tag == Ico_U64 &&
        (Addr)in->next->Iex.Const.con->Ico.U64 == insn_next) {
        /* REPE/REPNE ends when its condition fails, falling through to the next instruction
         * (the segment since its loop's exit is otherwise empty: it runs only then) */
        seg.cost[RL_INSN]++;
        seg.any = True;
    }
    insn_commit(&fp, &seg, insn_ymm, insn_dot, insn_x87, insn_flag);
    seg_flush(sb, &seg);
    sbi->rec_end = n_recs;
    sb_first_ctr = NULL;
    if ((in->jumpkind == Ijk_Call || (in->jumpkind == Ijk_Boring && last_insn && last_insn->plt)) &&
        in->next->tag != Iex_Const && last_insn) {
        /* the block ends in an indirect call of an instruction counted one by one, or in a PLT
         * stub's jump (the function a call to the stub reaches: a glibc function chosen at load
         * time has another name than the one called): where it goes */
        IRDirty *d = unsafeIRDirty_0_N(2, "rl_indirect_call", VG_(fnptr_to_fnentry)(rl_indirect_call),
                                       mkIRExprVec_2(mk_ptr(last_insn), in->next));
        addStmtToIRSB(sb, IRStmt_Dirty(d));
    }
    if (in->jumpkind == Ijk_NoDecode) {
        /* the block ends at an instruction VEX cannot decode: say why before
         * the core raises SIGILL */
        IRDirty *d = unsafeIRDirty_0_N(1, "rl_nodecode", VG_(fnptr_to_fnentry)(rl_nodecode),
                                       mkIRExprVec_1(in->next));
        addStmtToIRSB(sb, IRStmt_Dirty(d));
    }
    return optimise_instrumented(sb, vge);
}

/* ------------------------------------------------------------------ */
/* Output                                                                */
/* ------------------------------------------------------------------ */

static Int out_fd = -1;
static HChar obuf[8192];
static Int olen = 0;

static void oflush(void)
{
    if (olen > 0 && out_fd >= 0) VG_(write)(out_fd, obuf, olen);
    olen = 0;
}

static void oput(const HChar *s)
{
    while (*s) {
        if (olen == (Int)sizeof(obuf)) oflush();
        obuf[olen++] = *s++;
    }
}

static void oputf(const HChar *fmt, ULong v)
{
    HChar b[64];
    VG_(sprintf)(b, fmt, v);
    oput(b);
}

static void oput_str(const HChar *s)
{
    oput("\"");
    for (; *s; s++) {
        HChar b[8];
        UChar c = (UChar)*s;
        if (c == '"' || c == '\\') { b[0] = '\\'; b[1] = (HChar)c; b[2] = 0; }
        else if (c < 0x20) VG_(sprintf)(b, "\\u%04x", (UInt)c);
        else { b[0] = (HChar)c; b[1] = 0; }
        oput(b);
    }
    oput("\"");
}

static const HChar *kind_names[RL_NKIND] = {"add", "sub", "mul", "div", "fma", "sqrt", "minmax"};

static void oput_counts(const ULong *c)
{
    oput("\"flops\": {");
    for (Int p = 0; p < 2; p++) {
        oput(p == 0 ? "\"f64\": {" : ", \"f32\": {");
        for (Int k = 0; k < RL_NKIND; k++) {
            if (k) oput(", ");
            oput("\"");
            oput(kind_names[k]);
            oputf("\": %llu", c[RL_FLOP(p, k)]);
        }
        oput("}");
    }
    oput("}, \"flops_by_width\": {");
    oputf("\"scalar\": %llu", c[RL_W_SCALAR]);
    oputf(", \"128\": %llu", c[RL_W_SCALAR + 1]);
    oputf(", \"256\": %llu}", c[RL_W_SCALAR + 2]);
    oputf(", \"bytes_loaded\": %llu", c[RL_LD]);
    oputf(", \"bytes_stored\": %llu", c[RL_ST]);
    oputf(", \"instructions\": %llu", c[RL_INSN]);
    oputf(", \"flops_x87\": %llu", c[RL_X87]);
    oputf(", \"fp_flag_ops\": %llu", c[RL_FP_FLAG]);
    oputf(", \"entries\": %llu", c[RL_ENTRY]);
    oputf(", \"rep_string_stored\": %llu", c[RL_REP_ST]);
    if (!cache_on) return;
    /* bytes across each boundary, named by the level below it */
    oput(", \"cache\": {");
    for (Int b = 0; b < cache.levels; b++) {
        HChar name[8];
        if (b + 1 < cache.levels) VG_(sprintf)(name, "L%d", b + 2);
        else VG_(strcpy)(name, "DRAM");
        if (b) oput(", ");
        oput_str(name);
        oputf(": {\"read\": %llu", c[RL_CACHE + RL_CS_READ + b]);
        oputf(", \"write\": %llu", c[RL_CACHE + RL_CS_WRITE + b]);
        if (b + 1 < cache.levels && cache.lv[b + 1].cfg.exclusive)
            oputf(", \"clean_victim\": %llu", c[RL_CACHE + RL_CS_CLEAN_VICTIM + b]);
        oputf(", \"rep_string_fill\": %llu", c[RL_CACHE + RL_CS_REP_FILL + b]);
        if (b + 1 == cache.levels) {
            oputf(", \"nontemporal\": %llu", c[RL_CACHE + RL_CS_NT]);
            oputf(", \"write_allocate_unread\": %llu", c[RL_CACHE + RL_CS_WRITE_ALLOCATE_UNREAD]);
        }
        oput("}");
    }
    oput("}");
}

/* Dirty lines each level held when the run ended, before flush_dirty_at_exit. */
static ULong end_dirty_lines[RL_CS_MAX_LEVELS];

/* The hierarchy simulated, and what it still held dirty at the end. */
static void oput_cache_model(void)
{
    oput(",\n \"cache_model\": {\"cores\": ");
    oputf("%llu, \"levels\": [", (ULong)cache.cores);
    for (Int l = 0; l < cache.levels; l++) {
        const rl_cs_level *c = &cache.lv[l].cfg;
        oputf(l ? ", {\"name\": \"L%llu\"" : "{\"name\": \"L%llu\"", (ULong)l + 1);
        oputf(", \"size\": %llu", c->size);
        oputf(", \"ways\": %llu", (ULong)c->assoc);
        oputf(", \"line\": %llu", (ULong)c->line);
        oputf(", \"shared_by\": %llu", (ULong)c->shared_by);
        oput(c->exclusive ? ", \"victim\": true" : ", \"victim\": false");
        oputf(", \"dirty_at_end\": %llu}", end_dirty_lines[l] * c->line);
    }
    oput("], \"replacement\": \"LRU\", \"write_policy\": \"write-back, write-allocate\"");
    oput(cpu_core ? ", \"placement\": \"affinity\"" : ", \"placement\": \"round-robin\"");
    oput(", \"threads\": [");
    for (Int t = 1, any = 0; t < MAX_PLACED; t++) {
        if (!placed_core[t]) continue;
        oputf(any++ ? ", {\"thread\": %d" : "{\"thread\": %d", t);
        oputf(", \"core\": %d", placed_core[t] - 1);
        oput(placed_pinned[t] ? ", \"pinned\": true}" : ", \"pinned\": false}");
    }
    oput("]");
    /* more distinct sets of open regions than a line can name: the write-backs of lines
     * written in the later ones were charged where they were evicted */
    if (ctx_overflow) oput(", \"writer_contexts_exhausted\": true");
    oput(cache.out_of_memory ? ", \"out_of_memory\": true}" : "}");
}

static Int cmp_fn_idx(const void *a, const void *b)
{
    const FnEnt *x = &fns[*(const Int *)a], *y = &fns[*(const Int *)b];
    const Int by_name = VG_(strcmp)(x->name, y->name);
    if (by_name || same_obj(x->obj, y->obj)) return by_name;
    return !x->obj ? -1 : !y->obj ? 1 : VG_(strcmp)(x->obj, y->obj);
}

/* Every function with counts, sorted by name, each object after `sep`. */
static void oput_functions(const ULong *fc, const HChar *sep)
{
    Int *order = VG_(malloc)("rl.order", (SizeT)(n_fns ? n_fns : 1) * sizeof(Int));
    for (Int f = 0; f < n_fns; f++) order[f] = f;
    VG_(ssort)(order, n_fns, sizeof(Int), cmp_fn_idx);
    Bool first = True;
    for (Int q = 0; q < n_fns; q++) {
        Int f = order[q];
        const ULong *c = &fc[(SizeT)f * RL_NC];
        Bool any = False;
        for (Int i = 0; i < RL_NC; i++) if (c[i]) any = True;
        if (!any) continue;
        if (!first) oput(",");
        oput(sep);
        first = False;
        oput("{\"name\": ");
        HChar qname[RL_NAME_MAX + 256];
        oput_str(fn_out_name(f, qname, sizeof qname));
        if (fns[f].obj) {
            oput(", \"object\": ");
            oput_str(fns[f].obj);
        }
        oput(", ");
        oput_counts(c);
        oput("}");
    }
    VG_(free)(order);
}

/* Where an indirect call went: "call_targets" (the whole run's). */
static void oput_call_targets(const InsnStat *st)
{
    oput(", \"call_targets\": [");
    for (const CallTarget *t = st->targets; t; t = t->next) {
        if (t != st->targets) oput(", ");
        oputf("{\"address\": %llu", (ULong)t->link);
        if (t->obj) {
            oput(", \"object\": ");
            oput_str(t->obj);
        }
        if (t->fn) {
            oput(", \"function\": ");
            oput_str(t->fn);
        }
        oputf(", \"calls\": %llu}", t->calls);
    }
    oput("]");
}

/* Every counted instruction that ran, each object after `sep`; with `targets`, where its
 * indirect calls went. */
static void oput_instructions(const InsnCounts *ic, const HChar *sep, Bool targets)
{
    Bool first = True;
    for (Int i = 0; i < n_insn; i++) {
        const InsnStat *st = insn_list[i];
        const ULong *c = &ic->c[(SizeT)i * RL_NC];
        if (!c[RL_INSN]) continue;
        if (!first) oput(",");
        oput(sep);
        first = False;
        oput("{\"name\": ");
        HChar qname[RL_NAME_MAX + 256];
        oput_str(st->fn >= 0 && st->fn < n_fns ? fn_out_name(st->fn, qname, sizeof qname) : "(unknown)");
        if (st->obj) {
            oput(", \"object\": ");
            oput_str(st->obj);
        }
        oputf(", \"address\": %llu", (ULong)st->link);
        if (ic->has_exit[i]) oputf(", \"taken\": %llu", ic->taken[i]);
        if (targets && st->targets) oput_call_targets(st);
        oput(", ");
        oput_counts(c);
        oput("}");
    }
}

/* A client-request region's counts by function and by instruction (region_detail). */
static void oput_region_detail(const Region *r)
{
    ULong *fc = function_counts(&r->gain);
    InsnCounts ic = instruction_counts(&r->gain);
    oput(", \"functions\": [");
    oput_functions(fc, "\n   ");
    oput("], \"per_instruction\": [");
    oput_instructions(&ic, "\n   ", False);
    oput("]");
    VG_(free)(fc);
    free_instruction_counts(&ic);
}

/* A region's FLOPs by the file whose code ran them: "flops_by_object": {"/lib/libm.so.6": N, ...},
 * only files with FLOPs; none without FLOPs in a known file. */
static void oput_file_flops(const Region *r)
{
    Bool first = True;
    for (Int f = 0; f < r->n_file_flops && f < n_files; f++) {
        if (!r->file_flops[f]) continue;
        oput(first ? ", \"flops_by_object\": {" : ", ");
        first = False;
        oput_str(files[f]);
        oputf(": %llu", r->file_flops[f]);
    }
    if (!first) oput("}");
}

/* The busiest thread of per-slot (FLOPs, bytes) pairs: by FLOPs, or by bytes when `flops` is
 * False (a region without FLOPs). */
static void oput_busiest(const ULong *tw, Int n, Bool flops)
{
    Int best = -1;
    for (Int i = 0; i < n; i++) {
        const ULong v = tw[2 * i + (flops ? 0 : 1)];
        if (v && (best < 0 || v > tw[2 * best + (flops ? 0 : 1)])) best = i;
    }
    if (best < 0) return;
    oputf(", \"busiest_thread_flops\": %llu", tw[2 * best]);
    oputf(", \"busiest_thread_bytes\": %llu", tw[2 * best + 1]);
}

static ULong forks;
static Bool is_forked_child;

static void rl_fini(Int exitcode)
{
    (void)exitcode;
    if (is_forked_child) return; /* the parent reports; this copy holds the parent's work too */
    ULong tot[RL_NC];
    totals(tot);
    flush_cur(tot);
    cur_tid = VG_INVALID_THREADID;
    /* close regions still open, with each thread's own totals */
    ULong program_threads[TBITS], program_mem_threads[TBITS];
    VG_(memset)(program_threads, 0, sizeof(program_threads));
    VG_(memset)(program_mem_threads, 0, sizeof(program_mem_threads));
    for (Int t = 0; t < MAX_THREADS; t++) {
        if (!tstate[t]) continue;
        for (Int j = tstate[t]->depth - 1; j >= 0; j--)
            act_close(tstate[t], j, &tstate[t]->act[j], clo_thread_scope ? tstate[t]->acc : tot);
        tstate[t]->depth = 0;
        if (flops_of(tstate[t]->acc)) set_bit(program_threads, t);
        if (tstate[t]->acc[RL_LD] || tstate[t]->acc[RL_ST]) set_bit(program_mem_threads, t);
    }
    /* per-function exclusive counts, and per-instruction ones from the same records: they
     * add up to their functions' */
    Raw whole;
    VG_(memset)(&whole, 0, sizeof(whole));
    raw_fill(&whole);
    ULong *fc = function_counts(&whole);
    InsnCounts ic = instruction_counts(&whole);
    raw_free(&whole);
    /* what the caches held dirty at the end, then the write-backs it owes, by writer */
    ULong end_dirty = 0, exit_dram_writes = 0;
    if (cache_on) {
        for (Int l = 0; l < cache.levels; l++) end_dirty_lines[l] = rl_cs_dirty_lines(&cache, l);
        end_dirty = cache_dirty_bytes();
        exit_dram_writes = flush_dirty_at_exit();
    }

    HChar defname[64];
    const HChar *path = clo_out;
    if (!path) {
        VG_(sprintf)(defname, "roofline.out.%d.json", VG_(getpid)());
        path = defname;
    }
    out_fd = VG_(fd_open)(path, VKI_O_CREAT | VKI_O_TRUNC | VKI_O_WRONLY, 0644);
    if (out_fd < 0) {
        VG_(umsg)("roofline: cannot open output file '%s'\n", path);
        return;
    }
    oput("{\"schema\": \"roofline.vgtool/1\",\n \"region_scope\": ");
    oput(clo_thread_scope ? "\"thread\"" : "\"process\"");
    oputf(",\n \"child_processes\": %llu", forks);
    oput(",\n \"regions\": [\n  {\"name\": \"(program)\", \"calls\": 1, ");
    {
        /* threads at once; the threads that did the work (which "threads" counted by slot) */
        const Bool fl = flops_of(tot) != 0;
        const Int slots = count_bits(fl ? program_threads : program_mem_threads);
        const Int at_once = program_at_once[fl ? 0 : 1];
        oputf("\"threads\": %llu, ", (ULong)(at_once > 0 ? at_once : slots));
        oputf("\"threads_working\": %llu, ", (ULong)tw_count(program_tw, n_program_tw, fl ? 0 : 1));
        oput_counts(tot);
        oput_busiest(program_tw, n_program_tw, fl);
    }
    if (cache_on) oputf(", \"dirty_at_end\": %llu", end_dirty);
    if (cache_on) oputf(", \"dirty_at_exit\": %llu", exit_dram_writes);
    if (cache_on) oputf(", \"cache_touched\": %llu", touched_bytes(program_touched));
    if (cache_on) oputf(", \"cache_working_set\": %llu", touched_bytes(program_touched));
    oput("}");
    for (Int r = 0; r < n_regions; r++) {
        oput(",\n  {\"name\": ");
        oput_str(regions[r].name);
        oputf(", \"calls\": %llu, ", regions[r].calls);
        oputf("\"threads\": %llu, ", (ULong)region_at_once(&regions[r]));
        oputf("\"threads_working\": %llu, ",
              (ULong)tw_count(regions[r].tw, regions[r].n_tw, flops_of(regions[r].c) ? 0 : 1));
        for (Int w = 0; w < n_clo_funcs; w++) {
            if (tracked_region[w] != r) continue;
            oput("\"pattern\": ");
            oput_str(clo_funcs[w]);
            oput(", \"matched\": [");
            for (Int m = 0; m < n_matched[w]; m++) {
                if (m) oput(", ");
                HChar qname[RL_NAME_MAX + 256];
                oput_str(matched_out_name(w, m, qname, sizeof qname));
            }
            oput("], ");
            break;
        }
        if (regions[r].inner) {
            oput("\"inner_instructions\": {");
            Bool first_inner = True;
            for (Int f = 0; f < regions[r].n_inner && f < n_fns; f++) {
                if (!regions[r].inner[f]) continue;
                if (!first_inner) oput(", ");
                first_inner = False;
                HChar qname[RL_NAME_MAX + 256];
                oput_str(fn_out_name(f, qname, sizeof qname));
                oputf(": %llu", regions[r].inner[f]);
            }
            oput("}, ");
        }
        oput_counts(regions[r].c);
        oput_busiest(regions[r].tw, regions[r].n_tw, flops_of(regions[r].c) != 0);
        if (cache_on) oputf(", \"dirty_at_end\": %llu", regions[r].dirty_at_end);
        if (cache_on) oputf(", \"dirty_at_exit\": %llu", regions[r].dirty_at_exit);
        /* some of its lines may have carried no writer: at most all of those were its own */
        if (cache_on && regions[r].ctx_lost)
            oputf(", \"dirty_at_exit_up_to\": %llu", regions[r].dirty_at_exit + exit_unattributed);
        if (cache_on) {
            const rl_dso *o = regions[r].touched;
            oputf(", \"cache_touched\": %llu", o ? touched_bytes(&o->all) : 0);
            oputf(", \"cache_working_set\": %llu", o ? line_bytes(o->working) : 0);
        }
        oput_file_flops(&regions[r]);
        if (regions[r].detail) oput_region_detail(&regions[r]);
        oput("}");
    }
    oput("]");
    if (over_limit_calls) {
        oputf(",\n \"regions_over_limit\": {\"limit\": %llu, \"calls\": ", (ULong)MAX_REGIONS);
        oputf("%llu, \"first\": ", over_limit_calls);
        oput_str(over_limit_first ? over_limit_first : "");
        oput("}");
    }
    if (cache_on) oput_cache_model();
    oput(",\n \"functions\": [");
    oput_functions(fc, "\n  ");
    oput("]");
    if (n_clo_insn_funcs > 0 || n_clo_insn_objs > 0) {
        oput(",\n \"per_instruction\": [");
        oput_instructions(&ic, "\n  ", True);
        oput("]");
    }
    VG_(free)(fc);
    free_instruction_counts(&ic);
    oput("}\n");
    oflush();
    VG_(close)(out_fd);

    ULong fl = 0;
    for (Int i = 0; i < 2 * RL_NKIND; i++) fl += tot[i];
    if (VG_(clo_verbosity) > 0)
        VG_(umsg)("roofline: %llu FLOPs, %llu bytes loaded, %llu bytes stored -> %s\n", fl,
              tot[RL_LD], tot[RL_ST], path);
}

/* ------------------------------------------------------------------ */
/* Options and init                                                      */
/* ------------------------------------------------------------------ */

static Bool rl_process_cmd_line_option(const HChar *arg)
{
    const HChar *s;
    if VG_STR_CLO (arg, "--roofline-out", clo_out) {
    } else if VG_STR_CLO (arg, "--roofline-region-scope", s) {
        if (VG_(strcmp)(s, "thread") == 0) clo_thread_scope = True;
        else if (VG_(strcmp)(s, "process") == 0) clo_thread_scope = False;
        else VG_(fmsg_bad_option)(arg, "expected process or thread\n");
    } else if VG_STR_CLO (arg, "--roofline-cache", clo_cache) {
        if (VG_(strcmp)(clo_cache, "none") == 0) clo_cache = NULL;
    } else if VG_BINT_CLO (arg, "--roofline-cache-cores", clo_cache_cores, 1, RL_CS_MAX_CORES) {
    } else if VG_STR_CLO (arg, "--roofline-cpu-cores", clo_cpu_cores) {
    } else if VG_STR_CLO (arg, "--roofline-function", s) {
        if (n_clo_funcs == MAX_TRACKED) {
            VG_(fmsg_bad_option)(arg, "too many --roofline-function options (max 64)\n");
        }
        clo_funcs[n_clo_funcs++] = s;
    } else if VG_STR_CLO (arg, "--roofline-per-instruction", s) {
        if (n_clo_insn_funcs == MAX_TRACKED) {
            VG_(fmsg_bad_option)(arg, "too many --roofline-per-instruction options (max 64)\n");
        }
        clo_insn_funcs[n_clo_insn_funcs++] = s;
    } else if VG_STR_CLO (arg, "--roofline-per-instruction-object", s) {
        if (n_clo_insn_objs == MAX_TRACKED) {
            VG_(fmsg_bad_option)(arg, "too many --roofline-per-instruction-object options (max 64)\n");
        }
        clo_insn_objs[n_clo_insn_objs++] = s;
    } else {
        return False;
    }
    return True;
}

static void rl_print_usage(void)
{
    VG_(printf)("    --roofline-out=<file>        write JSON counts to <file> [roofline.out.<pid>.json]\n"
                "    --roofline-function=<name>   add a region '<function name>' covering every call\n"
                "                                 of <name> (inclusive); may be repeated; matches the\n"
                "                                 demangled name, qualified or not, with or without\n"
                "                                 parameters, and GCC clones (.constprop.N, ...)\n"
                "    --roofline-per-instruction=<name>  count every instruction of the functions\n"
                "                                 <name> matches (as --roofline-function) on its own:\n"
                "                                 \"per_instruction\" in the output, by address in\n"
                "                                 its object file; may be repeated\n"
                "    --roofline-per-instruction-object=<file>  the same for every function of this\n"
                "                                 object file (its full path, links resolved); may\n"
                "                                 be repeated\n"
                "    --roofline-region-scope=process|thread  a region counts the work of every\n"
                "                                 thread while it is open [process], or only of the\n"
                "                                 thread that opened it\n"
                "    --roofline-cache=none|LEVEL,...  simulate this cache hierarchy [none]; a LEVEL is\n"
                "                                 SIZE:WAYS:LINE:SHARED_BY[:victim] in bytes, L1 first,\n"
                "                                 e.g. 32768:8:64:1,1048576:8:64:1,33554432:16:64:8:victim\n"
                "    --roofline-cache-cores=N     cores the threads are spread over [1]\n"
                "    --roofline-cpu-cores=C0,C1,...  the core of each CPU (by OS number; empty: none):\n"
                "                                 a thread runs on the core its affinity allows (several:\n"
                "                                 thread n on the (n-1) mod k-th of those k); without it,\n"
                "                                 thread n on core (n-1) mod N\n");
}

static void rl_print_debug_usage(void) { VG_(printf)("    (none)\n"); }

/* Child processes: Valgrind follows a fork (the child runs on under the tool, with
 * a copy of every counter) but not, by default, an exec. The counts are the first
 * process's; the output says how many children it started, so `roofline measure`
 * can say that their work is not in them. A forked child writes nothing: its copy
 * of the counters would count the parent's work twice. */
static ULong forks = 0;
static Bool is_forked_child = False;
static void rl_atfork_parent(ThreadId tid) { (void)tid; forks++; }
static void rl_atfork_child(ThreadId tid) { (void)tid; is_forked_child = True; }

/* Reads an unsigned decimal at *p, advancing it; False when there is none. */
static Bool read_number(const HChar **p, ULong *v)
{
    const HChar *s = *p;
    ULong n = 0;
    if (*s < '0' || *s > '9') return False;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (n > (~0ULL - 9) / 10) return False;
        n = n * 10 + (ULong)(*s - '0');
    }
    *p = s;
    *v = n;
    return True;
}

/* A bad --roofline-cache or --roofline-cpu-cores, found after option processing (where
 * VG_(fmsg_bad_option) only prints): say so and stop. */
#define BAD_OPTION(...)                   \
    do {                                  \
        VG_(fmsg_bad_option)(__VA_ARGS__); \
        VG_(exit)(1);                     \
    } while (0)

static void cache_init(void)
{
    rl_cs_config cfg;
    VG_(memset)(&cfg, 0, sizeof(cfg));
    cfg.cores = clo_cache_cores;
    const HChar *p = clo_cache;
    while (*p) {
        if (cfg.levels == RL_CS_MAX_LEVELS)
            BAD_OPTION("--roofline-cache", "at most %d levels\n", RL_CS_MAX_LEVELS);
        rl_cs_level *l = &cfg.level[cfg.levels++];
        ULong size = 0, ways = 0, line = 0, shared = 0;
        if (!read_number(&p, &size) || *p++ != ':' || !read_number(&p, &ways) || *p++ != ':' ||
            !read_number(&p, &line) || *p++ != ':' || !read_number(&p, &shared) || ways > 1024 || line > 65536 ||
            shared > 1u << 20)
            BAD_OPTION("--roofline-cache", "level %d: expected SIZE:WAYS:LINE:SHARED_BY[:victim]\n",
                                 cfg.levels);
        l->size = size;
        l->assoc = (unsigned)ways;
        l->line = (unsigned)line;
        l->shared_by = (unsigned)shared;
        if (VG_(strncmp)(p, ":victim", 7) == 0) {
            l->exclusive = 1;
            p += 7;
        }
        if (*p == ',') p++;
        else if (*p)
            BAD_OPTION("--roofline-cache", "level %d: unexpected '%c'\n", cfg.levels, *p);
    }
    HChar err[200];
    if (rl_cs_init(&cache, &cfg, cache_alloc, err, sizeof(err)) != 0)
        BAD_OPTION("--roofline-cache", "%s\n", err);
    cache_on = True;
    /* write-backs go to the regions that wrote the lines; context 0: no region open */
    cache.charge = rl_charge;
    cache.ctx_bits = (ULong)ctx_intern(NULL, 0) << RL_CS_CTX_SHIFT;
    program_touched = VG_(calloc)("rl.touched", 1, sizeof(rl_ds));
    touched_now[n_touched_now++] = program_touched;
    const rl_cs_level_state *l1 = &cache.lv[0];
    l1_line_shift = l1->line_shift;
    /* As large as an L1 instance: the inline check reads it at any remembered offset. */
    l1_none = VG_(calloc)("rl.l1none", (SizeT)(l1->sets * l1->cfg.assoc), sizeof(rl_cs_way));
    l1_inline = True;
    if (clo_cpu_cores) {
        cpu_core = VG_(calloc)("rl.cpucore", MAX_CPUS, sizeof(Short));
        const HChar *q = clo_cpu_cores;
        for (n_cpus = 0; n_cpus < MAX_CPUS; n_cpus++) {
            ULong c = 0;
            if (*q == ',' || *q == 0) cpu_core[n_cpus] = -1;
            else if (!read_number(&q, &c) || c >= (ULong)cache.cores)
                BAD_OPTION("--roofline-cpu-cores", "CPU %d: expected a core below %d\n", n_cpus,
                                     cache.cores);
            else cpu_core[n_cpus] = (Short)c;
            if (*q == 0) {
                n_cpus++;
                break;
            }
            if (*q++ != ',') BAD_OPTION("--roofline-cpu-cores", "CPU %d: unexpected '%c'\n", n_cpus, q[-1]);
        }
    }
    cache_set_core(1);
}

static void rl_post_clo_init(void)
{
    /* Instrument the front end's IR, every guest instruction's operations (above), and
     * optimise afterwards. Registers are made precise at memory accesses as the core would
     * for this block: the stricter of the default and --px-file-backed (a block whose
     * extents are not all file-backed gets the default from the core; the stricter choice
     * only keeps more register writes). */
    opt_level = VG_(clo_vex_control).iropt_level;
    opt_px = VG_(clo_vex_control).iropt_register_updates_default;
    if (VG_(clo_px_file_backed) != VexRegUpd_INVALID && VG_(clo_px_file_backed) > opt_px)
        opt_px = VG_(clo_px_file_backed);
    VG_(clo_vex_control).iropt_level = 0;
    /* No chasing: VEX joins an `if (a && b)` test's second block to the first and runs it
     * whatever the first branch decided, its register writes made conditional. The tool
     * would count that block's instructions and FLOPs each time the first one ran. Without
     * chasing a superblock is one guest basic block (as for Callgrind); measured no slower. */
    VG_(clo_vex_control).guest_chase = False;
    if (clo_cache) cache_init();
    for (Int i = 0; i < n_clo_funcs; i++) {
        HChar b[600];
        VG_(snprintf)(b, sizeof(b), "<function %s>", clo_funcs[i]);
        tracked_region[i] = region_index(b);
        if (tracked_region[i] >= 0) regions[tracked_region[i]].by_function = True;
    }
}

static void rl_pre_clo_init(void)
{
    VG_(details_name)("roofline");
    VG_(details_version)("1.0");
    VG_(details_description)("FLOP and byte counter for roofline analysis");
    VG_(details_copyright_author)("roofline toolkit authors");
    VG_(details_bug_reports_to)("roofline project");
    VG_(details_avg_translation_sizeB)(300);

    for (Int i = 0; i < FN_HASH; i++) fn_head[i] = -1;

    VG_(basic_tool_funcs)(rl_post_clo_init, rl_instrument, rl_fini);
    VG_(needs_command_line_options)(rl_process_cmd_line_option, rl_print_usage,
                                    rl_print_debug_usage);
    VG_(needs_client_requests)(rl_handle_client_request);
    VG_(track_start_client_code)(rl_start_client_code);
    VG_(track_stop_client_code)(rl_stop_client_code);
    VG_(track_pre_thread_ll_exit)(rl_thread_exit);
    VG_(needs_syscall_wrapper)(rl_pre_syscall, rl_post_syscall);
    VG_(track_pre_thread_ll_create)(rl_thread_create);
    VG_(atfork)(NULL, rl_atfork_parent, rl_atfork_child);
}

VG_DETERMINE_INTERFACE_VERSION(rl_pre_clo_init)
