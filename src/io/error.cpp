// Names of the error kinds (tpbisa/expected.hpp).
#include "tpbisa/expected.hpp"

namespace tpbisa {

std::string_view to_string(ErrorKind k) {
  switch (k) {
    case ErrorKind::Syntax: return "syntax";
    case ErrorKind::Range: return "range";
    case ErrorKind::Open: return "open";
    case ErrorKind::Read: return "read";
    case ErrorKind::Write: return "write";
    case ErrorKind::TooLarge: return "too-large";
    case ErrorKind::Malformed: return "malformed";
    case ErrorKind::Invalid: return "invalid";
    case ErrorKind::Refused: return "refused";
  }
  return "invalid";
}

}  // namespace tpbisa
