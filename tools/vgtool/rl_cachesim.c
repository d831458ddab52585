/* The cache-hierarchy simulator (rl_cachesim.h). True LRU, kept two ways:
 * - L1 by time stamps: every use of a way writes the simulator's clock into it, and a
 *   miss replaces the way with the oldest (an empty one, stamp 0, first). Ways never
 *   move, so a hit anywhere in a set is one store, which the tool makes inline for
 *   most L1 hits (rl_cs_access).
 * - The levels below, reached only on misses, as lists in LRU order, most recently used
 *   first, as cachegrind keeps its sets: half the memory of stamped ways, and it is the
 *   host's cache misses on these arrays (megabytes for a last level) that cost the time
 *   there; a hit on the first way changes nothing, any other moves its way to the front. */
#include "rl_cachesim.h"

typedef unsigned long long u64;

/* flags: the bits of an entry other than its tag (the flags and the writer's context) */
#define ENTRY(line, flags) (RL_CS_TAG(line) | (u64)(flags))
#define ENTRY_LINE(e) ((((e) & RL_CS_TAG_MASK) >> RL_CS_TAG_SHIFT) - 1)
#define ENTRY_DIRTY(e) ((e) & RL_CS_DIRTY)
#define ENTRY_FLAGS(e) ((e) & ~RL_CS_TAG_MASK)
#define SAME_LINE(e, tag) (((e) & RL_CS_TAG_MASK) == (tag))
#define IS_STORE(kind) ((kind) == RL_CS_STORE || (kind) == RL_CS_REP_STORE)
#define LINE_MASK ((1ull << 44) - 1) /* a line number's bits kept: line + 1 (and the next) fit the tag */

static void put_text(char *out, int cap, const char *a, const char *b)
{
  int n = 0;
  if (cap <= 0) return;
  for (; a && *a && n < cap - 1; ++a) out[n++] = *a;
  for (; b && *b && n < cap - 1; ++b) out[n++] = *b;
  out[n] = 0;
}

static const char *level_name(int l)
{
  static const char *names[RL_CS_MAX_LEVELS] = {"L1: ", "L2: ", "L3: ", "L4: "};
  return names[l];
}

static int is_power_of_two(u64 v) { return v && !(v & (v - 1)); }

int rl_cs_init(rl_cs *cs, const rl_cs_config *cfg, rl_cs_alloc_fn alloc, char *err, int errcap)
{
  int l;
  u64 i;
  for (i = 0; i < sizeof(*cs); ++i) ((unsigned char *)cs)[i] = 0;
  if (cfg->levels < 1 || cfg->levels > RL_CS_MAX_LEVELS) {
    put_text(err, errcap, "the hierarchy needs 1 to 4 cache levels", 0);
    return -1;
  }
  if (cfg->cores < 1 || cfg->cores > RL_CS_MAX_CORES) {
    put_text(err, errcap, "the number of cores must be 1 to 1024", 0);
    return -1;
  }
  cs->levels = cfg->levels;
  cs->cores = cfg->cores;
  cs->alloc = alloc;
  for (l = 0; l < cfg->levels; ++l) {
    const rl_cs_level *c = &cfg->level[l];
    rl_cs_level_state *s = &cs->lv[l];
    u64 lines;
    if (!is_power_of_two(c->line) || c->line < 8 || c->line > 4096) {
      put_text(err, errcap, level_name(l), "the line size must be a power of two from 8 to 4096 bytes");
      return -1;
    }
    if (c->line != cfg->level[0].line) {
      put_text(err, errcap, level_name(l), "every level must have the line size of L1");
      return -1;
    }
    if (c->assoc < 1 || c->assoc > RL_CS_MAX_ASSOC) {
      put_text(err, errcap, level_name(l), "the associativity must be 1 to 64 ways");
      return -1;
    }
    if (c->size < (u64)c->line * c->assoc || c->size > RL_CS_MAX_LEVEL_BYTES || c->size % ((u64)c->line * c->assoc)) {
      put_text(err, errcap, level_name(l), "the size must be a whole number of sets (line size x ways), at most 4 GiB");
      return -1;
    }
    if (c->shared_by < 1) {
      put_text(err, errcap, level_name(l), "shared_by must be at least 1 (1: private to a core)");
      return -1;
    }
    if (c->exclusive && l == 0) {
      put_text(err, errcap, level_name(l), "L1 cannot be exclusive (a victim cache needs a level above it)");
      return -1;
    }
    lines = c->size / c->line;
    s->cfg = *c;
    s->sets = lines / c->assoc;
    s->set_mask = is_power_of_two(s->sets) ? s->sets - 1 : 0;
    for (s->line_shift = 0; (1u << s->line_shift) < c->line; ++s->line_shift) {
    }
    s->instances = (unsigned)((cfg->cores + c->shared_by - 1) / c->shared_by);
    s->inst = (rl_cs_instance *)alloc((u64)s->instances * sizeof(rl_cs_instance));
    s->of_core = (rl_cs_instance **)alloc((u64)cfg->cores * sizeof(rl_cs_instance *));
    if (!s->inst || !s->of_core) {
      put_text(err, errcap, level_name(l), "out of memory");
      return -1;
    }
    for (i = 0; i < (u64)cfg->cores; ++i) s->of_core[i] = &s->inst[i / c->shared_by];
  }
  return 0;
}

/* An instance's ways on its first use; 0 (and out_of_memory) without memory. */
static __attribute__((noinline)) u64 *first_use(rl_cs *cs, rl_cs_level_state *s, rl_cs_instance *in)
{
  const u64 way_bytes = s == &cs->lv[0] ? sizeof(rl_cs_way) : sizeof(u64);
  in->ways = (u64 *)cs->alloc(s->sets * s->cfg.assoc * way_bytes);
  if (!in->ways) cs->out_of_memory = 1;
  return in->ways;
}

/* The first of the u64 words of `line`'s set in the instance of level l that `core`
 * uses (ways of rl_cs_way in L1, entries below); 0 without memory. Called several
 * times per simulated miss: inline, no division on the common path. */
static inline u64 *set_of(rl_cs *cs, int l, int core, u64 line)
{
  rl_cs_level_state *s = &cs->lv[l];
  rl_cs_instance *in = s->of_core[core];
  u64 *ways = in->ways;
  u64 set;
  if (__builtin_expect(!ways, 0) && !(ways = first_use(cs, s, in))) return 0;
  set = s->set_mask ? (line & s->set_mask) : (line % s->sets);
  return ways + set * s->cfg.assoc * (l == 0 ? 2 : 1);
}

/* L1: the way holding `line`, or 0 with *victim the least recently used way (an empty
 * one before any other). */
static inline rl_cs_way *l1_lookup(rl_cs_way *set, unsigned assoc, u64 line, rl_cs_way **victim)
{
  const u64 want = RL_CS_TAG(line);
  u64 oldest = set[0].stamp;  /* in a register: no load in the loop's dependency chain */
  unsigned w, lru = 0;
  for (w = 0; w < assoc; ++w) {
    const u64 stamp = set[w].stamp;
    if (SAME_LINE(set[w].entry, want)) return &set[w];
    lru = stamp < oldest ? w : lru;
    oldest = stamp < oldest ? stamp : oldest;
  }
  *victim = &set[lru];
  return 0;
}

/* The way holding `line`, or -1. */
static int find(const u64 *set, unsigned assoc, u64 line)
{
  const u64 want = RL_CS_TAG(line);
  unsigned w;
  for (w = 0; w < assoc; ++w)
    if (SAME_LINE(set[w], want)) return (int)w;
  return -1;
}

/* Brings `line` to the front of `set` in one pass, shifting the ways before it back
 * by one. Returns 1 when the set held it (its entry, dirty bit and all, now in front).
 * Returns 0 when it did not: every way has moved back, set[0] is the caller's to fill,
 * and *lru is the entry that fell out of the last way (0: it was empty). While set[0]
 * waits, the caller touches only other levels' sets. */
static inline int touch(u64 *set, unsigned assoc, u64 line, u64 *lru)
{
  const u64 want = RL_CS_TAG(line);
  u64 prev = set[0];
  unsigned w;
  if (SAME_LINE(prev, want)) return 1;
  for (w = 1; w < assoc; ++w) {
    const u64 cur = set[w];
    set[w] = prev;
    if (SAME_LINE(cur, want)) {
      set[0] = cur;
      return 1;
    }
    prev = cur;
  }
  *lru = prev;
  return 0;
}

/* Removes way w, closing the gap; the last way becomes empty. */
static void remove_way(u64 *set, unsigned assoc, int w)
{
  unsigned i;
  for (i = (unsigned)w; i + 1 < assoc; ++i) set[i] = set[i + 1];
  set[assoc - 1] = 0;
}

static void evict(rl_cs *cs, int l, int core, u64 line, u64 flags, u64 *ctr);

/* Bytes a line whose entry bits are `flags` writes back (counter RL_CS_WRITE + b or
 * RL_CS_WRITE_ALLOCATE_UNREAD), counted in ctr; the caller hears of those written in
 * another context than the current one (rl_cs_charge_fn). */
static void count_write(rl_cs *cs, u64 flags, int counter, u64 bytes, u64 *ctr)
{
  const unsigned writer = RL_CS_CTX(flags), now = RL_CS_CTX(cs->ctx_bits);
  ctr[counter] += bytes;
  if (cs->charge && writer != now) cs->charge(cs->charge_arg, writer, now, counter, bytes, ctr);
}

/* After touch() missed: `line` takes the front of `set` in level l, then the LRU
 * entry that fell out leaves the level. */
static void place_front(rl_cs *cs, int l, int core, u64 line, u64 flags, u64 *set, u64 lru, u64 *ctr)
{
  set[0] = ENTRY(line, flags);
  if (flags & RL_CS_DIRTY) ++cs->lv[l].dirty;
  if (lru) evict(cs, l, core, ENTRY_LINE(lru), ENTRY_FLAGS(lru), ctr);
}

/* Puts `line` at the front of its set in level l (merging with a copy already there:
 * possible when private levels above hold one line each); the LRU way makes room.
 * The unread bit is the incoming copy's: it comes from above, where the line was
 * used last; the written bits of either copy stay (a store wrote one of them since the
 * line came up). The writer's context stays that of the store that made the write-backs
 * from here due: a dirty copy here keeps its own (the incoming data adds no write-back
 * below), unless the incoming copy was written since it came up from a victim level
 * and this one was not (that store makes the write into the victim level due). */
static void insert(rl_cs *cs, int l, int core, u64 line, u64 flags, u64 *ctr)
{
  rl_cs_level_state *s = &cs->lv[l];
  u64 *set = set_of(cs, l, core, line);
  u64 lru = 0;
  if (!set) return;
  if (touch(set, s->cfg.assoc, line, &lru)) {
    if ((flags & RL_CS_DIRTY) && (!ENTRY_DIRTY(set[0]) || (flags & RL_CS_WRITTEN_ALL & ~set[0])))
      set[0] = (set[0] & ~RL_CS_CTX_MASK) | (flags & RL_CS_CTX_MASK);
    if ((flags & RL_CS_DIRTY) && !ENTRY_DIRTY(set[0])) {
      set[0] |= RL_CS_DIRTY;
      ++s->dirty;
    }
    set[0] = (set[0] & ~RL_CS_UNREAD) | (flags & (RL_CS_UNREAD | RL_CS_WRITTEN_ALL));
    return;
  }
  place_front(cs, l, core, line, flags, set, lru, ctr);
}

/* A line leaves level l: a dirty one is written to the level below (DRAM after the
 * last, where one a store brought and no load read counts as an unread write-allocate
 * fill); a victim level below takes every line, clean or dirty. Into a victim level only
 * a line a store wrote since it came up from there counts as written; any other is
 * counted apart (RL_CS_CLEAN_VICTIM), dirty or not: a line the program wrote before,
 * moving between L2 and a victim L3 while a loop only reads it, was counted as written
 * into L3 once, when those stores' data first went down (rl_cachesim.h). */
static void evict(rl_cs *cs, int l, int core, u64 line, u64 flags, u64 *ctr)
{
  const int below = l + 1;
  const u64 bytes = cs->lv[l].cfg.line;
  if (flags & RL_CS_DIRTY) --cs->lv[l].dirty;
  if (below == cs->levels) {
    if (flags & RL_CS_DIRTY) {
      count_write(cs, flags, RL_CS_WRITE + l, bytes, ctr);
      if (flags & RL_CS_UNREAD) count_write(cs, flags, RL_CS_WRITE_ALLOCATE_UNREAD, bytes, ctr);
    }
    return;
  }
  if (cs->lv[below].cfg.exclusive) {
    if ((flags & RL_CS_DIRTY) && (flags & RL_CS_WRITTEN(below))) count_write(cs, flags, RL_CS_WRITE + l, bytes, ctr);
    else ctr[RL_CS_CLEAN_VICTIM + l] += bytes;
    insert(cs, below, core, line, flags, ctr);
  } else if (flags & RL_CS_DIRTY) {
    count_write(cs, flags, RL_CS_WRITE + l, bytes, ctr);
    insert(cs, below, core, line, flags, ctr);
  }
}

static u64 fetch(rl_cs *cs, int l, int core, u64 line, int kind, u64 *ctr);

/* The level below level l gives it `line` for an access of `kind`: the bytes cross the
 * boundary above the level that had it. Returns the flags the line comes up with:
 * RL_CS_DIRTY when it moved out of a victim level, which held the only, dirty, copy
 * (without that level's written bit: it has just come up from there); RL_CS_UNREAD for
 * a store's fill from DRAM, or from a copy no load has read since one (a load clears
 * the bit of every copy it passes). */
static u64 supply(rl_cs *cs, int l, int core, u64 line, int kind, u64 *ctr)
{
  const int below = l + 1;
  const u64 bytes = cs->lv[l].cfg.line;
  if (below == cs->levels) {
    ctr[RL_CS_READ + l] += bytes;
    if (kind == RL_CS_REP_STORE) ctr[RL_CS_REP_FILL + l] += bytes;
    return IS_STORE(kind) ? RL_CS_UNREAD : 0;
  }
  if (cs->lv[below].cfg.exclusive) {
    rl_cs_level_state *s = &cs->lv[below];
    u64 *set = set_of(cs, below, core, line);
    const int w = set ? find(set, s->cfg.assoc, line) : -1;
    if (w >= 0) {
      const u64 flags = ENTRY_FLAGS(set[w]) & ~RL_CS_WRITTEN(below);
      if (flags & RL_CS_DIRTY) --s->dirty;
      remove_way(set, s->cfg.assoc, w);
      ctr[RL_CS_READ + l] += bytes;
      if (kind == RL_CS_REP_STORE) ctr[RL_CS_REP_FILL + l] += bytes;
      return IS_STORE(kind) ? flags : flags & ~RL_CS_UNREAD;
    }
    return supply(cs, below, core, line, kind, ctr);  /* from further down, past the victim level */
  }
  {
    const u64 unread = fetch(cs, below, core, line, kind, ctr) & RL_CS_UNREAD;
    ctr[RL_CS_READ + l] += bytes;
    if (kind == RL_CS_REP_STORE) ctr[RL_CS_REP_FILL + l] += bytes;
    return unread;  /* a dirty copy below stays there, dirty */
  }
}

/* A miss in level l, after touch() made room at the front of its set: the line comes
 * from below, then the LRU entry leaves. */
static void fill_front(rl_cs *cs, int l, int core, u64 line, int kind, u64 *set, u64 lru, u64 *ctr)
{
  place_front(cs, l, core, line, supply(cs, l, core, line, kind, ctr), set, lru, ctr);
}

/* An L1 miss: the line comes from below into the victim way, then the entry that was
 * there leaves. The way is chosen before the levels below are asked (they touch only
 * their own sets), as fill_front reserves the front of a list. */
static void l1_fill(rl_cs *cs, int core, u64 line, int kind, rl_cs_way *victim, u64 *ctr)
{
  const u64 lru = victim->entry;
  const u64 flags = supply(cs, 0, core, line, kind, ctr);
  victim->entry = ENTRY(line, flags);
  victim->stamp = ++cs->clock;
  if (flags & RL_CS_DIRTY) ++cs->lv[0].dirty;
  if (lru) evict(cs, 0, core, ENTRY_LINE(lru), ENTRY_FLAGS(lru), ctr);
}

/* Makes `line` present in level l (below L1), most recently used (a level without
 * memory only passes it up), for an access of `kind` (a load clears its unread bit).
 * Returns the line's flags there. */
static u64 fetch(rl_cs *cs, int l, int core, u64 line, int kind, u64 *ctr)
{
  u64 *set = set_of(cs, l, core, line);
  u64 lru = 0;
  if (!set) return supply(cs, l, core, line, kind, ctr);
  if (!touch(set, cs->lv[l].cfg.assoc, line, &lru)) fill_front(cs, l, core, line, kind, set, lru, ctr);
  else if (kind == RL_CS_LOAD) set[0] &= ~RL_CS_UNREAD;
  return ENTRY_FLAGS(set[0]);
}

/* A non-temporal store: the caches drop their copies (a dirty one is written back
 * first, to DRAM), and the stored bytes go to DRAM. */
static void nt_store(rl_cs *cs, int core, u64 line, u64 *ctr)
{
  int l, dirty = 0, unread = 0;
  u64 writer = 0;  /* the newest dirty copy's bits: its writer's context */
  rl_cs_way *l1 = (rl_cs_way *)set_of(cs, 0, core, line), *hit = 0, *victim;
  if (l1 && (hit = l1_lookup(l1, cs->lv[0].cfg.assoc, line, &victim))) {
    if (ENTRY_DIRTY(hit->entry)) {
      dirty = 1;
      unread = (hit->entry & RL_CS_UNREAD) != 0;
      writer = ENTRY_FLAGS(hit->entry);
      --cs->lv[0].dirty;
    }
    hit->entry = hit->stamp = 0;
  }
  for (l = 1; l < cs->levels; ++l) {
    rl_cs_level_state *s = &cs->lv[l];
    u64 *set = set_of(cs, l, core, line);
    const int w = set ? find(set, s->cfg.assoc, line) : -1;
    if (w < 0) continue;
    if (ENTRY_DIRTY(set[w])) {
      if (!dirty) {  /* the highest dirty copy is the newest */
        unread = (set[w] & RL_CS_UNREAD) != 0;
        writer = ENTRY_FLAGS(set[w]);
      }
      dirty = 1;
      --s->dirty;
    }
    remove_way(set, s->cfg.assoc, w);
  }
  if (dirty) count_write(cs, writer, RL_CS_WRITE + cs->levels - 1, cs->lv[0].cfg.line, ctr);
  if (dirty && unread) count_write(cs, writer, RL_CS_WRITE_ALLOCATE_UNREAD, cs->lv[0].cfg.line, ctr);
}

long long rl_cs_access(rl_cs *cs, int core, u64 addr, unsigned size, int kind, u64 *ctr)
{
  rl_cs_level_state *l1 = &cs->lv[0];
  const unsigned shift = l1->line_shift;
  const u64 first = (addr >> shift) & LINE_MASK;
  const u64 last = first + ((((addr & ((1ull << shift) - 1)) + (size ? size : 1) - 1)) >> shift);
  const unsigned assoc = l1->cfg.assoc;
  rl_cs_way *way = 0;
  u64 line;
  if (core < 0 || core >= cs->cores) core = (core < 0 ? -core : core) % cs->cores;
  if (kind == RL_CS_NT_STORE) {
    for (line = first; line <= last; ++line) {
      ++ctr[RL_CS_ACCESSES];
      nt_store(cs, core, line, ctr);
    }
    ctr[RL_CS_NT] += size;
    return -1;
  }
  for (line = first; line <= last; ++line) {
    rl_cs_way *set = (rl_cs_way *)set_of(cs, 0, core, line), *victim = 0;
    ++ctr[RL_CS_ACCESSES];
    if (!set) {
      supply(cs, 0, core, line, kind, ctr);  /* no memory for this L1: every access misses */
      way = 0;
      continue;
    }
    if ((way = l1_lookup(set, assoc, line, &victim))) {
      way->stamp = ++cs->clock;
      ++ctr[RL_CS_L1_HITS];
      if (kind == RL_CS_LOAD) way->entry &= ~RL_CS_UNREAD;
    } else {
      l1_fill(cs, core, line, kind, victim, ctr);
      way = victim;
    }
    if (IS_STORE(kind) && (way->entry & (RL_CS_DIRTY | RL_CS_WRITTEN_ALL)) != (RL_CS_DIRTY | RL_CS_WRITTEN_ALL)) {
      /* this store makes write-backs due that were not (the line was clean here, or not
       * written since it came up from a victim level): they are its context's */
      if (!ENTRY_DIRTY(way->entry)) ++l1->dirty;
      way->entry = (way->entry & ~RL_CS_CTX_MASK) | RL_CS_DIRTY | RL_CS_WRITTEN_ALL | cs->ctx_bits;
    }
  }
  return way ? (long long)((u64 *)way - l1->of_core[core]->ways) * (long long)sizeof(u64) : -1;
}

rl_cs_way *rl_cs_l1_ways(rl_cs *cs, int core)
{
  if (core < 0 || core >= cs->cores) core = (core < 0 ? -core : core) % cs->cores;
  return set_of(cs, 0, core, 0) ? (rl_cs_way *)cs->lv[0].of_core[core]->ways : 0;
}
unsigned long long rl_cs_dirty_lines(const rl_cs *cs, int level)
{
  return level >= 0 && level < cs->levels ? cs->lv[level].dirty : 0;
}

void rl_cs_flush(rl_cs *cs, u64 *ctr)
{
  int l;
  for (l = 0; l < cs->levels; ++l) {
    rl_cs_level_state *s = &cs->lv[l];
    unsigned i;
    for (i = 0; i < s->instances; ++i) {
      u64 *ways = s->inst[i].ways;
      const u64 stride = l == 0 ? 2 : 1;  /* L1: entry and stamp */
      u64 e, n = s->sets * s->cfg.assoc * stride;
      if (!ways) continue;
      for (e = 0; e < n; e += stride) {
        const u64 flags = ENTRY_FLAGS(ways[e]);
        if (!ways[e] || !ENTRY_DIRTY(ways[e])) continue;
        /* this copy now matches what is below it: clean, and not written since */
        ways[e] &= ~(RL_CS_DIRTY | RL_CS_WRITTEN_ALL);
        /* As an eviction of a dirty line would, without dropping this copy; the
         * core only picks the instance of a shared level below (any core of it). */
        evict(cs, l, (int)(i * s->cfg.shared_by), ENTRY_LINE(ways[e]), flags, ctr);
      }
    }
  }
}
