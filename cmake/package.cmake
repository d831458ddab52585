# The Debian package (issue 15): `make package` (CPack) packs the install tree of
# cmake/install.cmake and the marker library for /usr. Library dependencies are read off the
# binaries by dpkg-shlibdeps; Valgrind is named here, because the Valgrind tool is linked
# statically against one Valgrind's core (the tool interface changes between releases), and
# the installed tool links to that Valgrind's own files.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME roofline)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "roofline developers")
set(CPACK_PACKAGE_CONTACT "roofline developers <roofline@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Roofline performance model: measured machine roofs and where code sits under them")
string(CONCAT CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "Characterizes a machine (topology, measured clock, compute and bandwidth roofs of every\n"
  "memory level), puts programs on its roofline by markers, hardware counters or counter-free\n"
  "instrumentation under Valgrind, and explains them with charts and advice. Includes the\n"
  "marker library (libroofline_marker) with its headers, CMake package and pkg-config file.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # roofline_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)  # shlibs for libroofline_marker, and the ldconfig trigger
set(CPACK_STRIP_FILES OFF)  # the Valgrind tool keeps its symbols (Valgrind's own tools ship unstripped)

set(deps)
if(ROOFLINE_VGTOOL_AVAILABLE)
  # Upstream release of the Valgrind built against, from the package that provided it.
  execute_process(COMMAND dpkg-query -W -f=\${Version} valgrind OUTPUT_VARIABLE vg_version
    RESULT_VARIABLE vg_rc ERROR_QUIET)
  if(vg_rc EQUAL 0 AND vg_version MATCHES "^(([0-9]+:)?([0-9]+)\\.([0-9]+))")
    set(epoch ${CMAKE_MATCH_2})
    math(EXPR next_minor "${CMAKE_MATCH_4} + 1")
    list(APPEND deps "valgrind (>= ${CMAKE_MATCH_1}), valgrind (<< ${epoch}${CMAKE_MATCH_3}.${next_minor}~)")
  else()
    list(APPEND deps valgrind)
  endif()
endif()
list(JOIN deps ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
# Not needed to run, used when present: perf for the perf engine's checks, gnuplot for
# --format gnuplot, a C compiler and pkg-config to build programs against the marker library.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "linux-perf, gnuplot-nox, pkg-config")
include(CPack)
