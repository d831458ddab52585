# Install rules of the tool (issue 15); the marker library's are in src/marker/CMakeLists.txt.
# The layout below the prefix is fixed, not taken from GNUInstallDirs' BINDIR/LIBEXECDIR/DATADIR:
# the binary finds its files relative to its own location (src/io/install_layout.hpp), which
# is what makes an installed tree relocatable (move it, or install it with --prefix anywhere).
#   bin/roofline
#   libexec/roofline/vgtool/            the Valgrind tool, links to Valgrind's core files
#   libexec/roofline/roofline-gpubench  (when nvcc was found), roofline-offload.so (when CUPTI's
#                                       headers were), roofline-netbench (when MPI was)
#   share/roofline/events/              the perf engine's event files
#   share/doc/roofline/                 README, example kernels, machines, Slurm scripts
#   lib/systemd/system/                 the monitor's unit, ExecStart naming the installed binary
# Everything here is component "roofline"; `make package` packs it with the marker library.
set(ROOFLINE_INSTALL_HELPERS libexec/roofline)
set(ROOFLINE_INSTALL_DATA share/roofline)

install(TARGETS roofline RUNTIME DESTINATION bin COMPONENT roofline)

# The event files, also copied into the build tree where a build-tree roofline finds them in the
# same relative place (<build>/share/roofline/events): no source path is compiled in.
file(GLOB ROOFLINE_EVENT_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/data/events/*.txt)
set(ROOFLINE_BUILD_EVENTS ${CMAKE_BINARY_DIR}/${ROOFLINE_INSTALL_DATA}/events)
set(build_event_copies)
foreach(f IN LISTS ROOFLINE_EVENT_FILES)
  get_filename_component(name ${f} NAME)
  add_custom_command(OUTPUT ${ROOFLINE_BUILD_EVENTS}/${name}
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${f} ${ROOFLINE_BUILD_EVENTS}/${name}
    DEPENDS ${f} VERBATIM)
  list(APPEND build_event_copies ${ROOFLINE_BUILD_EVENTS}/${name})
endforeach()
add_custom_target(roofline_event_files ALL DEPENDS ${build_event_copies})
add_dependencies(roofline roofline_event_files)
install(FILES ${ROOFLINE_EVENT_FILES} DESTINATION ${ROOFLINE_INSTALL_DATA}/events COMPONENT roofline)

# The Valgrind tool: the binary, and the links to the core files of the Valgrind it was built
# against (copied as links: they must stay that Valgrind's own files).
if(ROOFLINE_VGTOOL_AVAILABLE)
  install(PROGRAMS ${ROOFLINE_VGTOOL_DIR}/roofline-amd64-linux
    DESTINATION ${ROOFLINE_INSTALL_HELPERS}/vgtool COMPONENT roofline)
  install(FILES ${ROOFLINE_VGTOOL_DIR}/vgpreload_core-amd64-linux.so ${ROOFLINE_VGTOOL_DIR}/default.supp
    DESTINATION ${ROOFLINE_INSTALL_HELPERS}/vgtool COMPONENT roofline)
endif()
if(ROOFLINE_CUDA_BUILT)
  install(PROGRAMS ${CMAKE_BINARY_DIR}/roofline-gpubench DESTINATION ${ROOFLINE_INSTALL_HELPERS} COMPONENT roofline)
endif()
if(TARGET roofline_offload)
  install(TARGETS roofline_offload LIBRARY DESTINATION ${ROOFLINE_INSTALL_HELPERS} COMPONENT roofline)
endif()
if(TARGET roofline_netbench)
  install(TARGETS roofline_netbench RUNTIME DESTINATION ${ROOFLINE_INSTALL_HELPERS} COMPONENT roofline)
endif()

install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION share/doc/roofline COMPONENT roofline)
install(FILES ${PROJECT_SOURCE_DIR}/docs/USAGE.md ${PROJECT_SOURCE_DIR}/docs/METHODS.md
        DESTINATION share/doc/roofline COMPONENT roofline)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/kernels ${PROJECT_SOURCE_DIR}/examples/machines
  ${PROJECT_SOURCE_DIR}/examples/slurm DESTINATION share/doc/roofline/examples COMPONENT roofline)

# The systemd unit names the binary by its absolute path: written at install time, so it is the
# prefix the tree is installed to (cmake --install --prefix, or /usr in the Debian package).
install(CODE "
  set(unit_dir \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/lib/systemd/system\")
  file(READ \"${PROJECT_SOURCE_DIR}/packaging/systemd/roofline-monitor.service\" unit)
  string(REPLACE \"/usr/local/bin/roofline\" \"\${CMAKE_INSTALL_PREFIX}/bin/roofline\" unit \"\${unit}\")
  file(MAKE_DIRECTORY \"\${unit_dir}\")
  file(WRITE \"\${unit_dir}/roofline-monitor.service\" \"\${unit}\")
  message(STATUS \"Installing: \${unit_dir}/roofline-monitor.service\")
  list(APPEND CMAKE_INSTALL_MANIFEST_FILES \"\${CMAKE_INSTALL_PREFIX}/lib/systemd/system/roofline-monitor.service\")
" COMPONENT roofline)
