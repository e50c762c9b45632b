// The forms of a decoded word that `tpbisa decode` prints and the Python module returns: its status, its fields (with
// a NEFF's variable names), the JSON object of `tpbisa decode --json`, and the error object of the commands that read
// words.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tpbisa/describe.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/io/words.hpp"
#include "tpbisa/neff_debug.hpp"

namespace tpbisa::io {

/// "modeled", "not-modeled" or "unknown".
std::string_view decode_status_name(DecodeStatus s);
/// What a word's title says after its name: the format, "operands not modeled", or what the opcode is.
std::string decode_status_note(const Instruction& inst);

/// The word's fields described (tpbisa/describe.hpp); for a word of a NEFF stream, the def.json variables its DMA
/// operands name replace the generic meaning of the id and offset fields.
std::vector<DescribedField> described_fields(const WordSource& src, const Instruction& inst);

/// {"opcode", "inst_word_len", "debug_cmd", "debug_hint"} (the opcode as "0xNN").
nlohmann::ordered_json header_json(const Header& h);
/// The EVENTS bytes and their reading: modes as "0xNN" with their names (null when `g` has none), the text.
nlohmann::ordered_json events_json(const Events& e, Generation g);

/// Where word `index` of the source's current NEFF stream came from, by the NEFF's debug records
/// (tpbisa/neff_debug.hpp); nullopt for other inputs and for a stream without records. The records of the stream
/// read last are kept per thread, so a stream's words cost one reading of its records.
std::optional<neff::SourceLine> word_source(const WordSource& src, uint64_t index);
/// {"file", "line", "hlo", "op_type", "instruction"}, each null where the records do not say it.
nlohmann::ordered_json source_json(const neff::SourceLine& s);

/// One instruction of `tpbisa decode --json` (docs/cli.md): word `index` of the source's current stream; `source`
/// (source_json) for a word of a NEFF stream with debug records.
nlohmann::ordered_json decoded_json(const WordSource& src, uint64_t index, const Instruction& inst,
                                    std::span<const uint8_t, kWordBytes> word);

/// The "error" object of the JSON documents of decode, validate and lower: the input, the index and offset of the
/// word that failed, and `message` (the source's error unless the command says otherwise).
nlohmann::ordered_json input_error_json(const WordSource& src, std::string_view message);

}  // namespace tpbisa::io
