/* Instruction kinds whose FLOPs or bytes VEX's translation hides (compiled with -mavx2 -mfma).
 * usage: insn_kinds N
 * Each case runs N times inside a client-request region of its name
 * (include/roofline/roofline_vg_requests.h); check_vgtool.py holds what each must count.
 *   gather_dpd_4of4, _3of4, _0of4   vgatherdpd ymm, mask selecting 4, 3, 0 of 4 lanes:
 *                                   8 bytes loaded a selected lane (VEX loads a left-out
 *                                   lane from the stack pointer instead, a load the
 *                                   hardware does not make)
 *   gather_dps_5of8                 vgatherdps ymm, 5 of 8 lanes: 20 bytes
 *   gather_qq_1of2                  vpgatherqq xmm, 1 of 2 lanes: 8 bytes
 *   xsave_1, _2, _3, _7             xsave with RFBM 1 (x87), 2 (SSE), 3, 7 (x87, SSE, AVX):
 *                                   x87 state 152 bytes (bytes 0-23 and 32-159), MXCSR and
 *                                   its mask 8 (with SSE or AVX), XMM 256, YMM upper halves 256
 *   xrstor_2, _3                    the same, loaded
 *   fxsave, fxrstor                 x87 152 + MXCSR 8 + XMM 256 = 416 bytes
 *   ldmxcsr, stmxcsr                4 bytes loaded, stored
 *   fmaddsub_pd_ymm                 vfmaddsub231pd ymm: f64 fma 8 FLOPs (256-bit)
 *   fnmadd_pd_ymm                   vfnmadd231pd ymm: f64 fma 8
 *   fmsubadd_ps_ymm                 vfmsubadd231ps ymm: f32 fma 16
 *   x87_fadd80, _fmul80, _fdiv80    long double add, mul, div from and to memory: f64 (VEX
 *                                   computes x87 in double) 1 FLOP, 20 bytes loaded, 10 stored
 *   x87_fsin                        fsin: not counted (a transcendental, VEX's helper)
 *   cmppd_ymm, ucomisd              compares: not counted
 *   rcpps_ymm, rsqrtps_xmm          reciprocal estimates: not counted
 *   rep_movsb_1m, rep_stosb_1m      rep movsb / rep stosb of 1 MiB, 4 times each (not N):
 *                                   1 MiB loaded and stored, 1 MiB stored; one instruction
 *                                   each time (VEX runs an element per pass)
 *   repe_cmpsb_equal                repe cmpsb of two equal 4096-byte buffers, 4 times: 8192
 *                                   bytes loaded, ended by the count
 *   repe_cmpsb_differ               ... differing at the 1000th byte: 2000 bytes, ended by
 *                                   the condition
 *   repne_scasb                     repne scasb for the zero at the 1000th byte: 1000 bytes
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "roofline/roofline_vg_requests.h"

#define BEGIN(NAME) VALGRIND_DO_CLIENT_REQUEST_STMT(ROOFLINE_VG_REGION_BEGIN, NAME, 0, 0, 0, 0)
#define END(NAME) VALGRIND_DO_CLIENT_REQUEST_STMT(ROOFLINE_VG_REGION_END, NAME, 0, 0, 0, 0)

double buf[16] __attribute__((aligned(64)));
float fbuf[16] __attribute__((aligned(64)));
int idx32[8] __attribute__((aligned(32))) = {0, 2, 4, 6, 8, 10, 12, 14};
long long idx64[2] __attribute__((aligned(16))) = {1, 3};

#define CASE(NAME, ASM, ...)                                                                   \
    __attribute__((noinline)) static void case_##NAME(long n)                                 \
    {                                                                                          \
        BEGIN(#NAME);                                                                          \
        for (long i = 0; i < n; i++)                                                           \
            __asm__ volatile(ASM ::: "xmm0", "xmm1", "xmm2", "memory", "cc", ##__VA_ARGS__);   \
        END(#NAME);                                                                            \
    }

CASE(ldmxcsr, "ldmxcsr buf(%%rip)")
CASE(stmxcsr, "stmxcsr buf+8(%%rip)")
CASE(fmaddsub_pd_ymm, "vfmaddsub231pd %%ymm1, %%ymm2, %%ymm0")
CASE(fnmadd_pd_ymm, "vfnmadd231pd %%ymm1, %%ymm2, %%ymm0")
CASE(fmsubadd_ps_ymm, "vfmsubadd231ps %%ymm1, %%ymm2, %%ymm0")
CASE(x87_fadd80, "fldt buf(%%rip)\n\tfldt buf+16(%%rip)\n\tfaddp\n\tfstpt buf+32(%%rip)", "st")
CASE(x87_fmul80, "fldt buf(%%rip)\n\tfldt buf+16(%%rip)\n\tfmulp\n\tfstpt buf+32(%%rip)", "st")
CASE(x87_fdiv80, "fldt buf(%%rip)\n\tfldt buf+16(%%rip)\n\tfdivrp\n\tfstpt buf+32(%%rip)", "st")
CASE(x87_fsin, "fld1\n\tfsin\n\tfstp %%st(0)", "st")
CASE(cmppd_ymm, "vcmppd $1, %%ymm1, %%ymm2, %%ymm0")
CASE(ucomisd, "vucomisd %%xmm1, %%xmm2")
CASE(rcpps_ymm, "vrcpps %%ymm1, %%ymm0")
CASE(rsqrtps_xmm, "rsqrtps %%xmm1, %%xmm0")

/* The loop in the asm: the mask (which a gather clears) is copied from a register each
 * time, so the only loads an iteration makes are the gather's. */
static const long long mask_dpd[3][4] __attribute__((aligned(32))) = {
    {-1, -1, -1, -1}, {-1, -1, -1, 0}, {0, 0, 0, 0}};
static const int mask_dps[8] __attribute__((aligned(32))) = {-1, 0, -1, 0, -1, 0, -1, -1};
static const long long mask_qq[2] __attribute__((aligned(16))) = {0, -1};

__attribute__((noinline)) static void case_gather_dpd(const char *name, const long long *mask, long n)
{
    BEGIN(name);
    __asm__ volatile("vmovdqa (%2), %%ymm4\n\t"
                     "vmovdqa idx32(%%rip), %%xmm2\n"
                     "1:\tvmovdqa %%ymm4, %%ymm3\n\t"
                     "vgatherdpd %%ymm3, (%1,%%xmm2,8), %%ymm0\n\t"
                     "dec %0\n\t"
                     "jnz 1b"
                     : "+r"(n) : "r"(buf), "r"(mask) : "xmm0", "xmm2", "xmm3", "xmm4", "memory", "cc");
    END(name);
}

__attribute__((noinline)) static void case_gather_dps(long n)
{
    BEGIN("gather_dps_5of8");
    __asm__ volatile("vmovdqa (%2), %%ymm4\n\t"
                     "vmovdqa idx32(%%rip), %%ymm2\n"
                     "1:\tvmovdqa %%ymm4, %%ymm3\n\t"
                     "vgatherdps %%ymm3, (%1,%%ymm2,4), %%ymm0\n\t"
                     "dec %0\n\t"
                     "jnz 1b"
                     : "+r"(n) : "r"(fbuf), "r"(mask_dps) : "xmm0", "xmm2", "xmm3", "xmm4", "memory", "cc");
    END("gather_dps_5of8");
}

__attribute__((noinline)) static void case_gather_qq(long n)
{
    BEGIN("gather_qq_1of2");
    __asm__ volatile("vmovdqa (%2), %%xmm4\n\t"
                     "vmovdqa idx64(%%rip), %%xmm2\n"
                     "1:\tvmovdqa %%xmm4, %%xmm3\n\t"
                     "vpgatherqq %%xmm3, (%1,%%xmm2,8), %%xmm0\n\t"
                     "dec %0\n\t"
                     "jnz 1b"
                     : "+r"(n) : "r"(buf), "r"(mask_qq) : "xmm0", "xmm2", "xmm3", "xmm4", "memory", "cc");
    END("gather_qq_1of2");
}

static unsigned char xarea[4096] __attribute__((aligned(64)));

__attribute__((noinline)) static void case_xsave(const char *name, unsigned rfbm, long n)
{
    BEGIN(name);
    for (long i = 0; i < n; i++) __asm__ volatile("xsave %0" : "+m"(xarea) : "a"(rfbm), "d"(0) : "memory");
    END(name);
}

/* xrstor of what xsave 7 saved: registers get back the values they had */
__attribute__((noinline)) static void case_xrstor(const char *name, unsigned rfbm, long n)
{
    BEGIN(name);
    for (long i = 0; i < n; i++)
        __asm__ volatile("xrstor %0" ::"m"(xarea), "a"(rfbm), "d"(0)
                         : "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
                           "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
    END(name);
}

__attribute__((noinline)) static void case_fxsave(long n)
{
    BEGIN("fxsave");
    for (long i = 0; i < n; i++) __asm__ volatile("fxsave %0" : "=m"(xarea) :: "memory");
    END("fxsave");
    BEGIN("fxrstor");
    for (long i = 0; i < n; i++)
        __asm__ volatile("fxrstor %0" ::"m"(xarea)
                         : "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
                           "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
    END("fxrstor");
}

#define MIB (1L << 20)

__attribute__((noinline)) static void case_rep(char *dst, const char *src, long times)
{
    BEGIN("rep_movsb_1m");
    for (long i = 0; i < times; i++) {
        void *d = dst;
        const void *s = src;
        long c = MIB;
        __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(c) :: "memory");
    }
    END("rep_movsb_1m");
    BEGIN("rep_stosb_1m");
    for (long i = 0; i < times; i++) {
        void *d = dst;
        long c = MIB;
        __asm__ volatile("rep stosb" : "+D"(d), "+c"(c) : "a"(i) : "memory");
    }
    END("rep_stosb_1m");
}

/* repe cmpsb of len bytes of a and b, 4 times: the bytes compared */
__attribute__((noinline)) static long case_cmps(const char *name, const char *a, const char *b, long len)
{
    long done = 0;
    BEGIN(name);
    for (int i = 0; i < 4; i++) {
        const void *s = a, *d = b;
        long c = len;
        __asm__ volatile("repe cmpsb" : "+S"(s), "+D"(d), "+c"(c) :: "memory", "cc");
        done += len - c;
    }
    END(name);
    return done;
}

__attribute__((noinline)) static long case_scas(const char *a, long len)
{
    long done = 0;
    BEGIN("repne_scasb");
    for (int i = 0; i < 4; i++) {
        const void *d = a;
        long c = len;
        __asm__ volatile("repne scasb" : "+D"(d), "+c"(c) : "a"(0) : "memory", "cc");
        done += len - c;
    }
    END("repne_scasb");
    return done;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s N\n", argv[0]); return 2; }
    const long n = atol(argv[1]);
    if (n < 1) { fprintf(stderr, "N must be at least 1\n"); return 2; }
    /* the operands' values do not matter (FP exceptions are masked); MXCSR's default in buf[0] */
    for (int i = 0; i < 16; i++) buf[i] = 1.0 + i, fbuf[i] = 1.0f + i;
    const unsigned mxcsr = 0x1f80;
    memcpy(buf, &mxcsr, sizeof mxcsr);
    case_ldmxcsr(n);
    case_stmxcsr(n);
    case_fmaddsub_pd_ymm(n);
    case_fnmadd_pd_ymm(n);
    case_fmsubadd_ps_ymm(n);
    case_x87_fadd80(n);
    case_x87_fmul80(n);
    case_x87_fdiv80(n);
    case_x87_fsin(n);
    case_cmppd_ymm(n);
    case_ucomisd(n);
    case_rcpps_ymm(n);
    case_rsqrtps_xmm(n);
    case_gather_dpd("gather_dpd_4of4", mask_dpd[0], n);
    case_gather_dpd("gather_dpd_3of4", mask_dpd[1], n);
    case_gather_dpd("gather_dpd_0of4", mask_dpd[2], n);
    case_gather_dps(n);
    case_gather_qq(n);
    case_xsave("xsave_1", 1, n);
    case_xsave("xsave_2", 2, n);
    case_xsave("xsave_3", 3, n);
    case_xsave("xsave_7", 7, n);
    case_xrstor("xrstor_2", 2, n);
    case_xrstor("xrstor_3", 3, n);
    case_fxsave(n);
    char *src = malloc(MIB), *dst = malloc(MIB);
    if (!src || !dst) { fprintf(stderr, "out of memory\n"); return 1; }
    memset(src, 1, MIB);
    case_rep(dst, src, 4);
    /* the counts of elements the string ops went through, checked here: 4 times 4096, 1000, 1000 */
    memset(dst, 1, 4096);
    const long equal = case_cmps("repe_cmpsb_equal", src, dst, 4096);
    dst[999] = 2;
    const long differ = case_cmps("repe_cmpsb_differ", src, dst, 4096);
    src[999] = 0;
    const long scanned = case_scas(src, 4096);
    if (equal != 4 * 4096 || differ != 4 * 1000 || scanned != 4 * 1000) {
        fprintf(stderr, "string ops went through %ld, %ld, %ld bytes\n", equal, differ, scanned);
        return 1;
    }
    printf("%g %d\n", buf[4], dst[MIB - 1]);
    free(src);
    free(dst);
    return 0;
}
