# Unicode tables for normalization (include/gpudedup/detail/unicode_tables.hpp), generated
# at build time from ICU (libicu-dev, scripts/install-deps) by cmake/unicode_tables.cpp.
# The library and everything that links it sees the generated header through the
# gpudedup include path; it is installed beside the hand-written detail headers.
pkg_check_modules(ICU REQUIRED IMPORTED_TARGET icu-uc icu-i18n)
add_executable(gpudedup_unicode_tables_gen ${PROJECT_SOURCE_DIR}/cmake/unicode_tables.cpp)
target_link_libraries(gpudedup_unicode_tables_gen PRIVATE PkgConfig::ICU)
set(GPUDEDUP_GENERATED_INCLUDE ${PROJECT_BINARY_DIR}/generated)
set(GPUDEDUP_UNICODE_TABLES ${GPUDEDUP_GENERATED_INCLUDE}/gpudedup/detail/unicode_tables.inc)
add_custom_command(
  OUTPUT ${GPUDEDUP_UNICODE_TABLES}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${GPUDEDUP_GENERATED_INCLUDE}/gpudedup/detail
  COMMAND gpudedup_unicode_tables_gen ${GPUDEDUP_UNICODE_TABLES}
  DEPENDS gpudedup_unicode_tables_gen
  COMMENT "Generating the Unicode tables from ICU"
  VERBATIM)
add_custom_target(gpudedup_unicode_tables DEPENDS ${GPUDEDUP_UNICODE_TABLES})
install(FILES ${GPUDEDUP_UNICODE_TABLES} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/gpudedup/detail)
