// The whole public API in one include: every header of include/tpbisa, layer by layer (lowest first).
#pragma once

// catalog: opcodes, dtypes, ALU ops and generations
#include "tpbisa/catalog.hpp"
#include "tpbisa/generation.hpp"

// isa: the formats and their fields, decode/encode, addresses, numerics, state, errors, validation's vocabulary
#include "tpbisa/address.hpp"
#include "tpbisa/effects.hpp"
#include "tpbisa/expected.hpp"
#include "tpbisa/fields.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/location.hpp"
#include "tpbisa/numerics.hpp"
#include "tpbisa/state.hpp"
#include "tpbisa/unit_state.hpp"
#include "tpbisa/validate.hpp"

// families: what the registered families model, pseudo lowering
#include "tpbisa/coverage.hpp"
#include "tpbisa/lower.hpp"

// text: descriptions and the assembly language
#include "tpbisa/describe.hpp"
#include "tpbisa/text.hpp"

// machine: the functional simulator
#include "tpbisa/machine.hpp"

// util: the output-file policy
#include "tpbisa/io/output_file.hpp"

// neff: the NEFF container, .npy headers, whole-program runs
#include "tpbisa/neff.hpp"
#include "tpbisa/neff_debug.hpp"
#include "tpbisa/neff_run.hpp"
#include "tpbisa/npy.hpp"

// io: the trace, the JSON forms and the input files of the command line and Python
#include "tpbisa/io/act_tables.hpp"
#include "tpbisa/io/arguments.hpp"
#include "tpbisa/io/catalog_tables.hpp"
#include "tpbisa/io/compare.hpp"
#include "tpbisa/io/decode_json.hpp"
#include "tpbisa/io/decode_text.hpp"
#include "tpbisa/io/disasm_text.hpp"
#include "tpbisa/io/dump.hpp"
#include "tpbisa/io/element.hpp"
#include "tpbisa/io/json.hpp"
#include "tpbisa/io/lower_report.hpp"
#include "tpbisa/io/neff_json.hpp"
#include "tpbisa/io/neff_pack.hpp"
#include "tpbisa/io/neff_run_files.hpp"
#include "tpbisa/io/neff_run_report.hpp"
#include "tpbisa/io/neff_run_text.hpp"
#include "tpbisa/io/neff_text.hpp"
#include "tpbisa/io/npy_file.hpp"
#include "tpbisa/io/program_words.hpp"
#include "tpbisa/io/progress.hpp"
#include "tpbisa/io/run_json.hpp"
#include "tpbisa/io/run_text.hpp"
#include "tpbisa/io/source_text.hpp"
#include "tpbisa/io/state.hpp"
#include "tpbisa/io/stream_run.hpp"
#include "tpbisa/io/text_out.hpp"
#include "tpbisa/io/timeline.hpp"
#include "tpbisa/io/trace_show.hpp"
#include "tpbisa/io/validate_stream.hpp"
#include "tpbisa/io/validate_text.hpp"
#include "tpbisa/io/vars.hpp"
#include "tpbisa/io/verdict_json.hpp"
#include "tpbisa/io/verdict_text.hpp"
#include "tpbisa/io/words.hpp"
#include "tpbisa/trace.hpp"
