// The tpbisa subcommands, one register function each (cmd_NAME.cpp): each adds its CLI11 app and what to run.
#pragma once

#include "common.hpp"

namespace tpbisa::cli {

Command register_asm(CLI::App& parent);       ///< assemble a .tasm source into 64-byte words
Command register_catalog(CLI::App& parent);   ///< the ISA tables
Command register_decode(CLI::App& parent);    ///< every field of every word
Command register_disasm(CLI::App& parent);    ///< canonical assembly text
Command register_gen(CLI::App& parent);       ///< kernel NEFFs (the front end of tpbisa.gen)
Command register_lower(CLI::App& parent);     ///< pseudo words lowered with a variable table
Command register_neff(CLI::App& parent);      ///< info, ls, extract, pack, sems of NEFF containers
Command register_run(CLI::App& parent);       ///< a program on the functional simulator
Command register_trace(CLI::App& parent);     ///< a readable view of an execution trace
Command register_validate(CLI::App& parent);  ///< every failing predicate of every word

}  // namespace tpbisa::cli
