# The third-party libraries and how the library links them: fmt, nlohmann JSON, CLI11, libarchive (static where
# it can be), zlib, libmd, oneTBB and Google Highway (opened at first use by default). Defines the interface targets
# tpbisa_libarchive and tpbisa_libmd, and TPBISA_HWY_LIBRARY (the file the kernels open, empty when linked).

find_package(fmt REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(CLI11 REQUIRED)

# oneTBB runs the data-parallel chunks (the streaming validator's --jobs, the NEFF program checks) on a bounded
# number of threads; linked privately by the library.
find_package(TBB CONFIG QUIET)
if(NOT TBB_FOUND)
  message(FATAL_ERROR "oneTBB not found (Debian: libtbb-dev): the library runs its parallel checks with it")
endif()

# The NEFF reader: libarchive for the gzip and tar layers, zlib for the gzip trailer's CRC-32, libmd for the hash
# (MD5, SHA-256): a digest library with no start-up work, where OpenSSL's EVP loaded its configuration and
# providers in every command (docs/performance-log.md, "NEFF reading").
find_package(LibArchive REQUIRED)
find_package(ZLIB REQUIRED)
find_library(TPBISA_LIBMD NAMES md)
find_path(TPBISA_LIBMD_INCLUDE_DIR NAMES sha2.h md5.h)
if(NOT TPBISA_LIBMD OR NOT TPBISA_LIBMD_INCLUDE_DIR)
  message(FATAL_ERROR "libmd not found (Debian: libmd-dev)")
endif()
add_library(tpbisa_libmd INTERFACE)
target_include_directories(tpbisa_libmd INTERFACE ${TPBISA_LIBMD_INCLUDE_DIR})
target_link_libraries(tpbisa_libmd INTERFACE ${TPBISA_LIBMD})

# libarchive's static archive, where installed, with unreferenced sections dropped at link time: the reader and
# writer reference only its gzip filter and tar/raw formats, so zlib is all it then needs, where the shared library
# loads about a dozen more (libxml2, ICU, liblzma, ...) into every process and costs the start-up of each command
# (docs/performance-log.md, "NEFF reading"). Used only when CMake can link a test program that way, else the shared one.
option(TPBISA_STATIC_LIBARCHIVE "Link libarchive statically when its static archive is installed" ON)
add_library(tpbisa_libarchive INTERFACE)
set(TPBISA_LIBARCHIVE_STATIC_OK OFF)
if(TPBISA_STATIC_LIBARCHIVE)
  find_library(TPBISA_LIBARCHIVE_STATIC NAMES libarchive.a)
  if(TPBISA_LIBARCHIVE_STATIC)
    include(CheckCXXSourceCompiles)
    set(CMAKE_REQUIRED_INCLUDES ${LibArchive_INCLUDE_DIRS})
    set(CMAKE_REQUIRED_LIBRARIES ${TPBISA_LIBARCHIVE_STATIC} ZLIB::ZLIB)
    set(CMAKE_REQUIRED_LINK_OPTIONS "LINKER:--gc-sections")
    check_cxx_source_compiles([=[
#include <archive.h>
#include <archive_entry.h>
int main() {
  struct archive* r = archive_read_new();
  archive_read_support_filter_gzip(r);
  archive_read_support_format_raw(r);
  archive_read_support_format_tar(r);
  archive_read_free(r);
  struct archive* w = archive_write_new();
  archive_write_set_format_pax_restricted(w);
  archive_write_add_filter_gzip(w);
  archive_write_free(w);
  return 0;
}]=] TPBISA_LIBARCHIVE_STATIC_LINKS)
    unset(CMAKE_REQUIRED_INCLUDES)
    unset(CMAKE_REQUIRED_LIBRARIES)
    unset(CMAKE_REQUIRED_LINK_OPTIONS)
    set(TPBISA_LIBARCHIVE_STATIC_OK ${TPBISA_LIBARCHIVE_STATIC_LINKS})
  endif()
endif()
if(TPBISA_LIBARCHIVE_STATIC_OK)
  target_include_directories(tpbisa_libarchive INTERFACE ${LibArchive_INCLUDE_DIRS})
  target_link_libraries(tpbisa_libarchive INTERFACE ${TPBISA_LIBARCHIVE_STATIC} ZLIB::ZLIB)
  # Its symbols stay out of the dynamic symbol table of a shared object (the Python module), where an exported
  # function would be a root that --gc-sections keeps, with the libraries it references.
  get_filename_component(TPBISA_LIBARCHIVE_STATIC_NAME ${TPBISA_LIBARCHIVE_STATIC} NAME)
  target_link_options(tpbisa_libarchive INTERFACE "LINKER:--gc-sections"
                      "LINKER:--exclude-libs,${TPBISA_LIBARCHIVE_STATIC_NAME}")
  message(STATUS "libarchive: static (${TPBISA_LIBARCHIVE_STATIC})")
else()
  target_link_libraries(tpbisa_libarchive INTERFACE LibArchive::LibArchive)
  message(STATUS "libarchive: shared")
endif()

# The PE kernels dispatch at run time to the host's SIMD width with Google Highway (no -march needed).
find_package(hwy REQUIRED)
# Highway's shared library is linked as usual, so packagers and the dynamic loader find it as any other. On, the
# option opens it at the first kernel dispatch instead (src/kernels/hwy_loader.cpp, from the folder it was found in
# at configure time): its static initialiser calibrates a benchmark timer, about 3 ms of CPU in every process, which
# only the commands that run a kernel then pay (docs/performance-log.md, "NEFF reading").
option(TPBISA_LAZY_HWY "Open libhwy at the first kernel dispatch instead of linking it" OFF)
set(TPBISA_HWY_LIBRARY "")
if(TPBISA_LAZY_HWY)
  get_target_property(tpbisa_hwy_configs hwy::hwy IMPORTED_CONFIGURATIONS)
  list(GET tpbisa_hwy_configs 0 tpbisa_hwy_config)
  get_target_property(tpbisa_hwy_location hwy::hwy IMPORTED_LOCATION_${tpbisa_hwy_config})
  get_target_property(tpbisa_hwy_soname hwy::hwy IMPORTED_SONAME_${tpbisa_hwy_config})
  if(tpbisa_hwy_location AND tpbisa_hwy_soname)
    # The soname in the found library's folder: what the dynamic loader would have opened, across patch upgrades.
    get_filename_component(tpbisa_hwy_dir ${tpbisa_hwy_location} DIRECTORY)
    set(TPBISA_HWY_LIBRARY ${tpbisa_hwy_dir}/${tpbisa_hwy_soname})
    message(STATUS "Highway: opened at first use (${TPBISA_HWY_LIBRARY})")
  else()
    message(STATUS "Highway: linked (its imported target names no library file and soname)")
  endif()
endif()

# The Python module (python/, docs/python.md) is built for the Debian interpreter, which has NumPy; it is on by
# default when pybind11 and that interpreter are found. Not under the sanitizers: an ASan-built extension cannot be
# loaded into an interpreter that is not.
set(TPBISA_PYTHON_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "The interpreter the Python module is built for")
set(TPBISA_PYTHON_DEFAULT OFF)
if(NOT TPBISA_SANITIZE AND NOT TPBISA_FUZZ AND EXISTS ${TPBISA_PYTHON_EXECUTABLE})
  set(PYBIND11_FINDPYTHON ON)
  set(Python_EXECUTABLE ${TPBISA_PYTHON_EXECUTABLE})
  find_package(pybind11 CONFIG QUIET)
  if(pybind11_FOUND)
    set(TPBISA_PYTHON_DEFAULT ON)
  endif()
endif()
