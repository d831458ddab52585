/* Function-name matching for --roofline-function (see rl_fnmatch.h). */
#include "rl_fnmatch.h"

static int len_of(const char *s)
{
    int n = 0;
    while (s[n]) n++;
    return n;
}

static int starts_with(const char *s, const char *prefix)
{
    while (*prefix)
        if (*s++ != *prefix++) return 0;
    return 1;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* GCC's names for the copies it makes of a function (ipa-cp, ipa-sra,
 * partial inlining, hot/cold splitting, LTO privatisation). */
static const char *const clone_kinds[] = {"constprop", "isra", "part", "cold", "lto_priv",
                                          "localalias", "specialized", 0};

/* Length of a ".kind[.N]" clone suffix at s, or 0. */
static int clone_suffix_len(const char *s)
{
    if (s[0] != '.') return 0;
    for (int k = 0; clone_kinds[k]; k++) {
        if (!starts_with(s + 1, clone_kinds[k])) continue;
        int n = 1 + len_of(clone_kinds[k]);
        if (s[n] == '.' && is_digit(s[n + 1])) {
            n++;
            while (is_digit(s[n])) n++;
        }
        if (s[n] == 0 || s[n] == '.' || s[n] == ' ' || s[n] == ']') return n;
    }
    return 0;
}

void rl_fold_clones(const char *s, char *out, int cap)
{
    int o = 0;
    while (*s && o < cap - 1) {
        if (starts_with(s, " [clone ")) { /* demangled C++: " [clone .constprop.0]" */
            while (*s && *s != ']') s++;
            if (*s) s++;
            continue;
        }
        int n = clone_suffix_len(s);
        if (n) {
            s += n;
            continue;
        }
        out[o++] = *s++;
    }
    out[o] = 0;
}

int rl_is_cold_part(const char *s)
{
    for (; *s; s++)
        if (starts_with(s, ".cold") && (s[5] == 0 || s[5] == '.' || s[5] == ']' || s[5] == ' ')) return 1;
    return 0;
}

/* Index where the parameter list of a folded name starts (its length if it
 * has none): the '(' matching the last ')', after trailing qualifiers. */
static int params_start(const char *s)
{
    int end = len_of(s);
    for (;;) {
        while (end > 0 && s[end - 1] == ' ') end--;
        if (end >= 6 && starts_with(s + end - 6, " const")) { end -= 6; continue; }
        if (end >= 9 && starts_with(s + end - 9, " volatile")) { end -= 9; continue; }
        if (end >= 9 && starts_with(s + end - 9, " noexcept")) { end -= 9; continue; }
        if (end >= 1 && s[end - 1] == '&') { end--; continue; }
        break;
    }
    if (end == 0 || s[end - 1] != ')') return len_of(s);
    int depth = 0;
    for (int i = end - 1; i >= 0; i--) {
        if (s[i] == ')') depth++;
        else if (s[i] == '(' && --depth == 0)
            return i >= 8 && starts_with(s + i - 8, "operator") ? len_of(s) : i; /* "operator()" */
    }
    return len_of(s);
}

/* Index where the qualified name starts in s[0, end): after a return type
 * ("void ns::f<int>" -> "ns::f<int>"); spaces inside <>, () and after
 * "operator" do not separate. */
static int name_start(const char *s, int end)
{
    int depth = 0, start = 0;
    for (int i = 0; i < end; i++) {
        char c = s[i];
        if (c == '<' || c == '(') depth++;
        else if ((c == '>' || c == ')') && depth > 0) depth--;
        else if (c == ' ' && depth == 0 && !(i >= 8 && starts_with(s + i - 8, "operator"))) start = i + 1;
    }
    return start;
}

/* The comparable form of a name: clones folded, return type dropped, the
 * parameter list kept or dropped, spaces removed. */
static void normal_form(const char *name, int keep_params, char *out)
{
    char folded[RL_NAME_MAX];
    rl_fold_clones(name, folded, RL_NAME_MAX);
    const int p = params_start(folded);
    const int from = name_start(folded, p);
    const int to = keep_params ? len_of(folded) : p;
    int o = 0;
    for (int i = from; i < to; i++)
        if (folded[i] != ' ') out[o++] = folded[i];
    out[o] = 0;
}

static void without_templates(const char *s, char *out)
{
    int depth = 0, o = 0;
    for (; *s; s++) {
        if (*s == '<') depth++;
        else if (*s == '>' && depth > 0) depth--;
        else if (depth == 0) out[o++] = *s;
    }
    out[o] = 0;
}

static int equal(const char *a, const char *b)
{
    while (*a && *a == *b) a++, b++;
    return *a == *b;
}

/* name == pattern, or name ends with "::" + pattern */
static int names_agree(const char *name, const char *pattern)
{
    if (equal(name, pattern)) return 1;
    const int n = len_of(name), p = len_of(pattern);
    return n > p + 1 && name[n - p - 1] == ':' && name[n - p - 2] == ':' && equal(name + n - p, pattern);
}

/* s without trailing ".N" groups (digits only), in place: GCC numbers nested C functions and
 * gfortran's contained procedures so ("daxpy.2", "mm.0"), and the number is not part of the
 * name a user writes. Not ".name.N" ("triad._omp_fn.0" is a function of its own). */
static void without_nesting_number(char *s)
{
    for (;;) {
        int end = len_of(s), i = end;
        while (i > 0 && is_digit(s[i - 1])) i--;
        if (i == end || i < 2 || s[i - 1] != '.') return;
        const char c = s[i - 2];
        if (!(is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')) return;
        s[i - 1] = 0;
    }
}

/* gfortran names a module procedure "__MODULE_MOD_NAME" (a submodule's "__MODULE.SUB_MOD_NAME"):
 * rewritten in place as "MODULE::NAME", so "NAME" and "MODULE::NAME" match it as they match a C++
 * member; 0 when s has not that shape. The procedure's name is what a user writes; the symbol is
 * gfortran's mangling (a module sweep was not found by --region-function sweep). */
static int fortran_module_form(char *s)
{
    if (s[0] != '_' || s[1] != '_') return 0;
    int i = 2;
    while (s[i] && !(starts_with(s + i, "_MOD_") && i > 2)) {
        const char c = s[i];
        if (!(is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.')) return 0;
        i++;
    }
    if (!s[i] || !s[i + 5]) return 0;
    char name[RL_NAME_MAX];
    int o = 0;
    for (int k = 2; k < i; k++) name[o++] = s[k];
    name[o++] = ':';
    name[o++] = ':';
    for (int k = i + 5; s[k]; k++) name[o++] = s[k];
    name[o] = 0;
    for (int k = 0; k <= o; k++) s[k] = name[k];
    return 1;
}

int rl_name_matches(const char *pattern, const char *symbol)
{
    if (len_of(pattern) >= RL_NAME_MAX || len_of(symbol) >= RL_NAME_MAX || !*pattern) return 0;
    char folded[RL_NAME_MAX];
    rl_fold_clones(pattern, folded, RL_NAME_MAX);
    const int keep_params = params_start(folded) < len_of(folded);
    char p[RL_NAME_MAX], s[RL_NAME_MAX];
    normal_form(pattern, keep_params, p);
    normal_form(symbol, keep_params, s);
    if (names_agree(s, p)) return 1;
    without_nesting_number(s);  /* "daxpy" names "daxpy.2" (a pattern "daxpy.2" matched above) */
    if (names_agree(s, p)) return 1;
    if (fortran_module_form(s) && names_agree(s, p)) return 1;
    for (const char *c = p; *c; c++)
        if (*c == '<') return 0;
    char bare[RL_NAME_MAX];
    without_templates(s, bare);
    return names_agree(bare, p);
}
