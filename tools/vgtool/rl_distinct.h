/* How many distinct cache lines a stretch of the run touched, estimated in a fixed 4 KiB
 * (a HyperLogLog sketch, Flajolet et al. 2007): the data a marker region (or the whole
 * program) touched, to set beside the simulated last level's capacity. An exact set of
 * lines costs 8+ bytes a line (16 MiB for a 1 GiB working set, per region); the sketch's
 * standard error is 1.04/sqrt(4096) = 1.6%, enough to say "fills 94% of the L3".
 *
 * A region opened several times is followed opening by opening (rl_dso): what one opening
 * touched, whether it re-touched the lines of the opening before it (or of any earlier
 * one), and so the data its re-reads span, which the union over all its openings is not
 * (slabs of a large array, one per opening, each re-read inside its opening, have a union
 * far larger than any data re-read).
 *
 * Plain C with no library calls, like rl_cachesim.c: the tool and the unit tests compile
 * the same file. */
#ifndef RL_DISTINCT_H
#define RL_DISTINCT_H

#ifdef __cplusplus
extern "C" {
#endif

#define RL_DS_BITS 12
#define RL_DS_REGS (1u << RL_DS_BITS)
/* A register's largest value: the rank of the first 1 bit of 64 - RL_DS_BITS bits, or the guard. */
#define RL_DS_MAX_RANK (64 - RL_DS_BITS + 1)

typedef struct {
  unsigned char reg[RL_DS_REGS]; /* zeroed: nothing seen */
  /* the registers that are not zero, nz of them, in the order they were first set: a sketch
   * of a few lines is cleared, compared and merged in the time of those few */
  unsigned short nz_idx[RL_DS_REGS];
  unsigned nz;
} rl_ds;

/* A line number's 64-bit hash (splitmix64's finalizer: consecutive lines spread evenly). */
static inline unsigned long long rl_ds_hash(unsigned long long line)
{
  unsigned long long z = line + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Notes a line, by its hash (rl_ds_hash): inline, as the tool calls it on every L1 miss. */
static inline void rl_ds_add(rl_ds *s, unsigned long long hash)
{
  const unsigned idx = (unsigned)(hash >> (64 - RL_DS_BITS));
  /* the rank of the first 1 bit of the rest; a guard bit caps it at 64 - RL_DS_BITS + 1 */
  const unsigned long long rest = (hash << RL_DS_BITS) | (1ull << (RL_DS_BITS - 1));
  const unsigned char rank = (unsigned char)(__builtin_clzll(rest) + 1);
  if (rank > s->reg[idx]) {
    if (!s->reg[idx]) s->nz_idx[s->nz++] = (unsigned short)idx;
    s->reg[idx] = rank;
  }
}

/* The estimated number of distinct lines added (0 for none). */
unsigned long long rl_ds_estimate(const rl_ds *s);

/* Empties a sketch (in the time of its nonzero registers). */
void rl_ds_clear(rl_ds *s);

/* A sketch's registers summed up, to compare other sketches with it: the estimate's sum of
 * 2^-register, the registers at zero, and how many registers hold each value. */
typedef struct {
  double inverse_sum;
  unsigned zeros;
  unsigned hist[RL_DS_MAX_RANK + 1];
} rl_ds_sum;

/* A sketch followed opening by opening (a marker region's): the lines are added to the current
 * opening's sketch (rl_dso_current) while the region is open, and rl_dso_close ends the opening.
 * Each opening's window is the data its re-reads can span:
 * - the lines of the opening before it with its own, when at least half of its lines were among
 *   those (a time step over the same grid: the grid; a window sliding by less than its width);
 * - else every earlier opening's lines with its own, when at least half of its lines were
 *   among those (passes over slabs, one slab per opening: a pass's slabs);
 * - else its own lines (a slab of a large array, none of which an earlier opening touched).
 * Whether half its lines were in a sketch is told exactly where they all were (the sketch then
 * holds every register of the opening's as high already) and from how many of its registers
 * pass the sketch's, against how many would for as many new lines; where too few would (an
 * opening much smaller than what it is compared with: fewer than RL_DS_MIN_EXPECTED
 * registers) it cannot be told. Such openings, one after another, are pooled and the pool is
 * compared with what the openings before it touched, once it is large enough: re-touched, the
 * opening that made it so spans every earlier opening's lines with its own (tiles of a grid
 * swept again and again, an opening each); else, or while it cannot be told, each is judged on
 * its own lines. An opening of fewer than RL_DS_MIN_EXPECTED lines goes to the pool at once.
 * `working` is the largest window of any opening; `all` holds every opening's lines. */
#define RL_DS_MIN_EXPECTED 64
typedef struct {
  rl_ds sk[2];         /* the current opening's and the previous one's (cur: which is current) */
  int cur;
  int have_prev;       /* an opening that touched lines has closed */
  rl_ds_sum prev_sum;
  rl_ds all;
  rl_ds_sum all_sum;
  /* openings too small to tell against `all` one by one, pooled until they can be: their lines,
   * `all`'s registers and sums when the pool began, and how many of its registers pass those */
  int pooling;
  rl_ds pool;
  rl_ds_sum pool_sum;
  unsigned char pool_base[RL_DS_REGS];
  rl_ds_sum pool_base_sum;
  unsigned pool_raised;
  unsigned long long working;   /* lines */
  unsigned long long openings;  /* closed, that touched lines */
} rl_dso;

/* Prepares a zeroed rl_dso (its sums: every register zero). */
void rl_dso_init(rl_dso *o);
/* The sketch the current (or next) opening's lines go to. */
static inline rl_ds *rl_dso_current(rl_dso *o) { return &o->sk[o->cur]; }
/* The current opening ended: its window counts toward `working`, its lines go to `all`, and it
 * becomes the previous opening. An opening that touched nothing changes nothing. */
void rl_dso_close(rl_dso *o);

#ifdef __cplusplus
}
#endif

#endif
