#%Module1.0
## Environment Modules (Tcl) modulefile for roofline (README, "Install";
## packaging/README.md). Lmod reads it too. A template: @PREFIX@ is the install prefix
## (cmake --install --prefix), @LIBDIR@ the library directory under it (lib; lib64 on
## distributions whose GNUInstallDirs picks it) and @VERSION@ what
## `@PREFIX@/bin/roofline --version` prints. Install it as <modulepath>/roofline/@VERSION@.
## Commands used, from modulefile(4): module-whatis, ModulesHelp, conflict, prepend-path,
## append-path, module-info mode. `module unload` reverses every change but the
## XDG_DATA_DIRS defaults below (they equal an unset XDG_DATA_DIRS).

set prefix {@PREFIX@}
set libdir $prefix/@LIBDIR@

module-whatis "Name: roofline"
module-whatis "Version: @VERSION@"
module-whatis "Description: Roofline performance model: machine roofs, program points, advice"

proc ModulesHelp { } {
    puts stderr "roofline @VERSION@ (@PREFIX@)

  roofline bench -o machine.json        measure this machine's roofs
  roofline measure -- ./app             put a program on the chart
  man roofline                          every command

The instrument engine runs `valgrind` from PATH: the Valgrind this roofline was built
against. Programs that link the marker library build with
`pkg-config --cflags --libs roofline` or CMake's find_package(roofline).
bash completes roofline through XDG_DATA_DIRS; zsh: in ~/.zshrc, before compinit,
  fpath=(@PREFIX@/share/zsh/site-functions \$fpath)"
}

conflict roofline

prepend-path PATH $prefix/bin

# man: a set MANPATH replaces man-db's search path (manpath(5)), so an empty element is
# kept at the end, which stands for that default path (Modules' cookbook "Handle man pages
# search path"); with MANPATH unset man-db would already find share/man from PATH.
prepend-path MANPATH $prefix/share/man
append-path MANPATH {}

# Building against the marker library.
prepend-path PKG_CONFIG_PATH $libdir/pkgconfig
prepend-path CMAKE_PREFIX_PATH $prefix
# Running what was built: the pkg-config flags carry no rpath, so a program linked with
# them finds libroofline_marker.so only through LD_LIBRARY_PATH (or an rpath its build
# adds); roofline itself does not need it.
prepend-path LD_LIBRARY_PATH $libdir

# Completion. bash-completion loads <dir>/bash-completion/completions/roofline on demand
# for each <dir> of XDG_DATA_DIRS (bash-completion README, "search order"; 2.12 and later
# also find it from the command's own prefix). An unset XDG_DATA_DIRS means
# /usr/local/share:/usr/share (XDG Base Directory spec), kept when the prefix is added.
if { [module-info mode load] && (![info exists ::env(XDG_DATA_DIRS)] || $::env(XDG_DATA_DIRS) eq "") } {
    append-path XDG_DATA_DIRS /usr/local/share
    append-path XDG_DATA_DIRS /usr/share
}
prepend-path XDG_DATA_DIRS $prefix/share
# zsh: not FPATH. An exported FPATH replaces the whole default fpath of every zsh started
# after it (zsh 5.9), and Lmod's own zsh set-up leaves it alone for that reason; zsh users
# add the directory themselves (see ModulesHelp above).
