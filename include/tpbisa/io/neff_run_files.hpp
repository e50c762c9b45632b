// The files a NEFF run reads besides the NEFF (`tpbisa run PROG.neff --input NAME=FILE.npy --expect NAME=REF.npy`):
// the inputs mapped and bound to the signature, the references mapped and compared with the outputs.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "tpbisa/expected.hpp"
#include "tpbisa/io/compare.hpp"
#include "tpbisa/io/npy_file.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/neff_run.hpp"

namespace tpbisa::io {

/// The mapped input files bound to the signature. `paths` collects every file the run reads (the NEFF, the inputs,
/// the references): no output may be one of them.
struct BoundInputs {
  std::vector<NpyInput> mapped;
  std::vector<neff::RunInput> inputs;  ///< views of `mapped`
  std::vector<std::string> paths;
};

/// A reference an output is compared with: the output's name, the file, its mapping.
struct OutputReference {
  std::string name, path;
  NpyInput npy;
};

/// Maps each NAME=FILE.npy of `given` and checks it against the input NAME of the signature. The error: of kind Syntax
/// for a text that is not NAME=FILE.npy (a usage error), else what is wrong with the input (naming `program`).
Expected<void> bind_npy_inputs(const neff::Neff& nf, const std::string& program, std::span<const std::string> given,
                               BoundInputs& b);

/// Maps each NAME=REF.npy of `given` for the output NAME; errors as bind_npy_inputs. Adds the files to `paths`.
Expected<void> open_references(const neff::Neff& nf, const std::string& program, std::span<const std::string> given,
                               std::vector<OutputReference>& refs, std::vector<std::string>& paths);

/// Compares each output of the run with its reference within the tolerances; the error names the reference.
Expected<std::vector<OutputComparison>> compare_references(const neff::Neff& nf, const neff::Run& run,
                                                           std::span<const OutputReference> refs, double rtol,
                                                           double atol);

}  // namespace tpbisa::io
