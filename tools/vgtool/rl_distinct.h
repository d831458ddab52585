/* How many distinct cache lines a stretch of the run touched, estimated in a fixed 4 KiB
 * (a HyperLogLog sketch, Flajolet et al. 2007): the data a marker region (or the whole
 * program) touched, to set beside the simulated last level's capacity. An exact set of
 * lines costs 8+ bytes a line (16 MiB for a 1 GiB working set, per region); the sketch's
 * standard error is 1.04/sqrt(4096) = 1.6%, enough to say "fills 94% of the L3".
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

typedef struct {
  unsigned char reg[RL_DS_REGS]; /* zeroed: nothing seen */
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
  if (rank > s->reg[idx]) s->reg[idx] = rank;
}

/* The estimated number of distinct lines added (0 for none). */
unsigned long long rl_ds_estimate(const rl_ds *s);

#ifdef __cplusplus
}
#endif

#endif
