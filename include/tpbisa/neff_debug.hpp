// What a NEFF word came from and what it names, for listings: the compiler's debug records (per word of an engine
// stream the kernel source line, the HLO operation and the compiler instruction; docs/neff.md, "Debug records") and
// the variables of a DMA word.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tpbisa/neff.hpp"

namespace tpbisa::neff {

/// Where one word came from, as the records say; a member is empty (line 0) when they do not say it.
struct SourceLine {
  std::string file;         ///< the kernel's source file: "/path/test_spike_async.py"
  uint64_t line = 0;        ///< its line, from 1
  std::string hlo;          ///< the HLO operation: "%op0 = dot(%x, %y)"
  std::string op_type;      ///< the HLO operation's op_type attribute: "NKIPy_Op"
  std::string instruction;  ///< the compiler's (BIR) instruction: "I-72-0"

  bool empty() const { return file.empty() && line == 0 && hlo.empty() && instruction.empty(); }
  /// "file:line", "file", or "" when the file is unknown.
  std::string location() const;
  bool operator==(const SourceLine&) const = default;
};

/// The source of every word of the stream of `engine` in `sg`, in stream order (one entry per word; an empty entry
/// for a word the records leave blank); nullopt when the NEFF has no readable assembly debug record for that stream
/// (def.json names none, the member is missing, or its bytes are not the protobuf records expected). Never throws:
/// the records are informative, and a damaged one only makes the source unknown.
std::optional<std::vector<SourceLine>> stream_source(const Neff& neff, const Subgraph& sg, Engine engine);

/// The two ends of a PseudoDmaDirect2d word in a few characters each, source then destination: a variable and the
/// offset in it ("x+0x0"), an SBUF variable's place ("sbuf[p0]+0x37c00"), "+reg" when an offset register adds to
/// it, "?" for an operand that names no variable; empty for other words (the listing of `tpbisa disasm`).
std::vector<std::string> dma_endpoints(const Subgraph& sg, const Instruction& inst);

}  // namespace tpbisa::neff
