# Man pages and shell completions, written by the built roofline from its own
# command-line definition (roofline generate-docs, a hidden command), so `man`
# and tab completion say what --help says. Included from the top-level
# CMakeLists.txt after the roofline target exists (not in the fuzz build, which
# does not build it). SOURCE_DATE_EPOCH, when set, dates the pages; else the
# version alone does.
if(ROOFLINE_FUZZ)
  return()  # the fuzz build (clang, libFuzzer) builds no roofline to run
endif()
include(GNUInstallDirs)

set(ROOFLINE_MAN_DIR ${CMAKE_BINARY_DIR}/share/man/man1)
set(ROOFLINE_BASH_COMPLETION ${CMAKE_BINARY_DIR}/share/bash-completion/completions/roofline)
set(ROOFLINE_ZSH_COMPLETION ${CMAKE_BINARY_DIR}/share/zsh/site-functions/_roofline)
set(ROOFLINE_DOCS_STAMP ${CMAKE_BINARY_DIR}/share/roofline-docs.stamp)

# The pages are a directory's worth whose names follow the commands: it is
# emptied first, so a removed command leaves no stale page to install.
add_custom_command(
  OUTPUT ${ROOFLINE_DOCS_STAMP}
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${ROOFLINE_MAN_DIR}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${ROOFLINE_MAN_DIR} ${CMAKE_BINARY_DIR}/share/bash-completion/completions
          ${CMAKE_BINARY_DIR}/share/zsh/site-functions
  COMMAND $<TARGET_FILE:roofline> generate-docs --man-dir ${ROOFLINE_MAN_DIR}
          --bash ${ROOFLINE_BASH_COMPLETION} --zsh ${ROOFLINE_ZSH_COMPLETION}
  COMMAND ${CMAKE_COMMAND} -E touch ${ROOFLINE_DOCS_STAMP}
  DEPENDS roofline
  COMMENT "Writing the man pages and shell completions (roofline generate-docs)"
  VERBATIM)
add_custom_target(roofline_docs ALL DEPENDS ${ROOFLINE_DOCS_STAMP})

install(DIRECTORY ${ROOFLINE_MAN_DIR}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT roofline
        FILES_MATCHING PATTERN "*.1")
install(FILES ${ROOFLINE_BASH_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        COMPONENT roofline)
install(FILES ${ROOFLINE_ZSH_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions
        COMPONENT roofline)
