/* Counter layout of the roofline Valgrind tool. */
#ifndef RL_COUNTERS_H
#define RL_COUNTERS_H

#include "rl_cachesim.h"

enum { RL_ADD, RL_SUB, RL_MUL, RL_DIV, RL_FMA, RL_SQRT, RL_MINMAX, RL_NKIND };

/* precision p: 0 = f64, 1 = f32 */
#define RL_FLOP(p, k) ((p) * RL_NKIND + (k))
#define RL_W_SCALAR (2 * RL_NKIND) /* then 128, 256 */
#define RL_LD (RL_W_SCALAR + 3)
#define RL_ST (RL_LD + 1)
#define RL_INSN (RL_ST + 1) /* guest instructions executed */
#define RL_X87 (RL_INSN + 1) /* the FLOPs above made by x87 instructions (long double) */
/* Then the cache simulator's counters (rl_cachesim.h: bytes per boundary), when it runs. */
/* FLOPs of FP instructions run only to raise an exception flag (libgcc's soft-fp
 * __sfp_handle_exceptions: one divss after an inexact binary128 operation): not among the FLOPs. */
#define RL_FP_FLAG (RL_X87 + 1)
/* Executions of a function's first instruction: its calls (and tail calls, which jump there). A
 * loop whose head is the function's first instruction would count its iterations too; compilers
 * put a prologue or the loop's entry test first, so that is rare. */
#define RL_ENTRY (RL_FP_FLAG + 1)
/* Bytes stored by REP STOS/MOVS string instructions (memset, memcpy above glibc's
 * rep_stosb/rep_movsb thresholds): of RL_ST. Their cache fills are RL_CS_REP_FILL. */
#define RL_REP_ST (RL_ENTRY + 1)
#define RL_CACHE (RL_REP_ST + 1)
#define RL_NC (RL_CACHE + RL_CS_NCOUNTERS)

#endif
