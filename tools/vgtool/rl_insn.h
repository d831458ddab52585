/* What the tool needs to know about a guest instruction that VEX's IR does not say.
 * Plain C with no library calls (shared with the unit tests, like rl_fnmatch.c). */
#ifndef RL_INSN_H
#define RL_INSN_H

#ifdef __cplusplus
extern "C" {
#endif

/* Nonzero when the amd64 instruction at `code` (`len` bytes readable, at most 15
 * used) is a non-temporal store: MOVNTI, MOVNTPS/PD, MOVNTDQ, MOVNTQ, MOVNTSS/SD
 * (SSE4a), MASKMOVQ/MASKMOVDQU and their VEX and EVEX forms. VEX translates these
 * into plain stores, so the cache simulator would otherwise read each line first
 * (write-allocate) and keep it, which these instructions exist to avoid. */
int rl_is_nontemporal_store(const unsigned char *code, int len);

/* The vector length of a VEX-encoded amd64 instruction at `code`: 256 when VEX.L is
 * set (ymm), 128 when not, 0 for an instruction without a VEX prefix. VEX translates
 * some 256-bit instructions (VHADDPD/PS, VHSUBPD/PS, VDPPS ymm) into 128-bit IR
 * ops, one per half: their FLOPs are still the 256-bit instruction's. */
int rl_vex_vector_bits(const unsigned char *code, int len);

/* 2 for DPPS, 1 for DPPD (legacy 66 0F 3A 40/41 and VEX.66.0F3A 40/41), 0 for any
 * other instruction. VEX expands a dot product into a multiply per lane and a tree
 * of adds whatever its mask, three ops a lane; the tool counts it as Intel's
 * FP_ARITH_INST_RETIRED counters do, two FLOPs per element (Intel SDM vol. 3B,
 * the note on DPP and FM(N)ADD/SUB counting twice): 8 per 128 bits of DPPS, 4 for DPPD. */
int rl_dot_product(const unsigned char *code, int len);

/* Nonzero for a string instruction with a REP, REPE or REPNE prefix (F3 or F2 before
 * MOVS, STOS, LODS, CMPS, SCAS). VEX runs one element of it per execution of its
 * superblock, which jumps back to the instruction until it is done: the instruction is
 * executed once, however many elements it moves. */
int rl_rep_string_op(const unsigned char *code, int len);

/* Nonzero for an x87 floating-point instruction (escape opcodes D8-DF after any
 * prefixes): FADD, FMUL, FDIV, FSQRT, FLD/FSTP of a long double, ... VEX computes
 * their arithmetic in double, so the tool counts it as f64; it tells such FLOPs apart
 * (flops_x87) so that measure can say they are long double work counted as f64. */
int rl_is_x87(const unsigned char *code, int len);

#ifdef __cplusplus
}
#endif

#endif
