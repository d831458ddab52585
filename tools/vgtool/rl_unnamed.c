/* See rl_unnamed.h.  No library calls: the Valgrind tool has no C library. */
#include "rl_unnamed.h"

static rl_u64 le(const unsigned char *b, int n)
{
    rl_u64 v = 0;
    for (int i = n - 1; i >= 0; i--) v = (v << 8) | b[i];
    return v;
}

static long long sle32(const unsigned char *b) { return (long long)(int)(unsigned)le(b, 4); }

/* Where a file's unwind table is: the address of .eh_frame_hdr, its entries, and the PT_LOAD
 * segments that turn addresses into file offsets. */
#define RL_MAX_LOADS 16
typedef struct {
    RlReadAt read;
    void *ctx;
    rl_u64 hdr;  /* link-time address of .eh_frame_hdr */
    rl_u64 count;
    int loads;
    rl_u64 off[RL_MAX_LOADS], vaddr[RL_MAX_LOADS], filesz[RL_MAX_LOADS];
} Table;

/* Whether the n bytes at link-time address `at` lie in one PT_LOAD segment's file bytes (no sum
 * that a hostile file's numbers could overflow). */
static int segment_of(const Table *t, rl_u64 at, rl_u64 n)
{
    for (int i = 0; i < t->loads; i++)
        if (at >= t->vaddr[i] && n <= t->filesz[i] && at - t->vaddr[i] <= t->filesz[i] - n) return i;
    return -1;
}

/* n bytes at link-time address `at` into buf; 0 when not all are in the file. */
static int read_vaddr(const Table *t, rl_u64 at, unsigned char *buf, unsigned long n)
{
    const int i = segment_of(t, at, n);
    return i >= 0 && t->read(t->ctx, t->off[i] + (at - t->vaddr[i]), buf, n) == n;
}

static int find_table(RlReadAt read, void *ctx, Table *t)
{
    unsigned char eh[64];
    t->read = read;
    t->ctx = ctx;
    t->hdr = 0;
    t->count = 0;
    t->loads = 0;
    /* 64-bit little-endian ELF */
    if (read(ctx, 0, eh, 64) != 64 || eh[0] != 0x7f || eh[1] != 'E' || eh[2] != 'L' || eh[3] != 'F' ||
        eh[4] != 2 || eh[5] != 1)
        return 0;
    const rl_u64 phoff = le(eh + 0x20, 8);
    const unsigned phentsize = (unsigned)le(eh + 0x36, 2), phnum = (unsigned)le(eh + 0x38, 2);
    if (phentsize < 56) return 0;
    for (unsigned i = 0; i < phnum; i++) {
        unsigned char ph[56];
        if (read(ctx, phoff + (rl_u64)i * phentsize, ph, 56) != 56) return 0;
        const unsigned type = (unsigned)le(ph, 4);
        if (type == 1 && t->loads < RL_MAX_LOADS) { /* PT_LOAD */
            t->off[t->loads] = le(ph + 8, 8);
            t->vaddr[t->loads] = le(ph + 16, 8);
            t->filesz[t->loads] = le(ph + 32, 8);
            t->loads++;
        } else if (type == 0x6474e550u) { /* PT_GNU_EH_FRAME */
            t->hdr = le(ph + 16, 8);
        }
    }
    if (t->hdr == 0) return 0;
    /* version 1; eh_frame_ptr pcrel|sdata4 (0x1b); fde_count udata4 (0x03); table datarel|sdata4 (0x3b) */
    unsigned char head[12];
    if (!read_vaddr(t, t->hdr, head, 12) || head[0] != 1 || head[1] != 0x1b || head[2] != 0x03 || head[3] != 0x3b)
        return 0;
    /* The count is the file's word: callers allocate that many entries, so a damaged or hostile
     * one (0xfffffff0: 64 GiB) is no table unless its 12 + 8 * count bytes lie in the segment
     * holding the header and the file holds them (its last entry read). */
    const rl_u64 count = le(head + 8, 4);
    unsigned char last[8];
    if (count == 0 || count > (~(rl_u64)0 - 12) / 8 || segment_of(t, t->hdr, 12 + 8 * count) < 0 ||
        !read_vaddr(t, t->hdr + 12 + 8 * (count - 1), last, 8))
        return 0;
    t->count = count;
    return 1;
}

unsigned long rl_unwind_count(RlReadAt read, void *ctx)
{
    Table t;
    return find_table(read, ctx, &t) ? (unsigned long)t.count : 0;
}

unsigned long rl_unwind_functions(RlReadAt read, void *ctx, RlCodeRange *out, unsigned long cap)
{
    Table t;
    if (!find_table(read, ctx, &t)) return 0;
    unsigned long n = 0;
    for (rl_u64 e = 0; e < t.count && n < cap; e++) {
        unsigned char row[8], fde[16];
        if (!read_vaddr(&t, t.hdr + 12 + 8 * e, row, 8)) break;
        const rl_u64 start = t.hdr + (rl_u64)sle32(row), at = t.hdr + (rl_u64)sle32(row + 4);
        /* The FDE: length, CIE pointer, pc_begin (pcrel|sdata4, as the table's is), pc_range. */
        if (!read_vaddr(&t, at, fde, 16) || le(fde, 4) == 0xffffffffu) continue;
        if (at + 8 + (rl_u64)sle32(fde + 8) != start) continue;
        const rl_u64 size = le(fde + 12, 4);
        if (size == 0) continue;
        out[n].start = start;
        out[n].size = size;
        n++;
    }
    return n;
}

const RlCodeRange *rl_range_at(const RlCodeRange *ranges, unsigned long n, rl_u64 at)
{
    unsigned long lo = 0, hi = n; /* the first range starting after `at` */
    while (lo < hi) {
        const unsigned long mid = lo + (hi - lo) / 2;
        if (ranges[mid].start <= at) lo = mid + 1;
        else hi = mid;
    }
    return lo > 0 && at < ranges[lo - 1].start + ranges[lo - 1].size ? &ranges[lo - 1] : 0;
}

void rl_unnamed_code_name(char *out, int cap, const char *path, rl_u64 start, int has_start)
{
    if (cap <= 0) return;
    const char *base = path;
    for (const char *p = path; *p; p++)
        if (*p == '/') base = p + 1;
    /* "[vdso]" as it is */
    if (path[0] == '[') base = path;
    int n = 0;
#define PUT(c) do { if (n < cap - 1) out[n++] = (c); } while (0)
    for (const char *p = "(no symbol: "; *p; p++) PUT(*p);
    /* room kept for "+0x" and 16 digits and ")" */
    for (const char *p = base; *p && n < cap - 1 - 21; p++) PUT(*p);
    if (has_start) {
        PUT('+');
        PUT('0');
        PUT('x');
        int digits = 1;
        while (digits < 16 && (start >> (4 * digits)) != 0) digits++;
        for (int d = digits - 1; d >= 0; d--) PUT("0123456789abcdef"[(start >> (4 * d)) & 0xf]);
    }
    PUT(')');
#undef PUT
    out[n] = 0;
}
