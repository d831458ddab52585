/* The distinct-line sketch's estimate (rl_distinct.h). */
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

unsigned long long rl_ds_estimate(const rl_ds *s)
{
  const double m = (double)RL_DS_REGS;
  const double alpha = 0.7213 / (1 + 1.079 / m);
  double inverse_sum = 0, estimate;
  unsigned i, zeros = 0;
  for (i = 0; i < RL_DS_REGS; ++i) {
    inverse_sum += 1.0 / (double)(1ull << s->reg[i]);
    zeros += s->reg[i] == 0;
  }
  estimate = alpha * m * m / inverse_sum;
  /* Small counts: linear counting of the empty registers is the better estimate (the raw
   * one is biased upward below 2.5 m). A 64-bit hash needs no large-range correction. */
  if (estimate <= 2.5 * m && zeros > 0) estimate = m * ln_at_least_one(m / (double)zeros);
  return (unsigned long long)(estimate + 0.5);
}
