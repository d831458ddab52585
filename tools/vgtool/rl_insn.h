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

#ifdef __cplusplus
}
#endif

#endif
