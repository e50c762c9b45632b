// The extension module tpbisa._tpbisa: the bindings over the public C++ API (the package wraps it, docs/python.md).
#include "common.hpp"
#include "words.hpp"

namespace tpbisa::py {
void bind_neff_machine(pb::module_& m);
}

PYBIND11_MODULE(_tpbisa, m) {
  m.doc() = "tpbisa: the TPB instruction set toolkit (decode, disassemble, assemble, validate, NEFFs, simulator)";
  tpbisa::py::register_exceptions(m);
  tpbisa::py::bind_words(m);
  tpbisa::py::bind_neff_machine(m);
  m.attr("__version__") = "0.1.0";
}
