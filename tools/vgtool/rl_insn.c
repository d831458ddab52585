/* Instruction facts VEX's IR leaves out (rl_insn.h). Encodings from the Intel SDM,
 * vol. 2 (MOVNTI 0F C3, MOVNTPS/PD 0F 2B, MOVNTDQ/MOVNTQ 0F E7, MASKMOVDQU/MASKMOVQ
 * 0F F7; VEX C5/C4 and EVEX 62 prefixes) and AMD's APM vol. 4 (MOVNTSS/SD F3/F2 0F 2B). */
#include "rl_insn.h"

static int is_legacy_prefix(unsigned char b)
{
  return b == 0x66 || b == 0x67 || b == 0xF0 || b == 0xF2 || b == 0xF3 || b == 0x2E || b == 0x36 ||
         b == 0x3E || b == 0x26 || b == 0x64 || b == 0x65;
}

/* Opcodes of the 0F map that store non-temporally. */
static int is_nt_store_opcode(unsigned char op) { return op == 0x2B || op == 0xE7 || op == 0xC3 || op == 0xF7; }

int rl_is_nontemporal_store(const unsigned char *code, int len)
{
  int i = 0;
  if (len > 15) len = 15;
  while (i < len && is_legacy_prefix(code[i])) ++i;
  if (i < len && code[i] >= 0x40 && code[i] <= 0x4F) ++i; /* REX */
  if (i >= len) return 0;
  switch (code[i]) {
  case 0x0F: /* legacy 0F map */
    return i + 1 < len && is_nt_store_opcode(code[i + 1]);
  case 0xC5: /* 2-byte VEX: the 0F map is implied; MOVNTI has no VEX form */
    return i + 2 < len && code[i + 2] != 0xC3 && is_nt_store_opcode(code[i + 2]);
  case 0xC4: /* 3-byte VEX: map in the low 5 bits of the second byte */
    return i + 3 < len && (code[i + 1] & 0x1F) == 1 && code[i + 3] != 0xC3 && code[i + 3] != 0xF7 &&
           is_nt_store_opcode(code[i + 3]);
  case 0x62: /* EVEX: map in the low bits of the first payload byte */
    return i + 4 < len && (code[i + 1] & 0x07) == 1 && (code[i + 4] == 0x2B || code[i + 4] == 0xE7);
  default:
    return 0;
  }
}

int rl_dot_product(const unsigned char *code, int len)
{
  int i = 0, has_66 = 0;
  if (len > 15) len = 15;
  while (i < len && is_legacy_prefix(code[i])) has_66 |= code[i++] == 0x66;
  if (i >= len) return 0;
  if (code[i] == 0xC4) { /* 3-byte VEX: map 3 (0F3A), pp 01 (66) */
    if (i + 3 >= len || (code[i + 1] & 0x1F) != 3 || (code[i + 2] & 0x03) != 1) return 0;
    return code[i + 3] == 0x40 ? 2 : code[i + 3] == 0x41 ? 1 : 0;
  }
  if (i < len && code[i] >= 0x40 && code[i] <= 0x4F) ++i; /* REX */
  if (!has_66 || i + 2 >= len || code[i] != 0x0F || code[i + 1] != 0x3A) return 0;
  return code[i + 2] == 0x40 ? 2 : code[i + 2] == 0x41 ? 1 : 0;
}

int rl_vex_vector_bits(const unsigned char *code, int len)
{
  int i = 0;
  if (len > 15) len = 15;
  /* A VEX instruction takes no 66/F2/F3/F0 or REX prefix (#UD), but may follow a
   * segment or address-size prefix. */
  while (i < len && (code[i] == 0x67 || code[i] == 0x2E || code[i] == 0x36 || code[i] == 0x3E ||
                     code[i] == 0x26 || code[i] == 0x64 || code[i] == 0x65))
    ++i;
  if (i + 1 >= len) return 0;
  switch (code[i]) {
  case 0xC5: /* 2-byte VEX: R vvvv L pp */
    return (code[i + 1] & 0x04) ? 256 : 128;
  case 0xC4: /* 3-byte VEX: R X B map, W vvvv L pp */
    return i + 2 < len ? ((code[i + 2] & 0x04) ? 256 : 128) : 0;
  default:
    return 0;
  }
}

int rl_rep_string_op(const unsigned char *code, int len)
{
  int i = 0, rep = 0;
  if (len > 15) len = 15;
  for (; i < len && is_legacy_prefix(code[i]); ++i)
    if (code[i] == 0xF2 || code[i] == 0xF3) rep = 1;
  if (i < len && code[i] >= 0x40 && code[i] <= 0x4F) ++i; /* REX */
  if (!rep || i >= len) return 0;
  /* MOVS A4/A5, CMPS A6/A7, STOS AA/AB, LODS AC/AD, SCAS AE/AF */
  return (code[i] >= 0xA4 && code[i] <= 0xA7) || (code[i] >= 0xAA && code[i] <= 0xAF);
}

int rl_is_x87(const unsigned char *code, int len)
{
  int i = 0;
  if (len > 15) len = 15;
  while (i < len && is_legacy_prefix(code[i])) ++i;
  if (i < len && code[i] >= 0x40 && code[i] <= 0x4F) ++i; /* REX */
  return i < len && code[i] >= 0xD8 && code[i] <= 0xDF;
}
