// A NEFF run's .npy inputs bound to its signature, and its references compared with its outputs.
#include "tpbisa/io/neff_run_files.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "tpbisa/io/arguments.hpp"

namespace tpbisa::io {
namespace {

/// "a, b, c": the names of a signature's tensors.
std::string tensor_names(const std::vector<neff::Tensor>& tensors) {
  std::string names;
  for (const neff::Tensor& x : tensors) names += fmt::format("{}{}", names.empty() ? "" : ", ", x.name);
  return names;
}

const neff::Tensor* find_tensor(const std::vector<neff::Tensor>& tensors, const std::string& name) {
  const auto t = std::find_if(tensors.begin(), tensors.end(), [&](const neff::Tensor& x) { return x.name == name; });
  return t == tensors.end() ? nullptr : &*t;
}

}  // namespace

Expected<void> bind_npy_inputs(const neff::Neff& nf, const std::string& program, std::span<const std::string> given,
                               BoundInputs& b) {
  b.mapped.reserve(given.size());
  for (const std::string& text : given) {
    std::string name, path;
    if (!split_pair(text, name, path))
      return Error{ErrorKind::Syntax, fmt::format("--input '{}' is not NAME=FILE.npy", text)};
    const neff::Tensor* t = find_tensor(nf.inputs, name);
    // The program's signature decides, as for an input not given: an input error naming the program.
    if (t == nullptr)
      return Error{ErrorKind::Invalid, fmt::format("{}: --input {}: the program has no input of that name (its "
                                                   "inputs: {})",
                                                   program, name, tensor_names(nf.inputs))};
    NpyInput in;
    std::string error;
    if (!open_npy(path, in, error)) return Error{ErrorKind::Open, error};
    if (const auto bad = neff::check_npy(*t, in.array))
      return Error{ErrorKind::Invalid, fmt::format("{}: {}", path, *bad)};
    b.mapped.push_back(std::move(in));
    b.inputs.push_back({name, b.mapped.back().data()});
    b.paths.push_back(path);
  }
  return {};
}

Expected<void> open_references(const neff::Neff& nf, const std::string& program, std::span<const std::string> given,
                               std::vector<OutputReference>& refs, std::vector<std::string>& paths) {
  for (const std::string& text : given) {
    OutputReference ref;
    if (!split_pair(text, ref.name, ref.path))
      return Error{ErrorKind::Syntax, fmt::format("--expect '{}' is not NAME=REF.npy", text)};
    if (find_tensor(nf.outputs, ref.name) == nullptr)
      return Error{ErrorKind::Invalid, fmt::format("{}: --expect {}: the program has no output of that name (its "
                                                   "outputs: {})",
                                                   program, ref.name, tensor_names(nf.outputs))};
    std::string error;
    if (!open_npy(ref.path, ref.npy, error)) return Error{ErrorKind::Open, error};
    paths.push_back(ref.path);
    refs.push_back(std::move(ref));
  }
  return {};
}

Expected<std::vector<OutputComparison>> compare_references(const neff::Neff& nf, const neff::Run& run,
                                                           std::span<const OutputReference> refs, double rtol,
                                                           double atol) {
  std::vector<OutputComparison> out;
  for (const OutputReference& ref : refs) {
    auto c = compare_output(*find_tensor(nf.outputs, ref.name), run.output(ref.name), ref.npy.array, ref.npy.data(),
                            rtol, atol);
    // An output is labelled with the first reference given for it.
    const std::string& label =
        std::find_if(refs.begin(), refs.end(), [&](const OutputReference& r) { return r.name == ref.name; })->path;
    if (!c) return Error{c.error().kind, fmt::format("{}: {}", label, c.error().message)};
    c->reference = label;
    out.push_back(std::move(*c));
  }
  return out;
}

}  // namespace tpbisa::io
