/* The distinct-line sketch's estimate, and a sketch followed opening by opening (rl_distinct.h). */
#include "rl_distinct.h"

/* ln(x) for x >= 1, without libm: x = 2^e * f with f in [1, 2), ln f = 2 atanh((f-1)/(f+1)),
 * whose series converges fast (|z| <= 1/3): 20 terms are exact to a double's precision. */
static double ln_at_least_one(double x)
{
  int e = 0, k;
  double z, z2, term, sum = 0;
  while (x >= 2) {
    x /= 2;
    ++e;
  }
  z = (x - 1) / (x + 1);
  z2 = z * z;
  term = z;
  for (k = 1; k < 40; k += 2) {
    sum += term / k;
    term *= z2;
  }
  return 2 * sum + e * 0.69314718055994530942;
}

/* 2^-v for a register's value (v < 64), made from its exponent bits: no division in the loops
 * that run at every close of a region */
static double inverse_power(unsigned v)
{
  union {
    unsigned long long bits;
    double d;
  } p;
  p.bits = (unsigned long long)(1023 - v) << 52;
  return p.d;
}

/* exp(-x) for x >= 0, without libm: 2^-(x / ln 2), its whole part a power of two, the rest (an
 * exponent below ln 2) by its series, exact to a double's precision in 20 terms; 0 past 40
 * (under 5e-18, nothing beside the sums it goes into). */
static double exp_minus(double x)
{
  const double ln2 = 0.69314718055994530942;
  double f, term = 1, sum = 1;
  unsigned k, i;
  if (!(x > 0)) return 1;
  if (x > 40) return 0;
  k = (unsigned)(x / ln2); /* at most 57 */
  f = x - k * ln2;         /* in [0, ln 2) */
  for (i = 1; i < 20; ++i) {
    term *= -f / i;
    sum += term;
  }
  return sum * inverse_power(k);
}

static unsigned long long estimate_of(double inverse_sum, unsigned zeros)
{
  const double m = (double)RL_DS_REGS;
  const double alpha = 0.7213 / (1 + 1.079 / m);
  double estimate = alpha * m * m / inverse_sum;
  /* Small counts: linear counting of the empty registers is the better estimate (the raw
   * one is biased upward below 2.5 m). A 64-bit hash needs no large-range correction. */
  if (estimate <= 2.5 * m && zeros > 0) estimate = m * ln_at_least_one(m / (double)zeros);
  return (unsigned long long)(estimate + 0.5);
}

unsigned long long rl_ds_estimate(const rl_ds *s)
{
  double inverse_sum = 0;
  unsigned i, zeros = 0;
  for (i = 0; i < RL_DS_REGS; ++i) {
    inverse_sum += inverse_power(s->reg[i]);
    zeros += s->reg[i] == 0;
  }
  return estimate_of(inverse_sum, zeros);
}

void rl_ds_clear(rl_ds *s)
{
  unsigned i;
  for (i = 0; i < s->nz; ++i) s->reg[s->nz_idx[i]] = 0;
  s->nz = 0;
}

/* The sums of a sketch with every register zero. */
static void empty_sum(rl_ds_sum *u)
{
  unsigned v;
  for (v = 0; v <= RL_DS_MAX_RANK; ++v) u->hist[v] = 0;
  u->inverse_sum = RL_DS_REGS;
  u->zeros = RL_DS_REGS;
  u->hist[0] = RL_DS_REGS;
}

/* The sums of s, from its nonzero registers. */
static void sum_of(const rl_ds *s, rl_ds_sum *u)
{
  unsigned i;
  empty_sum(u);
  for (i = 0; i < s->nz; ++i) {
    const unsigned v = s->reg[s->nz_idx[i]];
    u->inverse_sum += inverse_power(v) - 1;
    --u->zeros;
    --u->hist[0];
    ++u->hist[v];
  }
}

/* The estimate of (the sketch of registers `with`, summed in `with_sum`) united with s: only s's
 * nonzero registers can raise it. */
static unsigned long long union_estimate(const rl_ds *s, const unsigned char *with, const rl_ds_sum *with_sum)
{
  double inverse_sum = with_sum->inverse_sum;
  unsigned zeros = with_sum->zeros, i;
  for (i = 0; i < s->nz; ++i) {
    const unsigned r = s->nz_idx[i], v = s->reg[r], w = with[r];
    if (v <= w) continue;
    inverse_sum += inverse_power(v) - inverse_power(w);
    zeros -= w == 0;
  }
  return estimate_of(inverse_sum, zeros);
}

/* How many registers `lines` new lines would raise in a sketch summed in `with_sum`: a register
 * holding v gets lines/m of them, each past v with the chance 2^-v, so it is raised with the
 * chance 1 - exp(-lines 2^-v / m). Lines the sketch holds already raise none. */
static double expected_raised(unsigned long long lines, const rl_ds_sum *with_sum)
{
  double expected = 0, e;
  int v = RL_DS_MAX_RANK;
  while (v > 0 && !with_sum->hist[v]) --v;
  /* exp(-lines 2^-v / m) for the highest value held, then squared for each value below it (one
   * exp per call: this runs at every close of a region) */
  e = exp_minus((double)lines * inverse_power((unsigned)v) / RL_DS_REGS);
  for (; v >= 0; --v, e *= e)
    if (with_sum->hist[v]) expected += with_sum->hist[v] * (1 - e);
  return expected;
}

/* Whether at least half of `lines` lines, which raised `raised` registers of a sketch summed in
 * `with_sum`, were in it (rl_distinct.h): 1 yes, 0 no, -1 cannot be told. */
static int half_were_in(unsigned long long lines, unsigned raised, const rl_ds_sum *with_sum)
{
  const double expected = expected_raised(lines, with_sum);
  if (expected < RL_DS_MIN_EXPECTED) return -1;
  return raised < expected / 2;
}

/* Whether at least half of the `lines` lines s holds were in the sketch of registers `with`. */
static int retouches(const rl_ds *s, unsigned long long lines, const unsigned char *with, const rl_ds_sum *with_sum)
{
  unsigned raised = 0, i;
  for (i = 0; i < s->nz; ++i) raised += s->reg[s->nz_idx[i]] > with[s->nz_idx[i]];
  return half_were_in(lines, raised, with_sum);
}

/* Adds s's lines to dst, its sums kept; with `base`, *raised keeps how many of dst's registers
 * are above base's. */
static void merge_into(rl_ds *dst, rl_ds_sum *dst_sum, const rl_ds *s, const unsigned char *base, unsigned *raised)
{
  unsigned i;
  for (i = 0; i < s->nz; ++i) {
    const unsigned r = s->nz_idx[i], v = s->reg[r], w = dst->reg[r];
    if (v <= w) continue;
    if (!w) {
      dst->nz_idx[dst->nz++] = (unsigned short)r;
      --dst_sum->zeros;
    }
    dst_sum->inverse_sum += inverse_power(v) - inverse_power(w);
    --dst_sum->hist[w];
    ++dst_sum->hist[v];
    if (base) *raised += (v > base[r]) - (w > base[r]);
    dst->reg[r] = (unsigned char)v;
  }
}

void rl_dso_init(rl_dso *o)
{
  empty_sum(&o->prev_sum);
  empty_sum(&o->all_sum);
  empty_sum(&o->pool_sum);
  empty_sum(&o->pool_base_sum);
}

/* The window of the current opening, s (rl_distinct.h), `lines` of them. */
static unsigned long long window_of(rl_dso *o, const rl_ds *s, unsigned long long lines)
{
  const rl_ds *prev = &o->sk[1 - o->cur];
  /* fewer lines than RL_DS_MIN_EXPECTED raise fewer registers than that in any sketch: they
   * cannot be told one by one (and a region opened a million times on a few lines each pays
   * for no comparison) */
  const int can_tell = lines >= RL_DS_MIN_EXPECTED;
  int all, pool;
  if (can_tell && o->have_prev && retouches(s, lines, prev->reg, &o->prev_sum) == 1) {
    o->pooling = 0;
    return union_estimate(s, prev->reg, &o->prev_sum);
  }
  all = o->openings == 0 ? 0 : can_tell ? retouches(s, lines, o->all.reg, &o->all_sum) : -1;
  if (all >= 0) {
    o->pooling = 0;
    return all ? union_estimate(s, o->all.reg, &o->all_sum) : lines;
  }
  /* too small to tell against every earlier opening's lines: pooled with the openings just before
   * it that were too (an opening per tile of a grid swept again and again, each tile a sliver of
   * the grid), the pool judged against what the earlier openings had touched when it began */
  if (!o->pooling) {
    unsigned i;
    rl_ds_clear(&o->pool);
    empty_sum(&o->pool_sum);
    for (i = 0; i < RL_DS_REGS; ++i) o->pool_base[i] = o->all.reg[i];
    o->pool_base_sum = o->all_sum;
    o->pool_raised = 0;
    o->pooling = 1;
  }
  merge_into(&o->pool, &o->pool_sum, s, o->pool_base, &o->pool_raised);
  pool = half_were_in(estimate_of(o->pool_sum.inverse_sum, o->pool_sum.zeros), o->pool_raised, &o->pool_base_sum);
  if (pool < 0) return lines;
  o->pooling = 0;
  /* re-touched: the reuse spans at most every line since, all the earlier openings' with its own */
  return pool ? union_estimate(s, o->all.reg, &o->all_sum) : lines;
}

void rl_dso_close(rl_dso *o)
{
  rl_ds *s = &o->sk[o->cur], *prev = &o->sk[1 - o->cur];
  rl_ds_sum sum;
  unsigned long long lines, window;
  if (!s->nz) return;
  sum_of(s, &sum);
  lines = estimate_of(sum.inverse_sum, sum.zeros);
  window = window_of(o, s, lines);
  if (window > o->working) o->working = window;
  merge_into(&o->all, &o->all_sum, s, 0, 0);
  /* the previous opening's sketch takes the next opening */
  rl_ds_clear(prev);
  o->cur = 1 - o->cur;
  o->prev_sum = sum;
  o->have_prev = 1;
  ++o->openings;
}
