// Function-name matching of the Valgrind tool (tools/vgtool/rl_fnmatch.c),
// compiled here as plain C: the names are as Valgrind's demangler prints them.
#include "rl_fnmatch.h"

#include <gtest/gtest.h>

#include <string>

namespace {

bool matches(const char* pattern, const char* symbol) { return rl_name_matches(pattern, symbol) != 0; }

std::string folded(const char* symbol) {
    char out[RL_NAME_MAX];
    rl_fold_clones(symbol, out, RL_NAME_MAX);
    return out;
}

TEST(VgtoolFnmatch, CFunctionsAndTheirClones) {
    EXPECT_TRUE(matches("triad", "triad"));
    EXPECT_TRUE(matches("triad", "triad.constprop.0"));
    EXPECT_TRUE(matches("triad", "triad.isra.0"));
    EXPECT_TRUE(matches("triad", "triad.part.3"));
    EXPECT_TRUE(matches("triad", "triad.constprop.0.isra.0"));
    EXPECT_TRUE(matches("triad", "triad.lto_priv.0"));
    EXPECT_TRUE(matches("triad.constprop.0", "triad"));
    EXPECT_FALSE(matches("triad", "triad2"));
    EXPECT_FALSE(matches("triad", "my_triad"));
    EXPECT_FALSE(matches("triad", "triad._omp_fn.0"));  // OpenMP body: a function of its own
    EXPECT_FALSE(matches("", "triad"));
    EXPECT_EQ(folded("kernel(double*, long) [clone .isra.0] [clone .cold]"), "kernel(double*, long)");
    EXPECT_EQ(folded("triad.constprop.0"), "triad");
    EXPECT_EQ(folded("x.cold.1"), "x");
    EXPECT_TRUE(rl_is_cold_part("triad.cold"));
    EXPECT_TRUE(rl_is_cold_part("kernel(int) [clone .cold]"));
    EXPECT_FALSE(rl_is_cold_part("triad.constprop.0"));
    EXPECT_FALSE(rl_is_cold_part("coldstart"));
}

TEST(VgtoolFnmatch, NestedAndContainedFunctionsByTheirName) {
    // gfortran's contained procedures and GCC's nested C functions: "name.N", clones after it.
    EXPECT_TRUE(matches("daxpy", "daxpy.2.constprop.0"));
    EXPECT_TRUE(matches("mm", "mm.0.constprop.0"));
    EXPECT_TRUE(matches("saxpy", "saxpy.1"));
    EXPECT_TRUE(matches("saxpy.1", "saxpy.1.constprop.0"));
    EXPECT_FALSE(matches("saxpy.0", "saxpy.1"));  // the number given picks one
    EXPECT_FALSE(matches("mm", "mmm.0"));
    EXPECT_FALSE(matches("triad", "triad._omp_fn.0"));
    EXPECT_FALSE(matches("triad._omp_fn", "triad._omp_fn.0.x"));
    // Folding keeps the number: two contained procedures of one name are two functions.
    EXPECT_EQ(folded("daxpy.2.constprop.0"), "daxpy.2");
    EXPECT_EQ(folded("mm.0.isra.0.cold"), "mm.0");
}

TEST(VgtoolFnmatch, FortranModuleProceduresByTheirName) {
    // gfortran's module procedures are "__MODULE_MOD_NAME": matched by NAME and MODULE::NAME,
    // as the symbol itself; not by a part of the module's name or another procedure's.
    EXPECT_TRUE(matches("sweep", "__k_MOD_sweep"));
    EXPECT_TRUE(matches("k::sweep", "__k_MOD_sweep"));
    EXPECT_TRUE(matches("__k_MOD_sweep", "__k_MOD_sweep"));
    EXPECT_TRUE(matches("sweep", "__grid_ops_MOD_sweep.constprop.0"));
    EXPECT_TRUE(matches("grid_ops::sweep", "__grid_ops_MOD_sweep"));
    EXPECT_TRUE(matches("solve", "__m.sub_MOD_solve"));  // a submodule's
    EXPECT_FALSE(matches("sweep", "__k_MOD_sweep2"));
    EXPECT_FALSE(matches("weep", "__k_MOD_sweep"));
    EXPECT_FALSE(matches("other::sweep", "__k_MOD_sweep"));
    EXPECT_FALSE(matches("sweep", "__MOD_sweep"));  // no module name: not gfortran's shape
    EXPECT_FALSE(matches("sweep", "x__k_MOD_sweep"));
}

TEST(VgtoolFnmatch, CxxMethodsByShortOrQualifiedName) {
    const char* sym = "solver::Grid2D<double>::sweep(int)";
    EXPECT_TRUE(matches("sweep", sym));
    EXPECT_TRUE(matches("Grid2D<double>::sweep", sym));
    EXPECT_TRUE(matches("solver::Grid2D<double>::sweep", sym));
    EXPECT_TRUE(matches("Grid2D::sweep", sym));  // template arguments left out
    EXPECT_TRUE(matches("sweep(int)", sym));
    EXPECT_TRUE(matches("solver::Grid2D<double>::sweep(int)", sym));
    EXPECT_FALSE(matches("sweep(double)", sym));
    EXPECT_FALSE(matches("Grid2D<float>::sweep", sym));
    EXPECT_FALSE(matches("eep", sym));
    EXPECT_FALSE(matches("d::sweep", sym));
    EXPECT_TRUE(matches("sweep", "solver::Grid2D<double>::sweep(int) const"));
    EXPECT_TRUE(matches("sweep", "solver::sweep(int) [clone .constprop.0]"));
    EXPECT_TRUE(matches("run", "void solver::run<double>(double*, unsigned long)"));  // return type of a template
    EXPECT_TRUE(matches("run<double>", "void solver::run<double>(double*, unsigned long)"));
    EXPECT_TRUE(matches("run(double*,unsigned long)", "void solver::run<double>(double*, unsigned long)"));
    EXPECT_TRUE(matches("helper", "(anonymous namespace)::helper(int)"));
    EXPECT_TRUE(matches("operator()", "Functor::operator()(int) const"));
}

TEST(VgtoolFnmatch, LongNamesNeverMatch) {
    std::string huge(RL_NAME_MAX + 10, 'a');
    EXPECT_FALSE(matches(huge.c_str(), huge.c_str()));
}

} // namespace
