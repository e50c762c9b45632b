// NEFF header fields (neff.md §2), the acceptance checks of §4 (PROJ-CONV-X2), the payload hash (§3, X1).
// libmd (MD5 and SHA-256 only) has no start-up work, where OpenSSL's EVP cost every command more than a millisecond
// (docs/performance-log.md, "NEFF reading").
#include <sys/types.h>

#include <md5.h>

#include <algorithm>
#include <cctype>
#include <cstring>

#include <fmt/format.h>

#include "neff/internal.hpp"
#include "tpbisa/neff.hpp"

namespace tpbisa::neff {
namespace {

// Field offsets of neff_header_t (§2); the static_assert below ties them to the documented total.
constexpr size_t kOffPkgVersion = 0x000;
constexpr size_t kOffHeaderSize = 0x008;
constexpr size_t kOffDataSize = 0x010;
constexpr size_t kOffVersionMajor = 0x018;
constexpr size_t kOffVersionMinor = 0x020;
constexpr size_t kOffBuildVersion = 0x028;
constexpr size_t kOffNumTpb = 0x0A8;
constexpr size_t kOffHash = 0x0AC;
constexpr size_t kOffUuid = 0x0CC;
constexpr size_t kOffName = 0x0DC;
constexpr size_t kOffRequestedTpb = 0x1DC;
constexpr size_t kOffTpbPerNode = 0x1E0;
constexpr size_t kOffFeatureBits = 0x220;
constexpr size_t kOffLncSize = 0x228;
constexpr size_t kOffPad = 0x22C;
static_assert(kOffPad + sizeof(Header::pad) == kHeaderBytes);
static_assert(kOffBuildVersion + kBuildVersionBytes == kOffNumTpb && kOffNumTpb + 4 == kOffHash &&
              kOffHash + 32 == kOffUuid && kOffUuid + 16 == kOffName && kOffName + kNameBytes == kOffRequestedTpb &&
              kOffRequestedTpb + 4 == kOffTpbPerNode && kOffTpbPerNode + 64 == kOffFeatureBits &&
              kOffFeatureBits + 8 == kOffLncSize && kOffLncSize + 4 == kOffPad);

template <size_t N>
std::string c_string(const std::array<uint8_t, N>& bytes) {
  const auto end = std::find(bytes.begin(), bytes.end(), uint8_t{0});
  return std::string(bytes.begin(), end);
}

template <size_t N>
void set_c_string(std::array<uint8_t, N>& bytes, std::string_view text) {
  bytes.fill(0);
  std::memcpy(bytes.data(), text.data(), std::min(text.size(), N - 1));
}

template <size_t N>
void copy_out(const uint8_t* p, std::array<uint8_t, N>& a) {
  std::memcpy(a.data(), p, N);
}

std::vector<uint8_t> md5_digest(std::span<const uint8_t> data) {
  std::vector<uint8_t> out(MD5_DIGEST_LENGTH);
  MD5_CTX ctx;
  MD5Init(&ctx);
  MD5Update(&ctx, data.data(), data.size());
  MD5Final(out.data(), &ctx);
  return out;
}

}  // namespace

std::string_view to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::Io: return "io";
    case ErrorCode::TooSmall: return "too-small";
    case ErrorCode::HeaderSize: return "header-size";
    case ErrorCode::MajorVersion: return "major-version";
    case ErrorCode::PayloadSize: return "payload-size";
    case ErrorCode::FeatureBits: return "feature-bits";
    case ErrorCode::PkgVersion: return "pkg-version";
    case ErrorCode::Hash: return "hash";
    case ErrorCode::Gzip: return "gzip";
    case ErrorCode::Trailing: return "trailing";
    case ErrorCode::Tar: return "tar";
    case ErrorCode::MemberName: return "member-name";
    case ErrorCode::MemberType: return "member-type";
    case ErrorCode::DuplicateMember: return "duplicate-member";
    case ErrorCode::Limit: return "limit";
    case ErrorCode::Json: return "json";
    case ErrorCode::MissingMember: return "missing-member";
    case ErrorCode::Definition: return "definition";
    case ErrorCode::StreamSize: return "stream-size";
    case ErrorCode::Npy: return "npy";
    case ErrorCode::Write: return "write";
  }
  return "unknown";
}

std::string Error::to_string() const {
  if (member.empty()) return escape_text(fmt::format("{}: {}", file, message));
  return escape_text(fmt::format("{}: {}: {}", file, member, message));
}

std::string escape_text(std::string_view text, bool one_line) {
  std::string out;
  out.reserve(text.size());
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  const size_t n = text.size();
  for (size_t i = 0; i < n;) {
    const uint8_t c = p[i];
    if (c < 0x80) {
      if (one_line && (c < 0x20 || c == 0x7F))
        out += fmt::format("\\x{:02x}", c);
      else
        out += static_cast<char>(c);
      ++i;
      continue;
    }
    // A well-formed sequence (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF) is kept whole.
    size_t len = 0;
    uint8_t lo = 0x80, hi = 0xBF;  // the range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    }
    bool ok = len != 0 && i + len <= n && p[i + 1] >= lo && p[i + 1] <= hi;
    for (size_t k = 2; ok && k < len; ++k) ok = p[i + k] >= 0x80 && p[i + k] <= 0xBF;
    if (ok) {
      out.append(text.substr(i, len));
      i += len;
    } else {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    }
  }
  return out;
}

std::string Header::name_text() const {
  return c_string(name);
}
std::string Header::build_version_text() const {
  return c_string(neff_build_version);
}
void Header::set_name(std::string_view text) {
  set_c_string(name, text);
}
void Header::set_build_version(std::string_view text) {
  set_c_string(neff_build_version, text);
}

Header parse_header(std::span<const uint8_t, kHeaderBytes> b) {
  const uint8_t* p = b.data();
  Header h;
  h.pkg_version = load_le<uint64_t>(p + kOffPkgVersion);
  h.header_size = load_le<uint64_t>(p + kOffHeaderSize);
  h.data_size = load_le<uint64_t>(p + kOffDataSize);
  h.neff_version_major = load_le<uint64_t>(p + kOffVersionMajor);
  h.neff_version_minor = load_le<uint64_t>(p + kOffVersionMinor);
  copy_out(p + kOffBuildVersion, h.neff_build_version);
  h.num_tpb = load_le<uint32_t>(p + kOffNumTpb);
  copy_out(p + kOffHash, h.hash);
  copy_out(p + kOffUuid, h.uuid);
  copy_out(p + kOffName, h.name);
  h.requested_tpb_count = load_le<uint32_t>(p + kOffRequestedTpb);
  copy_out(p + kOffTpbPerNode, h.tpb_per_node);
  h.feature_bits = load_le<uint64_t>(p + kOffFeatureBits);
  h.lnc_size = load_le<uint32_t>(p + kOffLncSize);
  copy_out(p + kOffPad, h.pad);
  return h;
}

std::array<uint8_t, kHeaderBytes> encode_header(const Header& h) {
  std::array<uint8_t, kHeaderBytes> out{};
  uint8_t* p = out.data();
  store_le<uint64_t>(p + kOffPkgVersion, h.pkg_version);
  store_le<uint64_t>(p + kOffHeaderSize, h.header_size);
  store_le<uint64_t>(p + kOffDataSize, h.data_size);
  store_le<uint64_t>(p + kOffVersionMajor, h.neff_version_major);
  store_le<uint64_t>(p + kOffVersionMinor, h.neff_version_minor);
  std::memcpy(p + kOffBuildVersion, h.neff_build_version.data(), kBuildVersionBytes);
  store_le<uint32_t>(p + kOffNumTpb, h.num_tpb);
  std::memcpy(p + kOffHash, h.hash.data(), h.hash.size());
  std::memcpy(p + kOffUuid, h.uuid.data(), h.uuid.size());
  std::memcpy(p + kOffName, h.name.data(), kNameBytes);
  store_le<uint32_t>(p + kOffRequestedTpb, h.requested_tpb_count);
  std::memcpy(p + kOffTpbPerNode, h.tpb_per_node.data(), h.tpb_per_node.size());
  store_le<uint64_t>(p + kOffFeatureBits, h.feature_bits);
  store_le<uint32_t>(p + kOffLncSize, h.lnc_size);
  std::memcpy(p + kOffPad, h.pad.data(), h.pad.size());
  return out;
}

bool is_neff(std::span<const uint8_t> first) {
  if (first.size() < 16) return false;
  const uint64_t pkg = load_le<uint64_t>(first.data() + kOffPkgVersion);
  const uint64_t header_size = load_le<uint64_t>(first.data() + kOffHeaderSize);
  // header_size 0 is a header too: check_header's gate (§4) accepts it, and one detector must give one answer.
  return (pkg == 1 || pkg == 2) && header_size < (uint64_t{1} << 32);
}

Result<Header> check_header(std::span<const uint8_t> file, std::string_view label) {
  if (file.size() < kHeaderBytes) return detail::check_header(file, file.size(), label);
  return detail::check_header(file.first<kHeaderBytes>(), file.size(), label);
}

Result<Header> detail::check_header(std::span<const uint8_t> head, uint64_t file_size, std::string_view label) {
  const auto fail = [&](ErrorCode code, std::string message) -> Result<Header> {
    return Error{code, std::string(label), "", std::move(message)};
  };
  // The runtime's gates in its order (PROJ-CONV-X2); the first failure is reported.
  if (file_size < kHeaderBytes || head.size() < kHeaderBytes)
    return fail(ErrorCode::TooSmall,
                fmt::format("{} bytes is too small for a NEFF: the header alone is {} bytes", file_size, kHeaderBytes));
  const Header h = parse_header(head.first<kHeaderBytes>());
  if (h.header_size >= file_size)
    return fail(ErrorCode::HeaderSize,
                fmt::format("header_size {} is not smaller than the file ({} bytes)", h.header_size, file_size));
  if (h.neff_version_major > 2)
    return fail(ErrorCode::MajorVersion,
                fmt::format("neff_version_major {} is not supported (at most 2)", h.neff_version_major));
  const uint64_t after_header = file_size - kPayloadOffset;
  if (h.data_size > after_header)
    return fail(ErrorCode::PayloadSize,
                fmt::format("data_size {} exceeds the {} bytes after the header", h.data_size, after_header));
  if (h.neff_version_major == 2 && (h.feature_bits & kFeatureGateMask) != 0)
    return fail(ErrorCode::FeatureBits,
                fmt::format("feature_bits 0x{:x} set unsupported bits 0x{:x} (bits 27..62 are refused)", h.feature_bits,
                            h.feature_bits & kFeatureGateMask));
  if (h.pkg_version != 1 && h.pkg_version != 2)
    return fail(ErrorCode::PkgVersion,
                fmt::format("pkg_version {} is not a known packaging (1 plain tar, 2 gzip tar)", h.pkg_version));
  return h;
}

std::string_view to_string(HashOrder order) {
  return order == HashOrder::Natural ? "natural" : "word-le";
}

std::vector<uint8_t> payload_digest(uint64_t pkg_version, std::span<const uint8_t> window) {
  if (pkg_version == 2) return md5_digest(window);
  if (pkg_version == 1) return detail::sha256(window);
  return {};
}

std::array<uint8_t, 32> stored_hash(std::span<const uint8_t> digest, HashOrder order) {
  std::array<uint8_t, 32> out{};
  const size_t n = std::min(digest.size(), out.size());
  std::copy_n(digest.begin(), n, out.begin());
  if (order == HashOrder::WordLE)
    for (size_t i = 0; i + 4 <= n; i += 4)
      std::reverse(out.begin() + static_cast<ptrdiff_t>(i), out.begin() + static_cast<ptrdiff_t>(i + 4));
  return out;
}

HashCheck detail::check_hash(const Header& h, std::span<const uint8_t> window) {
  HashCheck c;
  c.algorithm = h.pkg_version == 1 ? "sha256" : "md5";
  c.computed = payload_digest(h.pkg_version, window);
  // pkg 2 compares the first 16 bytes only: producers leave zeros or '0' characters after the MD5.
  c.stored.assign(h.hash.begin(), h.hash.begin() + static_cast<ptrdiff_t>(c.computed.size()));
  for (HashOrder order : {HashOrder::Natural, HashOrder::WordLE}) {
    const std::array<uint8_t, 32> want = stored_hash(c.computed, order);
    if (std::equal(c.stored.begin(), c.stored.end(), want.begin())) {
      c.matched = order;
      break;
    }
  }
  return c;
}

std::string_view engine_name(Engine e) {
  constexpr std::array<std::string_view, 5> kNames{"PE", "Activation", "Pool", "DVE", "SP"};
  return kNames[static_cast<size_t>(e)];
}

std::string_view engine_key(Engine e) {
  constexpr std::array<std::string_view, 5> kKeys{"pe", "act", "pool", "dve", "sp"};
  return kKeys[static_cast<size_t>(e)];
}

std::optional<Engine> parse_engine(std::string_view text) {
  const auto lower = [](std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  const std::string t = lower(text);
  for (Engine e : kEngines)
    if (t == lower(engine_name(e)) || t == engine_key(e)) return e;
  return std::nullopt;
}

}  // namespace tpbisa::neff
