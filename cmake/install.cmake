# Installation (`cmake --install build --prefix P`, Debian layout through GNUInstallDirs): the schedcheck executable,
# libschedcheck.so (every layer inside; Z3, Gecode, zlib private), the public headers under include/schedcheck, a CMake
# package (schedcheckConfig.cmake, version file, exported target schedcheck::schedcheck) and schedcheck.pc. Our own.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SCHEDCHECK_LAYERS schedcheck_experiments schedcheck_report schedcheck_counterexamples schedcheck_properties schedcheck_simulation schedcheck_solver
    schedcheck_reference schedcheck_model schedcheck_support)
# The layers' object files make the library; linking the layers too brings their own dependencies (Z3, Gecode,
# zlib, fmt: private), and takes nothing else from them (every symbol is already in the objects).
add_library(schedcheck_library SHARED)
foreach(layer ${SCHEDCHECK_LAYERS})
  target_sources(schedcheck_library PRIVATE $<TARGET_OBJECTS:${layer}>)
endforeach()
set_target_properties(schedcheck_library PROPERTIES OUTPUT_NAME schedcheck EXPORT_NAME schedcheck
                      VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
target_link_libraries(schedcheck_library PRIVATE ${SCHEDCHECK_LAYERS} PUBLIC nlohmann_json::nlohmann_json)
target_include_directories(schedcheck_library INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/schedcheck>)
target_compile_features(schedcheck_library INTERFACE cxx_std_20)
add_library(schedcheck::schedcheck ALIAS schedcheck_library)

install(TARGETS schedcheck RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS schedcheck_library EXPORT schedcheckTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/schedcheck)
foreach(layer support model reference simulation properties counterexamples report experiments)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${layer}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/schedcheck/${layer}
          FILES_MATCHING PATTERN "*.hpp" PATTERN "problems" EXCLUDE PATTERN "corpus" EXCLUDE)
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/solver/result.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/schedcheck/solver)

set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/schedcheck)
install(EXPORT schedcheckTargets NAMESPACE schedcheck:: DESTINATION ${config_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/schedcheckConfig.cmake.in
  ${PROJECT_BINARY_DIR}/schedcheckConfig.cmake INSTALL_DESTINATION ${config_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/schedcheckConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/schedcheckConfig.cmake ${PROJECT_BINARY_DIR}/schedcheckConfigVersion.cmake
        DESTINATION ${config_dir})
# Relocatable: the prefix is found from the .pc file's own place (pkg-config's pcfiledir), whatever --prefix is.
file(RELATIVE_PATH SCHEDCHECK_PC_TO_PREFIX "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
string(REGEX REPLACE "/$" "" SCHEDCHECK_PC_TO_PREFIX "${SCHEDCHECK_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/schedcheck.pc.in ${PROJECT_BINARY_DIR}/schedcheck.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/schedcheck.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
