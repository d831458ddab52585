# Spack recipe for roofline (README, "Install"). Written from Spack's packaging guide and
# its CMake build-system page (spack.readthedocs.io: packaging_guide_creation,
# build_systems/cmakepackage, repositories, packaging_guide_testing), for Spack v1 package
# repositories (the spack_repo.builtin.build_systems imports; see packaging/README.md for
# the layout of a repository and how to add it).
#
# NOT RUN HERE: there is no Spack in the environment this was written in. What was checked:
# the file compiles (python3 -m py_compile), the dependency names exist in the spack-packages
# repository (nlohmann-json, yaml-cpp, cli11, fmt, sqlite, postgresql, hwloc, elfutils,
# openblas, fftw, libpfm4, valgrind, googletest, capstone), and the CMake options match
# CMakeLists.txt, tools/*/CMakeLists.txt. A user should verify, once:
#   spack repo add <repo> && spack info roofline          (the recipe loads)
#   spack spec roofline +mpi                               (it concretizes)
#   spack install --test=root roofline && spack test run roofline
#   spack load roofline && roofline measure --engine instrument -- /bin/true
#     (the Valgrind tool found Spack's Valgrind; see _valgrind_dir below)
# No version ranges are given for the libraries: only what Debian 12 ships is known to work.

import glob
import os

from spack_repo.builtin.build_systems.cmake import CMakePackage
from spack_repo.builtin.build_systems.cuda import CudaPackage

from spack.package import *


class Roofline(CMakePackage, CudaPackage):
    """Roofline performance model toolkit: measures a machine's compute and bandwidth
    roofs, puts programs on the chart from marker regions, hardware counters or
    counter-free instrumentation under Valgrind, and explains where they are bound."""

    homepage = "https://github.com/roofline/roofline"  # placeholder: no public home yet
    git = "https://github.com/roofline/roofline.git"  # placeholder: point at the real repository

    version("develop", branch="main")

    # The CMake default of the project is Release (CMakeLists.txt); Spack's is RelWithDebInfo.
    variant(
        "build_type",
        default="Release",
        values=("Release", "RelWithDebInfo", "Debug", "MinSizeRel"),
        description="CMake build type",
    )
    # +cuda and cuda_arch=NN come from CudaPackage: roofline-gpubench for `bench --gpu`.
    variant("mpi", default=False, description="roofline-netbench: the network roofs of bench --mpi")
    variant("pfm", default=True, description="libpfm4: architecture events for the perf engine")
    variant("tests", default=False, description="Build the test suite (GoogleTest)")

    # Kernels are per x86 ISA (SSE2/AVX2/AVX-512) and the Valgrind tool is amd64-linux only.
    requires("target=x86_64:", msg="roofline measures x86-64 machines only")
    conflicts("%gcc@:9", msg="roofline is C++20")
    conflicts("cuda_arch=none", when="+cuda", msg="give the GPUs to build for: cuda_arch=80 ...")

    depends_on("c", type="build")
    depends_on("cxx", type="build")
    depends_on("cmake@3.20:", type="build")
    depends_on("pkgconfig", type="build")  # hwloc, libdw, openblas, fftw3, libpq via pkg-config

    depends_on("hwloc")
    depends_on("elfutils")  # libdw: unwinding of sampled stacks
    depends_on("capstone")  # measure --loops: machine code decoded into control-flow graphs
    # OpenBLAS itself, not the `blas` virtual: CMake asks pkg-config for `openblas`, and
    # the reference kernels dgemm_openblas / atb_openblas are named after it.
    depends_on("openblas")
    depends_on("fftw precision=double")  # fftw3.pc; `^fftw~mpi` keeps MPI out of the tree
    depends_on("nlohmann-json@3:")
    depends_on("cli11")
    depends_on("fmt")
    depends_on("sqlite")
    depends_on("yaml-cpp")
    depends_on("postgresql")  # libpq only; `^postgresql+client_only` skips the server
    depends_on("libpfm4", when="+pfm")
    depends_on("mpi", when="+mpi")
    depends_on("googletest", type=("build", "link"), when="+tests")
    # The Valgrind tool is linked statically against this Valgrind's core libraries and links
    # to its vgpreload_core and default.supp, and `roofline measure` runs `valgrind` from PATH:
    # build and run dependency (`spack load roofline` puts it on PATH). The tool interface
    # changes between Valgrind releases; Spack rebuilds roofline when Valgrind changes.
    # `^valgrind~mpi~boost` keeps Valgrind's own optional dependencies out.
    depends_on("valgrind", type=("build", "run"))

    def _valgrind_dir(self, filename, subdirs):
        """The <valgrind prefix>/<subdir>/valgrind directory that holds `filename`. An
        upstream (autotools) install puts the static core libraries in $(pkglibdir) =
        <prefix>/lib/valgrind and vgpreload_core / default.supp in $(pkglibexecdir) =
        <prefix>/libexec/valgrind (Debian: lib/x86_64-linux-gnu/valgrind and
        libexec/valgrind); releases before the tools moved to libexec had both in lib."""
        prefix = self.spec["valgrind"].prefix
        for sub in subdirs:
            candidate = os.path.join(prefix, sub, "valgrind")
            if os.path.isfile(os.path.join(candidate, filename)):
                return candidate
        raise InstallError(f"valgrind at {prefix} has no {filename} (looked in {subdirs})")

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define_from_variant("ROOFLINE_WITH_TESTS", "tests"),
            self.define_from_variant("ROOFLINE_WITH_LIBPFM", "pfm"),
            # ON/OFF, never AUTO: a build must not depend on what else is on the machine.
            self.define("ROOFLINE_WITH_MPI", "ON" if spec.satisfies("+mpi") else "OFF"),
            self.define("ROOFLINE_WITH_CUDA", "ON" if spec.satisfies("+cuda") else "OFF"),
            # tools/vgtool/CMakeLists.txt: the static libraries, the core files, the headers.
            self.define(
                "RL_VG_LIBDIR",
                self._valgrind_dir("libcoregrind-amd64-linux.a", ["lib", "lib64", "libexec"]),
            ),
            self.define(
                "RL_VG_LIBEXEC",
                self._valgrind_dir("vgpreload_core-amd64-linux.so", ["libexec", "lib", "lib64"]),
            ),
            self.define("RL_VG_INCLUDE", spec["valgrind"].prefix.include.valgrind),
        ]
        if spec.satisfies("+mpi"):
            args.append(self.define("MPI_C_COMPILER", spec["mpi"].mpicc))
        if spec.satisfies("+cuda"):
            args.append(self.define("ROOFLINE_NVCC", spec["cuda"].prefix.bin.nvcc))
            # Oldest first: tools/gpubench embeds PTX for the last one, for newer GPUs.
            archs = sorted(spec.variants["cuda_arch"].value, key=lambda a: int(a.rstrip("af")))
            args.append(self.define("ROOFLINE_GPU_ARCHS", ";".join(archs)))
        return args

    def test_version(self):
        """roofline runs from the installed prefix and reports its version"""
        roofline = which(self.prefix.bin.roofline, required=True)
        out = roofline("--version", output=str.split, error=str.split)
        assert out.startswith("roofline ")

    def test_marker_pkgconfig(self):
        """the marker library's pkg-config file is installed"""
        pcs = glob.glob(os.path.join(self.prefix, "lib*", "pkgconfig", "roofline.pc"))
        assert pcs, f"no lib*/pkgconfig/roofline.pc under {self.prefix}"
