/* A cache-hierarchy simulator for the roofline Valgrind tool (issue 11): every load
 * and store the tool sees goes through it, and it counts the bytes that cross each
 * boundary of the hierarchy (L1<->L2, ..., last level<->DRAM), so a point gets
 * bytes.L2, bytes.L3 and bytes.DRAM without hardware counters.
 *
 * Plain C with no library calls, like rl_fnmatch.c: the tool and the unit tests
 * compile the same file. Memory comes from the caller's allocator, on first use of
 * each cache instance (a private L2 of a core that never runs costs nothing).
 *
 * What is modelled: set-associative levels with true LRU replacement; write-back and
 * write-allocate (a store miss reads the line first); non-temporal stores, which
 * bypass the caches (a cached copy is written back if dirty and dropped); private
 * levels (one instance per core) and shared ones (one per `shared_by` cores); a level
 * inclusive of nothing and exclusive of nothing (NINE: a fill passes through every
 * level, an eviction touches no other level) or exclusive (a victim cache of the level
 * above, as AMD's L3 is of L2: filled only with that level's victims, clean or dirty,
 * and a hit moves the line up).
 * What is not: hardware prefetchers (they move the same lines earlier, not more of
 * them, except at the ends of streams), TLBs, coherence traffic between cores (two
 * cores writing one line each keep their own copy), inclusive back-invalidation,
 * the hashing of addresses onto the slices of a large last level (sets are taken by
 * the address's bits, or modulo a set count that is not a power of two).
 */
#ifndef RL_CACHESIM_H
#define RL_CACHESIM_H

#ifdef __cplusplus
extern "C" {
#endif

#define RL_CS_MAX_LEVELS 4
#define RL_CS_MAX_CORES 1024
#define RL_CS_MAX_ASSOC 64
/* The largest level: 4 GiB (the largest last levels today are about 1 GiB); its tags
 * take 1/8 of its size in the tool's memory, per instance. */
#define RL_CS_MAX_LEVEL_BYTES (4ull << 30)

/* Counters the simulator adds to, per thread (the caller passes the accessing
 * thread's array). Boundary b is between level b+1 and the level below it (b = 0:
 * L1<->L2; b = levels-1: the last level<->DRAM). Bytes, not lines. */
enum {
  RL_CS_READ = 0,                        /* [RL_CS_READ + b]: bytes read up across boundary b */
  RL_CS_WRITE = RL_CS_MAX_LEVELS,        /* [RL_CS_WRITE + b]: bytes written down across b */
  RL_CS_NT = 2 * RL_CS_MAX_LEVELS,       /* bytes of non-temporal stores (to DRAM, not cached) */
  RL_CS_ACCESSES,                        /* line accesses simulated (an access spanning 2 lines is 2) */
  RL_CS_L1_HITS,                         /* of which hit in L1 */
  /* bytes of lines a store brought from DRAM (a write-allocate fill) that went back to
   * DRAM dirty with no load of them in between: fills non-temporal stores would save */
  RL_CS_WRITE_ALLOCATE_UNREAD,
  /* [RL_CS_CLEAN_VICTIM + b]: bytes of lines moved down across b into a victim (exclusive)
   * level that no store wrote since they came up from it: clean lines, and dirty ones
   * carried unchanged (dirty toward DRAM from stores made before they last went down,
   * whose write into the victim level was counted then). Not in RL_CS_WRITE: the bandwidth
   * roofs count what a kernel's loads and stores move (with write-allocate), and counting
   * these there too would put an L3-resident triad at 1.5x the bytes its roof was
   * measured in (2x its stores when its inputs were written before). The hardware moves
   * every victim, so RL_CS_WRITE + RL_CS_CLEAN_VICTIM is what crosses b physically. */
  RL_CS_CLEAN_VICTIM,
  /* [RL_CS_REP_FILL + b]: of RL_CS_READ + b, the bytes of write-allocate fills made for a
   * RL_CS_REP_STORE (a REP STOS/MOVS element): reads CPUs with fast strings may skip, as
   * those instructions may write whole lines without reading them first. A detail: the
   * simulation still reads them, as for any store. */
  RL_CS_REP_FILL = RL_CS_CLEAN_VICTIM + RL_CS_MAX_LEVELS,
  RL_CS_NCOUNTERS = RL_CS_REP_FILL + RL_CS_MAX_LEVELS
};

/* RL_CS_REP_STORE: a store by a REP STOS/MOVS string instruction, simulated as RL_CS_STORE
 * (write-back, write-allocate) with its fills also counted in RL_CS_REP_FILL. */
enum { RL_CS_LOAD = 0, RL_CS_STORE = 1, RL_CS_NT_STORE = 2, RL_CS_REP_STORE = 3 };

typedef struct {
  unsigned long long size; /* bytes */
  unsigned line;           /* bytes; a power of two, 8..4096 */
  unsigned assoc;          /* ways, 1..RL_CS_MAX_ASSOC */
  unsigned shared_by;      /* cores per instance: 1 = private to a core */
  int exclusive;           /* nonzero: a victim cache of the level above (not for L1) */
} rl_cs_level;

typedef struct {
  int levels;              /* 1..RL_CS_MAX_LEVELS */
  int cores;               /* 1..RL_CS_MAX_CORES; accesses name a core 0..cores-1 */
  rl_cs_level level[RL_CS_MAX_LEVELS];
} rl_cs_config;

/* Returns zeroed memory of `bytes`, or 0 when there is none. */
typedef void *(*rl_cs_alloc_fn)(unsigned long long bytes);

/* A cache entry: 0 = empty, else RL_CS_TAG(line) | flags. RL_CS_UNREAD marks a line a
 * store brought from DRAM (write-allocate) that no load has read since; it travels with
 * the line down the levels, and a dirty line reaching DRAM with it counts in
 * RL_CS_WRITE_ALLOCATE_UNREAD. A load that finds it set must go through rl_cs_access
 * (which clears it): the tool's inline hit check sees the bit as another tag.
 * RL_CS_WRITTEN(v), for a victim level v (1..3: L2..L4): a store wrote the line since it
 * last came up from level v (every store sets all three; coming up from v clears v's).
 * Only such a line counts as written (RL_CS_WRITE) when it goes back down into v; one
 * without it is a clean victim there (RL_CS_CLEAN_VICTIM) even when RL_CS_DIRTY says DRAM
 * still has to get it. A store whose L1 entry lacks any of them (or RL_CS_DIRTY) goes
 * through rl_cs_access, as a load with RL_CS_UNREAD does. */
#define RL_CS_DIRTY 1ull
#define RL_CS_UNREAD 2ull
#define RL_CS_WRITTEN(v) (4ull << ((v) - 1))
#define RL_CS_WRITTEN_ALL (RL_CS_WRITTEN(1) | RL_CS_WRITTEN(2) | RL_CS_WRITTEN(3))
#define RL_CS_TAG_SHIFT 5
#define RL_CS_TAG(line) (((unsigned long long)(line) + 1) << RL_CS_TAG_SHIFT)
/* The tag takes bits 5..49: line numbers of 44 bits (every address below 2^47 with any
 * line size, as amd64 user space is; the simulator drops higher bits). Bits 50..63:
 * the writer's context, RL_CS_CTX(entry), for rl_cs.charge: the caller's rl_cs.ctx_bits
 * at the store that made the line's write-backs due (that made it dirty, or first wrote
 * it since it came up from a victim level; meaningful while it is dirty). A later store
 * to the line while it is dirty adds no write-back and leaves it. */
#define RL_CS_CTX_SHIFT 50
#define RL_CS_CTX_MASK (~0ull << RL_CS_CTX_SHIFT)
#define RL_CS_TAG_MASK (~RL_CS_CTX_MASK & ~((1ull << RL_CS_TAG_SHIFT) - 1))
#define RL_CS_CTX(entry) ((unsigned)((entry) >> RL_CS_CTX_SHIFT))
#define RL_CS_MAX_CTX ((1u << (64 - RL_CS_CTX_SHIFT)) - 1)

/* One way of an L1 set: entry as above; stamp: the simulator's clock at its last use
 * (0: empty); the way with the smallest is the LRU one. */
typedef struct {
  unsigned long long entry;
  unsigned long long stamp;
} rl_cs_way;

typedef struct {
  /* sets * assoc ways, set by set. L1: rl_cs_way pairs of words. Below: entries alone
   * (as in rl_cs_way), each set in LRU order, most recently used first. */
  unsigned long long *ways;
} rl_cs_instance;

typedef struct {
  rl_cs_level cfg;
  unsigned long long sets;
  unsigned long long set_mask; /* sets - 1 when a power of two, else 0 (modulo) */
  unsigned line_shift;
  unsigned instances;
  rl_cs_instance *inst;
  rl_cs_instance **of_core;    /* the instance each core uses (no division per access) */
  unsigned long long dirty;    /* dirty lines now held, all instances */
} rl_cs_level_state;

/* A write-back (or unread write-allocate fill) of a line whose writer context is not the
 * current one: `counter` (RL_CS_WRITE + b or RL_CS_WRITE_ALLOCATE_UNREAD) got `bytes` in
 * `ctr`, the counters of the access that evicted it, as always; the caller may charge them
 * to `writer` instead of `now` (the tool: to the regions open when the line was written,
 * not those open when it was evicted). */
typedef void (*rl_cs_charge_fn)(void *arg, unsigned writer, unsigned now, int counter, unsigned long long bytes,
                                unsigned long long *ctr);

typedef struct {
  int levels;
  int cores;
  unsigned long long clock;    /* advanced at every use of an L1 way; the caller may advance it too */
  /* The context of the accesses now (a number below RL_CS_MAX_CTX, << RL_CS_CTX_SHIFT): a
   * store stamps it on its line; set by the caller, 0 at first. */
  unsigned long long ctx_bits;
  rl_cs_charge_fn charge;      /* or 0 */
  void *charge_arg;
  rl_cs_alloc_fn alloc;
  int out_of_memory;           /* an instance could not be allocated: accesses to it miss */
  rl_cs_level_state lv[RL_CS_MAX_LEVELS];
} rl_cs;

/* Checks the configuration and prepares `cs`. Returns 0, or -1 with a message in
 * err (errcap bytes, NUL-terminated). */
int rl_cs_init(rl_cs *cs, const rl_cs_config *cfg, rl_cs_alloc_fn alloc, char *err, int errcap);

/* One access by `core` of `size` bytes at `addr` (kind RL_CS_LOAD, RL_CS_STORE,
 * RL_CS_NT_STORE or RL_CS_REP_STORE); traffic is added to counters[RL_CS_NCOUNTERS]. Returns where the
 * access's last line now is in that core's L1: its byte offset from the instance's
 * first way (rl_cs_l1_ways); -1 for a non-temporal store or an L1 without memory.
 *
 * An L1 hit changes nothing but the way's stamp (the dirty and written bits and context of
 * a store, the unread bit of a load), so the tool does that much inline: it remembers the
 * offset for each access instruction, and when the way there holds the line (for a store,
 * dirty and written already; for a load, without RL_CS_UNREAD; either, whatever its
 * context) it writes
 * ++clock into the stamp instead of calling this. That is exact, not an approximation:
 * the state is the one this call would leave, less the counters RL_CS_ACCESSES and
 * RL_CS_L1_HITS, which then count only the calls. */
long long rl_cs_access(rl_cs *cs, int core, unsigned long long addr, unsigned size, int kind,
                       unsigned long long *counters);

/* The ways of the L1 instance `core` uses (sets * assoc of them, set by set),
 * allocated if need be; 0 without memory. */
rl_cs_way *rl_cs_l1_ways(rl_cs *cs, int core);

/* Dirty lines held by `level` (0-based) now, over all its instances: what would
 * still be written back if the program stopped here. */
unsigned long long rl_cs_dirty_lines(const rl_cs *cs, int level);

/* Writes every dirty line back, level by level down to DRAM, as evictions would,
 * adding the traffic to counters (the end of a run, where the caller wants it). */
void rl_cs_flush(rl_cs *cs, unsigned long long *counters);

#ifdef __cplusplus
}
#endif

#endif
