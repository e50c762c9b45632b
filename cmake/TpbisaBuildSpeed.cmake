# What makes the trees build faster without changing what they compute: unity sources, precompiled headers, the
# sanitized tree's library flags and SIMD targets, and the opt-in link-time optimisation (docs/performance-log.md,
# "Build time"). Each is an option; off, every file is compiled on its own as written.

# Link-time optimisation is opt-in: g++ 12 stops with an internal compiler error (streamer_write_chain) on some
# family validators under LTO.
option(TPBISA_LTO "Build with link-time optimisation" OFF)
if(TPBISA_LTO AND NOT TPBISA_SANITIZE AND NOT TPBISA_FUZZ AND NOT CMAKE_BUILD_TYPE STREQUAL "Debug")
  include(CheckIPOSupported)
  check_ipo_supported(RESULT TPBISA_IPO_OK OUTPUT TPBISA_IPO_MSG LANGUAGES CXX)
  if(TPBISA_IPO_OK)
    set(CMAKE_INTERPROCEDURAL_OPTIMIZATION ON)
  endif()
endif()

option(TPBISA_UNITY_FAMILIES "Compile each family folder and the isa, io, neff and text folders as one unity source" ON)
option(TPBISA_UNITY_CLI "Compile the tool's files as two unity sources" ON)
option(TPBISA_UNITY_PYTHON "Compile the Python module's files as two unity sources" ON)

# Extra flags for the library alone (every layer): the sanitized tree of `make test` compiles its tests at -O0 (fast
# to build) and the library they exercise at -O1 (fast to run).
set(TPBISA_LIBRARY_FLAGS "" CACHE STRING "Compile options added to the library's sources only")

# Extra flags for the io layer alone, after TPBISA_LIBRARY_FLAGS: the sanitized tree of `make test` compiles it at
# -O0. It is the reports, JSON and traces (its fmt and JSON templates took a sixth of that tree's compile time at
# -O1, 108 s of one core, and take 48 s at -O0), none of the machine's hot paths. The text and NEFF layers were
# tried at -O0 too: the fuzz targets' seed replays and the real-program tests then ran longer than their compiles
# got shorter.
set(TPBISA_IO_FLAGS "" CACHE STRING "Compile options added to the io layer only")

# The library's unity sources and precompiled header (its layers' targets, cmake/TpbisaLayers.cmake).
# Each family folder is compiled as one unity source (its syntax.cpp, in the text layer, as one of its own): its
# files share their headers' instantiations, and the folders are the plug-in units, so their files' names
# (kValidation, select, ...) repeat across folders but not within one. So are the io, neff and text folders, whose
# files each compiled the same JSON and fmt templates (their helpers' names are unique within each folder), and the
# isa folder, whose eight files each parsed the whole catalog and format declarations (about 40 CPU-seconds apart,
# 15 together).
# The families' files include the field machinery and the validator's headers (src/families/common.hpp), whose
# template instantiations took most of each file's compile time: they are precompiled once per tree, for the
# families layer and the layers above it, which may include them. The layers below compile without it.
function(tpbisa_library_build_speed)
  if(TPBISA_UNITY_FAMILIES)
    foreach(layer families text neff io isa)
      set_target_properties(tpbisa_${layer} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
      get_target_property(sources tpbisa_${layer} SOURCES)
      foreach(source ${sources})
        if(source MATCHES "/src/families/([a-z0-9_]+)/syntax\\.cpp$")
          set_source_files_properties(${source} PROPERTIES UNITY_GROUP syntax_${CMAKE_MATCH_1})
        elseif(source MATCHES "/src/families/([a-z0-9_]+)/[a-z_]+\\.cpp$")
          set_source_files_properties(${source} PROPERTIES UNITY_GROUP family_${CMAKE_MATCH_1})
        elseif(source MATCHES "/src/(io|neff|text|isa)/[a-z_]+\\.cpp$")
          set_source_files_properties(${source} PROPERTIES UNITY_GROUP folder_${CMAKE_MATCH_1})
        endif()
      endforeach()
    endforeach()
  endif()
  target_precompile_headers(tpbisa_families PRIVATE <fmt/format.h> <nlohmann/json.hpp>
                            ${PROJECT_SOURCE_DIR}/src/families/common.hpp)
  set(reusing text machine neff io)
  if(TPBISA_IO_FLAGS)
    # A precompiled header serves only sources compiled with its options: the io layer has one of its own.
    separate_arguments(flags UNIX_COMMAND "${TPBISA_IO_FLAGS}")
    target_compile_options(tpbisa_io PRIVATE ${flags})
    target_precompile_headers(tpbisa_io PRIVATE <fmt/format.h> <nlohmann/json.hpp>
                              ${PROJECT_SOURCE_DIR}/src/families/common.hpp)
    set(reusing text machine neff)
  endif()
  foreach(layer ${reusing})
    target_precompile_headers(tpbisa_${layer} REUSE_FROM tpbisa_families)
  endforeach()
endfunction()

# The sanitized tree compiles two SIMD targets: the best one its host runs and Highway's static baseline. Its kernel
# tests run each target the build has, so every further target (AVX2 and SSE4 beside AVX-512, and any the host
# cannot run) would be compiled there slowly for little: the optimised tree, which users run, keeps every target,
# and its plain test binary (kernels, activation and row-path differentials) runs each one the host supports.
function(tpbisa_kernel_build_speed sources)
  if(TPBISA_SANITIZE AND NOT CMAKE_CROSSCOMPILING)
    try_run(tpbisa_hwy_probe_ran tpbisa_hwy_probe_built ${CMAKE_BINARY_DIR}/hwy_host_probe
            ${PROJECT_SOURCE_DIR}/cmake/hwy_host_unsupported.cpp LINK_LIBRARIES hwy::hwy
            RUN_OUTPUT_VARIABLE tpbisa_hwy_unsupported)
    if(tpbisa_hwy_probe_built AND tpbisa_hwy_probe_ran EQUAL 0 AND tpbisa_hwy_unsupported MATCHES "^[0-9]+$")
      message(STATUS "Highway: the sanitized kernels leave out the targets other than the host's best and the baseline (${tpbisa_hwy_unsupported})")
      set_property(SOURCE ${sources} APPEND PROPERTY COMPILE_DEFINITIONS
                   TPBISA_HWY_HOST_UNSUPPORTED=${tpbisa_hwy_unsupported}LL)
    endif()
  endif()
endfunction()

# The tool's files are compiled as two unity sources: CLI11 is header-only, and its option parsing was compiled into
# every file that registers options (about half of each object's code, and most of its compile time), as were the
# fmt and JSON templates they share. Off: one object per file, with CLI11, fmt, JSON and the public headers
# precompiled.
function(tpbisa_cli_build_speed target)
  if(TPBISA_UNITY_CLI)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  else()
    target_precompile_headers(${target} PRIVATE <CLI/CLI.hpp> <fmt/format.h> <nlohmann/json.hpp>
                              <tpbisa/instruction.hpp> <tpbisa/neff.hpp> <tpbisa/validate.hpp> <tpbisa/io/json.hpp>)
  endif()
endfunction()
