/* Matching a user's function name against a symbol name as Valgrind gives it
 * (demangled: "solver::Grid2D<double>::sweep(int)", "triad.constprop.0",
 * "kernel(double*) [clone .isra.0]").  Plain C with no library calls, so the
 * Valgrind tool and the unit tests compile the same file. */
#ifndef RL_FNMATCH_H
#define RL_FNMATCH_H

#ifdef __cplusplus
extern "C" {
#endif

/* Longest name handled; longer names never match. */
#define RL_NAME_MAX 1024

/* Nonzero when `pattern` names the function `symbol`.  Both are folded first:
 * GCC clone suffixes (.constprop.N, .isra.N, .part.N, .cold, .lto_priv.N,
 * " [clone .xyz]") are removed; a nesting number ("daxpy.2": GCC's nested C
 * functions, gfortran's contained procedures) is ignored in `symbol` unless
 * `pattern` has it; the parameter list of `symbol` is ignored
 * when `pattern` has none; a return type in front of a template function is
 * ignored; `pattern` may leave out leading qualifiers ("sweep",
 * "Grid2D<double>::sweep") and, when it has no '<', template arguments
 * ("Grid2D::sweep"); spaces are not significant. */
int rl_name_matches(const char *pattern, const char *symbol);

/* `symbol` without clone suffixes, written to out (cap bytes, NUL-terminated):
 * the name that stands for all of its clones.  A nesting number stays
 * ("daxpy.2.constprop.0" -> "daxpy.2"): two contained procedures of one name
 * in different hosts are two functions. */
void rl_fold_clones(const char *symbol, char *out, int cap);

/* Nonzero for a ".cold" part: code split from its function and reached by a
 * jump, so its first instruction is not a call of the function. */
int rl_is_cold_part(const char *symbol);

#ifdef __cplusplus
}
#endif

#endif
