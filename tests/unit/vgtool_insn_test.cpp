// The Valgrind tool's instruction facts (tools/vgtool/rl_insn.c), on bytes GNU as
// produced for each instruction (objdump -d).
#include "rl_insn.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

bool nt(std::vector<unsigned char> bytes) { return rl_is_nontemporal_store(bytes.data(), static_cast<int>(bytes.size())) != 0; }

int vex_bits(std::vector<unsigned char> bytes) {
    return rl_vex_vector_bits(bytes.data(), static_cast<int>(bytes.size()));
}

TEST(VgtoolInsn, VexVectorLengthFromTheLBit) {
    // VEX computes a ymm VHADDPD as two 128-bit adds: the tool takes the width from here.
    EXPECT_EQ(vex_bits({0xc5, 0xed, 0x7c, 0xd4}), 256);        // vhaddpd %ymm4,%ymm2,%ymm2
    EXPECT_EQ(vex_bits({0xc5, 0xe1, 0x7c, 0xdd}), 128);        // vhaddpd %xmm5,%xmm3,%xmm3
    EXPECT_EQ(vex_bits({0xc4, 0x41, 0x37, 0x7c, 0xd0}), 256);  // vhaddps %ymm8,%ymm9,%ymm10
    EXPECT_EQ(vex_bits({0xc4, 0xc1, 0x1d, 0x7d, 0x09}), 256);  // vhsubpd (%r9),%ymm12,%ymm1
    EXPECT_EQ(vex_bits({0x64, 0xc5, 0xed, 0x7c, 0x10}), 256);  // vhaddpd %fs:(%rax),%ymm2,%ymm2
    EXPECT_EQ(vex_bits({0xc5, 0xeb, 0x58, 0xd9}), 128);        // vaddsd %xmm1,%xmm2,%xmm3
    EXPECT_EQ(vex_bits({0x66, 0x0f, 0x58, 0xc1}), 0);          // addpd %xmm1,%xmm0 (no VEX)
    EXPECT_EQ(vex_bits({0x62, 0xf1, 0x7d, 0x48, 0xe7, 0x07}), 0);  // EVEX: not VEX
    EXPECT_EQ(vex_bits({0xc4, 0xe2}), 0);                      // cut short
}

int dot(std::vector<unsigned char> bytes) { return rl_dot_product(bytes.data(), static_cast<int>(bytes.size())); }

TEST(VgtoolInsn, DotProductsInEveryEncoding) {
    EXPECT_EQ(dot({0xc4, 0xe3, 0x75, 0x40, 0xcd, 0xff}), 2);        // vdpps $0xff,%ymm5,%ymm1,%ymm1
    EXPECT_EQ(dot({0xc4, 0xe3, 0x79, 0x40, 0xc4, 0x71}), 2);        // vdpps $0x71,%xmm4,%xmm0,%xmm0
    EXPECT_EQ(dot({0xc4, 0xe3, 0x69, 0x41, 0xd3, 0x31}), 1);        // vdppd $0x31,%xmm3,%xmm2,%xmm2
    EXPECT_EQ(dot({0x66, 0x0f, 0x3a, 0x40, 0xc1, 0xff}), 2);        // dpps $0xff,%xmm1,%xmm0
    EXPECT_EQ(dot({0x66, 0x0f, 0x3a, 0x41, 0xc1, 0x31}), 1);        // dppd $0x31,%xmm1,%xmm0
    EXPECT_EQ(dot({0x66, 0x44, 0x0f, 0x3a, 0x40, 0xc0, 0xff}), 2);  // dpps $0xff,%xmm0,%xmm8
    EXPECT_EQ(dot({0x66, 0x0f, 0x3a, 0x0c, 0xc1, 0x01}), 0);        // blendps: same map, another opcode
    EXPECT_EQ(dot({0x0f, 0x3a, 0x40, 0xc1, 0xff}), 0);              // no 66 prefix: not DPPS
    EXPECT_EQ(dot({0xc4, 0xe2, 0x79, 0x40, 0xc1}), 0);              // vpmulld: opcode 40 of the 0F38 map
    EXPECT_EQ(dot({0x66, 0x0f, 0x3a}), 0);                          // cut short
    EXPECT_EQ(dot({}), 0);
}

TEST(VgtoolInsn, NonTemporalStoresAreRecognised) {
    EXPECT_TRUE(nt({0x66, 0x0f, 0xe7, 0x07}));                    // movntdq %xmm0,(%rdi)
    EXPECT_TRUE(nt({0xc5, 0xfd, 0xe7, 0x07}));                    // vmovntdq %ymm0,(%rdi)
    EXPECT_TRUE(nt({0x48, 0x0f, 0xc3, 0x07}));                    // movnti %rax,(%rdi)
    EXPECT_TRUE(nt({0x0f, 0xc3, 0x07}));                          // movnti %eax,(%rdi)
    EXPECT_TRUE(nt({0x0f, 0x2b, 0x07}));                          // movntps %xmm0,(%rdi)
    EXPECT_TRUE(nt({0x66, 0x0f, 0x2b, 0x4c, 0xc7, 0x10}));        // movntpd %xmm1,0x10(%rdi,%rax,8)
    EXPECT_TRUE(nt({0xc5, 0xfd, 0x2b, 0x07}));                    // vmovntpd %ymm0,(%rdi)
    EXPECT_TRUE(nt({0xc4, 0x41, 0x7d, 0xe7, 0x01}));              // vmovntdq %ymm8,(%r9)
    EXPECT_TRUE(nt({0xc5, 0x78, 0x2b, 0x3f}));                    // vmovntps %xmm15,(%rdi)
    EXPECT_TRUE(nt({0x0f, 0xe7, 0x07}));                          // movntq %mm0,(%rdi)
    EXPECT_TRUE(nt({0xf2, 0x0f, 0x2b, 0x07}));                    // movntsd %xmm0,(%rdi)
    EXPECT_TRUE(nt({0x66, 0x0f, 0xf7, 0xc1}));                    // maskmovdqu %xmm1,%xmm0
    EXPECT_TRUE(nt({0x64, 0x66, 0x0f, 0xe7, 0x07}));              // movntdq %xmm0,%fs:(%rdi)
    EXPECT_TRUE(nt({0x62, 0xf1, 0x7d, 0x48, 0xe7, 0x07}));        // vmovntdq %zmm0,(%rdi)
}

TEST(VgtoolInsn, OrdinaryStoresAndNonTemporalLoadsAreNot) {
    EXPECT_FALSE(nt({0x66, 0x0f, 0x38, 0x2a, 0x07}));             // movntdqa (%rdi),%xmm0: a load
    EXPECT_FALSE(nt({0x0f, 0x29, 0x07}));                         // movaps %xmm0,(%rdi)
    EXPECT_FALSE(nt({0xc5, 0xfd, 0x7f, 0x07}));                   // vmovdqa %ymm0,(%rdi)
    EXPECT_FALSE(nt({0x48, 0x89, 0x07}));                         // mov %rax,(%rdi)
    EXPECT_FALSE(nt({0xc4, 0x41, 0x7c, 0x11, 0x01}));             // vmovups %ymm8,(%r9)
    EXPECT_FALSE(nt({0x0f}));                                     // cut short
    EXPECT_FALSE(nt({0x66, 0x66, 0x66}));                         // prefixes only
    EXPECT_FALSE(nt({}));
}

bool rep(std::vector<unsigned char> bytes) { return rl_rep_string_op(bytes.data(), static_cast<int>(bytes.size())) != 0; }

TEST(VgtoolInsn, RepStringOpsAreRecognised) {
    // VEX runs one element a pass: the tool counts such an instruction once an execution.
    EXPECT_TRUE(rep({0xf3, 0xa4}));               // rep movsb
    EXPECT_TRUE(rep({0xf3, 0x48, 0xab}));         // rep stos %rax
    EXPECT_TRUE(rep({0xf2, 0xae}));               // repnz scas %al
    EXPECT_TRUE(rep({0xf3, 0xa6}));               // repz cmpsb
    EXPECT_TRUE(rep({0xf3, 0x48, 0xa5}));         // rep movsq
    EXPECT_TRUE(rep({0x66, 0xf3, 0xa5}));         // rep movsw
    EXPECT_TRUE(rep({0x67, 0xf3, 0xa5}));         // rep movsl with 32-bit addresses
    EXPECT_TRUE(rep({0xf3, 0xac}));               // rep lods %al
    EXPECT_FALSE(rep({0xa4}));                    // movsb: one element, no prefix
    EXPECT_FALSE(rep({0xf3, 0xc3}));              // repz ret
    EXPECT_FALSE(rep({0xf3, 0x0f, 0xb8, 0xc0}));  // popcnt: F3 as a mandatory prefix
    EXPECT_FALSE(rep({0xf3, 0x90}));              // pause
    EXPECT_FALSE(rep({0xf3, 0x0f, 0x1e, 0xfa}));  // endbr64
    EXPECT_FALSE(rep({0xf3}));                    // cut short
    EXPECT_FALSE(rep({}));
}

bool x87(std::vector<unsigned char> bytes) { return rl_is_x87(bytes.data(), static_cast<int>(bytes.size())) != 0; }

TEST(VgtoolInsn, X87InstructionsAreRecognised) {
    // Their FLOPs are counted as f64 and apart (flops_x87), for measure's note on long double.
    EXPECT_TRUE(x87({0xdc, 0xc1}));                // fadd %st,%st(1)
    EXPECT_TRUE(x87({0xde, 0xc9}));                // fmulp
    EXPECT_TRUE(x87({0xd9, 0xfa}));                // fsqrt
    EXPECT_TRUE(x87({0xdb, 0x2f}));                // fldt (%rdi)
    EXPECT_TRUE(x87({0x41, 0xdb, 0x28}));          // fldt (%r8): REX
    EXPECT_TRUE(x87({0x66, 0xd8, 0x07}));          // fadds (%rdi) behind a prefix
    EXPECT_FALSE(x87({0xf2, 0x0f, 0x58, 0xc1}));   // addsd %xmm1,%xmm0
    EXPECT_FALSE(x87({0xc5, 0xfb, 0x58, 0xc1}));   // vaddsd
    EXPECT_FALSE(x87({0x48, 0x89, 0x07}));         // mov %rax,(%rdi)
    EXPECT_FALSE(x87({0x66, 0x66}));               // prefixes only
    EXPECT_FALSE(x87({}));
}

} // namespace
