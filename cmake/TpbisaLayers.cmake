# The library's layers as CMake targets, so that the build rejects an include of a higher layer's header.
#
# Each layer is an object library that sees only its own headers and those of the layers it links: its include
# directory (<build>/layers/<layer>) holds links to its public headers (tpbisa/...) and to its folder of private
# headers (src/<folder>), and the layers it links add theirs. A file that includes a header of a layer it does not
# link fails to compile ("No such file or directory"). The objects of every layer make one static library, tpbisa.

set(TPBISA_LAYERS "")
set(TPBISA_LAYER_ROOT ${CMAKE_BINARY_DIR}/layers)
file(REMOVE_RECURSE ${TPBISA_LAYER_ROOT})

# Makes `link` a symbolic link to `target` (a file or a folder), creating its parent folder.
function(tpbisa_link target link)
  get_filename_component(parent ${link} DIRECTORY)
  file(MAKE_DIRECTORY ${parent})
  file(CREATE_LINK ${target} ${link} SYMBOLIC)
endfunction()

# tpbisa_layer(NAME
#   HEADERS   public headers the layer owns, relative to include/tpbisa (globs allowed)
#   FOLDERS   folders of src/ whose private headers the layer owns
#   SOURCES   its sources, relative to the project (globs allowed)
#   EXCLUDE   regular expressions of sources the globs found that belong to another layer
#   LINKS     the lower layers it uses)
function(tpbisa_layer name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "HEADERS;FOLDERS;SOURCES;EXCLUDE;LINKS")
  set(dir ${TPBISA_LAYER_ROOT}/${name})
  file(MAKE_DIRECTORY ${dir})
  # A glob leaves out the headers an earlier (lower) layer named.
  get_property(owned GLOBAL PROPERTY TPBISA_LAYER_HEADERS)
  set(headers "")
  foreach(pattern ${arg_HEADERS})
    file(GLOB found CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}/include/tpbisa
         ${PROJECT_SOURCE_DIR}/include/tpbisa/${pattern})
    if(pattern MATCHES "[*?]" AND owned)
      list(REMOVE_ITEM found ${owned})
    endif()
    list(APPEND headers ${found})
  endforeach()
  foreach(header ${headers})
    tpbisa_link(${PROJECT_SOURCE_DIR}/include/tpbisa/${header} ${dir}/tpbisa/${header})
  endforeach()
  foreach(folder ${arg_FOLDERS})
    tpbisa_link(${PROJECT_SOURCE_DIR}/src/${folder} ${dir}/${folder})
  endforeach()
  set(sources "")
  foreach(pattern ${arg_SOURCES})
    file(GLOB found CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${pattern})
    list(APPEND sources ${found})
  endforeach()
  foreach(regex ${arg_EXCLUDE})
    list(FILTER sources EXCLUDE REGEX "${regex}")
  endforeach()

  add_library(tpbisa_${name} OBJECT ${sources})
  target_include_directories(tpbisa_${name} PUBLIC ${dir})
  foreach(lower ${arg_LINKS})
    target_link_libraries(tpbisa_${name} PUBLIC tpbisa_${lower})
  endforeach()
  # Position-independent, so the Python extension (a shared object) can link the static library.
  set_target_properties(tpbisa_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_link_libraries(tpbisa_${name} PRIVATE fmt::fmt nlohmann_json::nlohmann_json)
  target_compile_options(tpbisa_${name} PRIVATE ${TPBISA_COVERAGE_FLAGS})
  if(TPBISA_LIBRARY_FLAGS)
    separate_arguments(flags UNIX_COMMAND "${TPBISA_LIBRARY_FLAGS}")
    target_compile_options(tpbisa_${name} PRIVATE ${flags})
  endif()

  # What the layer check (cmake/check_layers.cmake) reads: the layers it may include, itself first.
  set(allowed ${name})
  foreach(lower ${arg_LINKS})
    get_property(below GLOBAL PROPERTY TPBISA_LAYER_${lower}_ALLOWED)
    list(APPEND allowed ${below})
  endforeach()
  list(REMOVE_DUPLICATES allowed)
  set_property(GLOBAL PROPERTY TPBISA_LAYER_${name}_ALLOWED ${allowed})
  set_property(GLOBAL PROPERTY TPBISA_LAYER_${name}_HEADERS ${headers})
  set_property(GLOBAL PROPERTY TPBISA_LAYER_${name}_FOLDERS ${arg_FOLDERS})

  set(TPBISA_LAYERS ${TPBISA_LAYERS} ${name} PARENT_SCOPE)
  set_property(GLOBAL APPEND PROPERTY TPBISA_LAYER_HEADERS ${headers})
  set_property(TARGET tpbisa_${name} PROPERTY TPBISA_SOURCES ${sources})
endfunction()

# The families' format headers are public (the Operands variant is made of their layouts) though they live in each
# family's folder: <build>/include/tpbisa/families holds links to the registry and to each family's format.hpp, and
# installs them under the same names. `layer` is the layer that owns them.
function(tpbisa_family_formats layer)
  set(dir ${CMAKE_BINARY_DIR}/include/tpbisa/families)
  file(REMOVE_RECURSE ${CMAKE_BINARY_DIR}/include)
  tpbisa_link(${PROJECT_SOURCE_DIR}/src/families/registry.hpp ${dir}/registry.hpp)
  file(GLOB formats CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}/src/families
       ${PROJECT_SOURCE_DIR}/src/families/*/format.hpp)
  foreach(format ${formats})
    tpbisa_link(${PROJECT_SOURCE_DIR}/src/families/${format} ${dir}/${format})
  endforeach()
  target_include_directories(tpbisa_${layer} PUBLIC ${CMAKE_BINARY_DIR}/include)
  set_property(GLOBAL PROPERTY TPBISA_FAMILY_FORMATS_LAYER ${layer})
  set(TPBISA_FAMILY_FORMATS ${formats} PARENT_SCOPE)
endfunction()

# Every public header belongs to exactly one layer, and the umbrella header includes each of them; then writes the
# layer table for the ctest entry `layers`.
function(tpbisa_check_layers)
  get_property(owned GLOBAL PROPERTY TPBISA_LAYER_HEADERS)
  file(GLOB_RECURSE all CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}/include/tpbisa
       ${PROJECT_SOURCE_DIR}/include/tpbisa/*.hpp)
  list(REMOVE_ITEM all tpbisa.hpp)
  file(READ ${PROJECT_SOURCE_DIR}/include/tpbisa/tpbisa.hpp umbrella)
  foreach(header ${all})
    list(FIND owned ${header} at)
    if(at EQUAL -1)
      message(FATAL_ERROR "include/tpbisa/${header} belongs to no layer: add it to one (CMakeLists.txt, tpbisa_layer)")
    endif()
    list(REMOVE_AT owned ${at})
    list(FIND owned ${header} again)
    if(NOT again EQUAL -1)
      message(FATAL_ERROR "include/tpbisa/${header} is in two layers")
    endif()
    string(FIND "${umbrella}" "#include \"tpbisa/${header}\"" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "include/tpbisa/tpbisa.hpp does not include tpbisa/${header}")
    endif()
  endforeach()
  tpbisa_write_layer_table()
endfunction()

# The layer table as a script (<build>/layers/table.cmake) for cmake/check_layers.cmake, the ctest entry `layers`:
# it also checks the headers no file of their own layer includes, and forbids includes that climb out of a folder.
function(tpbisa_write_layer_table)
  set(table "# Written by cmake/TpbisaLayers.cmake: the library's layers, what each owns and may include.\n")
  get_property(formats_layer GLOBAL PROPERTY TPBISA_FAMILY_FORMATS_LAYER)
  string(APPEND table "set(layers ${TPBISA_LAYERS})\nset(family_formats_layer ${formats_layer})\n")
  foreach(layer ${TPBISA_LAYERS})
    get_property(allowed GLOBAL PROPERTY TPBISA_LAYER_${layer}_ALLOWED)
    get_property(headers GLOBAL PROPERTY TPBISA_LAYER_${layer}_HEADERS)
    get_property(folders GLOBAL PROPERTY TPBISA_LAYER_${layer}_FOLDERS)
    get_target_property(sources tpbisa_${layer} TPBISA_SOURCES)
    string(APPEND table "set(${layer}_allowed ${allowed})\nset(${layer}_headers ${headers})\n")
    string(APPEND table "set(${layer}_folders ${folders})\nset(${layer}_sources ${sources})\n")
  endforeach()
  file(WRITE ${TPBISA_LAYER_ROOT}/table.cmake "${table}")
endfunction()
