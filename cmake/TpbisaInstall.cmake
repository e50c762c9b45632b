# `cmake --install`: the static library libtpbisa.a (every layer's objects), the public headers (with the families'
# format headers under tpbisa/families/ and the umbrella <tpbisa/tpbisa.hpp>) and a CMake package, so that another
# project writes find_package(tpbisa) and links tpbisa::tpbisa (README.md, "The library").
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(TPBISA_PACKAGE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tpbisa)

# The interface targets that say how the library links libarchive and libmd are part of the package.
set_target_properties(tpbisa_libarchive PROPERTIES EXPORT_NAME libarchive)
set_target_properties(tpbisa_libmd PROPERTIES EXPORT_NAME libmd)
install(TARGETS tpbisa tpbisa_libarchive tpbisa_libmd EXPORT tpbisaTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library)
install(DIRECTORY include/tpbisa DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT library)
install(FILES src/families/registry.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tpbisa/families COMPONENT library)
foreach(format ${TPBISA_FAMILY_FORMATS})
  get_filename_component(family ${format} DIRECTORY)
  install(FILES src/families/${format} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tpbisa/families/${family}
          COMPONENT library)
endforeach()
install(EXPORT tpbisaTargets NAMESPACE tpbisa:: DESTINATION ${TPBISA_PACKAGE_DIR} COMPONENT library)

# The packages the consumer's find_package(tpbisa) finds in turn: those the exported targets name.
if(TPBISA_LIBARCHIVE_STATIC_OK)
  set(TPBISA_FIND_LIBARCHIVE OFF)
else()
  set(TPBISA_FIND_LIBARCHIVE ON)
endif()
if(TPBISA_HWY_LIBRARY)
  set(TPBISA_FIND_HWY OFF)
else()
  set(TPBISA_FIND_HWY ON)
endif()
configure_package_config_file(cmake/tpbisaConfig.cmake.in ${PROJECT_BINARY_DIR}/tpbisaConfig.cmake
                              INSTALL_DESTINATION ${TPBISA_PACKAGE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tpbisaConfigVersion.cmake VERSION ${PROJECT_VERSION}
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tpbisaConfig.cmake ${PROJECT_BINARY_DIR}/tpbisaConfigVersion.cmake
        DESTINATION ${TPBISA_PACKAGE_DIR} COMPONENT library)
