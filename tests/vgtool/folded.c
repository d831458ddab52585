/* Loops of FP instructions whose work VEX's IR optimiser folds away (compiled with -mavx2 -mfma).
 * usage: folded N Z
 * Each case is a loop of N iterations of inline asm inside a client-request region of its
 * name (include/roofline/roofline_vg_requests.h). The hardware executes every instruction;
 * the optimiser, left to run before the tool, unrolls such small loops and then computes a
 * repeated identical operation once (CSE) and drops one whose result is overwritten (dead
 * code). Each line: the case, its instructions, what one iteration does.
 *   divsd          vdivsd xmm                              f64 div 1 (scalar)
 *   sqrtsd         vsqrtsd xmm                             f64 sqrt 1
 *   maxss          vmaxss xmm                              f32 minmax 1
 *   maxps_ymm      vmaxps ymm                              f32 minmax 8 (256-bit)
 *   sqrtps_xmm     sqrtps xmm                              f32 sqrt 4 (128-bit)
 *   sqrtpd_ymm     vsqrtpd ymm                             f64 sqrt 4 (256-bit)
 *   sqrtpd_store   vsqrtpd ymm; vmovupd ymm -> memory      f64 sqrt 4, 32 bytes stored
 *   mul_then_div   vmulpd ymm0; vdivpd ymm0 (overwrites)   f64 mul 4 + div 4
 *   mul_dead       vmulpd ymm0; vmovapd ymm1 -> ymm0       f64 mul 4
 *   fma_dead       vfmadd231pd ymm0; vxorpd ymm0           f64 fma 8 FLOPs (256-bit)
 *   add_twice      vaddsd xmm0 twice, same inputs          f64 add 2
 *   x87_sqrt       fld1; fsqrt; fstp st(0)                 f64 sqrt 1 (scalar)
 *   load_dead      vmovupd memory -> ymm0, twice           64 bytes loaded
 *   xsave_sse, xsave_x87_sse
 *                  xsave with the mask (EDX:EAX) 2, then 3, read from memory: the x87 part,
 *                  152 bytes stored, only in the second (VEX declares it a helper's memory
 *                  write guarded by the mask's bit 0)
 *   and_skipped    if (z && x*y > w): the mulsd of the second test, run only when Z is nonzero
 *                                                          f64 mul Z ? 1 : 0, 4 instructions more
 *                                                          with Z nonzero
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "roofline/roofline_vg_requests.h"

double buf[8] __attribute__((aligned(32)));

#define CASE(NAME, ASM, ...)                                                                   \
    __attribute__((noinline)) static void case_##NAME(long n)                                 \
    {                                                                                          \
        VALGRIND_DO_CLIENT_REQUEST_STMT(ROOFLINE_VG_REGION_BEGIN, #NAME, 0, 0, 0, 0);          \
        for (long i = 0; i < n; i++) __asm__ volatile(ASM ::: "xmm0", "xmm1", "xmm2", "memory", ##__VA_ARGS__); \
        VALGRIND_DO_CLIENT_REQUEST_STMT(ROOFLINE_VG_REGION_END, #NAME, 0, 0, 0, 0);            \
    }

CASE(divsd, "vdivsd %%xmm1, %%xmm2, %%xmm0")
CASE(sqrtsd, "vsqrtsd %%xmm1, %%xmm2, %%xmm0")
CASE(maxss, "vmaxss %%xmm1, %%xmm2, %%xmm0")
CASE(maxps_ymm, "vmaxps %%ymm1, %%ymm2, %%ymm0")
CASE(sqrtps_xmm, "sqrtps %%xmm1, %%xmm0")
CASE(sqrtpd_ymm, "vsqrtpd %%ymm1, %%ymm0")
CASE(sqrtpd_store, "vsqrtpd %%ymm1, %%ymm0\n\tvmovupd %%ymm0, buf(%%rip)")
CASE(mul_then_div, "vmulpd %%ymm1, %%ymm2, %%ymm0\n\tvdivpd %%ymm1, %%ymm2, %%ymm0")
CASE(mul_dead, "vmulpd %%ymm1, %%ymm2, %%ymm0\n\tvmovapd %%ymm1, %%ymm0")
CASE(fma_dead, "vfmadd231pd %%ymm1, %%ymm2, %%ymm0\n\tvxorpd %%ymm0, %%ymm0, %%ymm0")
CASE(add_twice, "vaddsd %%xmm1, %%xmm2, %%xmm0\n\tvaddsd %%xmm1, %%xmm2, %%xmm0")
CASE(x87_sqrt, "fld1\n\tfsqrt\n\tfstp %%st(0)", "st")
CASE(load_dead, "vmovupd buf(%%rip), %%ymm0\n\tvmovupd buf(%%rip), %%ymm0")

static unsigned char xsave_area[4096] __attribute__((aligned(64)));
volatile unsigned xsave_mask_sse = 2, xsave_mask_x87_sse = 3;

__attribute__((noinline)) static void case_xsave(const char *name, unsigned mask, long n)
{
    VALGRIND_DO_CLIENT_REQUEST_STMT(ROOFLINE_VG_REGION_BEGIN, name, 0, 0, 0, 0);
    for (long i = 0; i < n; i++) __asm__ volatile("xsave %0" : "+m"(xsave_area) : "a"(mask), "d"(0) : "memory");
    VALGRIND_DO_CLIENT_REQUEST_STMT(ROOFLINE_VG_REGION_END, name, 0, 0, 0, 0);
}

/* The second test of `z && x*y > w` is a block of register-only instructions that ends in a
 * branch to where the first test's other branch goes: VEX may join it to the first block
 * and run it whatever z is, keeping its register writes only when z is nonzero. With
 * x*y = 0 = w the second branch falls through: Z nonzero runs 4 more instructions an
 * iteration (mulsd, ucomisd, ja, inc). */
__attribute__((noinline)) static long case_and_skipped(long n, long z)
{
    long hits = 0;
    VALGRIND_DO_CLIENT_REQUEST_STMT(ROOFLINE_VG_REGION_BEGIN, "and_skipped", 0, 0, 0, 0);
    for (long i = 0; i < n; i++)
        __asm__ volatile("vxorpd %%xmm0, %%xmm0, %%xmm0\n\t"
                         "vxorpd %%xmm2, %%xmm2, %%xmm2\n\t"
                         "test %1, %1\n\t"
                         "jz 1f\n\t"
                         "mulsd %%xmm1, %%xmm0\n\t"
                         "ucomisd %%xmm2, %%xmm0\n\t"
                         "ja 1f\n\t"
                         "inc %0\n"
                         "1:"
                         : "+r"(hits)
                         : "r"(z)
                         : "xmm0", "xmm1", "xmm2", "cc");
    VALGRIND_DO_CLIENT_REQUEST_STMT(ROOFLINE_VG_REGION_END, "and_skipped", 0, 0, 0, 0);
    return hits;
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: %s N Z\n", argv[0]); return 2; }
    const long n = atol(argv[1]), z = atol(argv[2]);
    /* the operands' values do not matter: FP exceptions are masked */
    for (int i = 0; i < 8; i++) buf[i] = 1.0 + i;
    case_divsd(n);
    case_sqrtsd(n);
    case_maxss(n);
    case_maxps_ymm(n);
    case_sqrtps_xmm(n);
    case_sqrtpd_ymm(n);
    case_sqrtpd_store(n);
    case_mul_then_div(n);
    case_mul_dead(n);
    case_fma_dead(n);
    case_add_twice(n);
    case_x87_sqrt(n);
    case_load_dead(n);
    case_xsave("xsave_sse", xsave_mask_sse, n);
    case_xsave("xsave_x87_sse", xsave_mask_x87_sse, n);
    printf("%ld %g\n", case_and_skipped(n, z), buf[0]);
    return 0;
}
