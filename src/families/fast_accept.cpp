// The fast acceptor's start-up tables, each built once from the predicate body it stands for.
#include "families/fast_accept.hpp"

#include "core/predicates.hpp"

namespace tpbisa::family::detail {

ByteTable build_header_opcode_table() {
  ByteTable t;
  for (Generation g : kAllGenerations)
    for (unsigned op = 0; op < 256; ++op) {
      Header h;
      h.opcode = static_cast<uint8_t>(op);
      h.inst_word_len = kInstWordLen;
      if (pred::has_valid_neuron_header(h, g)) t.set(g, h.opcode);
    }
  return t;
}

std::array<ByteTable, 4> build_valid_dtype_tables() {
  std::array<ByteTable, 4> t{};
  for (unsigned k = 0; k < 4; ++k)
    for (Generation g : kAllGenerations) {
      CheckContext c{g, {}};
      c.options.dtype_enum_runtime = (k & 2U) != 0;
      for (unsigned d = 0; d < 256; ++d)
        if (pred::is_valid_dtype(static_cast<uint8_t>(d), (k & 1U) != 0, c)) t[k].set(g, static_cast<uint8_t>(d));
    }
  return t;
}

}  // namespace tpbisa::family::detail
