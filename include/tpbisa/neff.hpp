// The NEFF container (spec neff.md): header, hash, gzip/tar payload and the model the compiler's files describe.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "tpbisa/catalog.hpp"
#include "tpbisa/formats.hpp"
#include "tpbisa/generation.hpp"
#include "tpbisa/instruction.hpp"
#include "tpbisa/npy.hpp"

namespace tpbisa::neff {

inline constexpr size_t kHeaderBytes = 1024;       ///< neff.md §2
inline constexpr size_t kPayloadOffset = 0x400;    ///< the payload is read here whatever header_size says (§4)
inline constexpr size_t kNameBytes = 256;          ///< header `name`
inline constexpr size_t kBuildVersionBytes = 128;  ///< header `neff_build_version`
inline constexpr uint64_t kFeatureGateMask = 0x7FFFFFFFF8000000ULL;  ///< bits 27..62 refused (§4)

// ---- errors ----

/// Which check failed. Every value is documented in docs/neff.md.
enum class ErrorCode : uint8_t {
  Io,               ///< the file cannot be opened or read
  TooSmall,         ///< shorter than the 1024-byte header (§4 minimum size)
  HeaderSize,       ///< header_size is not smaller than the file (§4)
  MajorVersion,     ///< neff_version_major > 2 (§4)
  PayloadSize,      ///< data_size exceeds the bytes after the header (§4)
  FeatureBits,      ///< a feature bit in 27..62 is set (§4)
  PkgVersion,       ///< pkg_version is neither 1 nor 2 (§4)
  Hash,             ///< the stored hash matches neither byte order (only with verify_hash, PROJ-CONV-X1)
  Gzip,             ///< the pkg 2 payload is not one well-formed gzip member (PROJ-CONV-X3)
  Trailing,         ///< bytes after the gzip member or after the payload window (only with strict_trailing)
  Tar,              ///< the archive is malformed
  MemberName,       ///< an absolute name, a `..` component, a non-canonical or control-character name
  MemberType,       ///< a symbolic link, hard link, device, FIFO, socket or sparse member
  DuplicateMember,  ///< two members with one name, or a name that is both a file and a folder
  Limit,            ///< a declared or inflated size beyond a ReadOptions bound
  Json,             ///< a JSON member that does not parse, or is too large or too deeply nested
  MissingMember,    ///< a member the container needs (or a JSON file names) is absent
  Definition,       ///< a JSON member lacks a key or has a value of the wrong kind
  StreamSize,       ///< an instruction stream whose size is not a multiple of 64 (PROJ-CONV-X6)
  Npy,              ///< a constant's .npy header is malformed
  Write,            ///< writing (pack, extract) failed
};

/// "hash", "gzip", "member-name", ...: the check's short name (docs/neff.md lists them).
std::string_view to_string(ErrorCode code);

/// A failed check: the file, the archive member when one is concerned, and what is wrong.
struct Error {
  ErrorCode code = ErrorCode::Io;
  std::string file;
  std::string member;  ///< empty for container-level checks
  std::string message;
  /// "FILE: MEMBER: MESSAGE" (or "FILE: MESSAGE") on one line: control characters and bytes that are not UTF-8
  /// (names come from the container) are escaped as by escape_text.
  std::string to_string() const;
};

/// Text from a container made safe to print: every byte that is not part of well-formed UTF-8 as `\xNN`, and with
/// `one_line` every control character too (a newline, an escape sequence); valid UTF-8 is kept. Names and header
/// strings are bytes, and JSON output and Python strings need UTF-8.
std::string escape_text(std::string_view text, bool one_line = true);

/// A value or the error that prevented it.
template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

/// Something the reader accepted but a user should know (a hash mismatch, padding that is not zero, ...).
struct Warning {
  std::string member;
  std::string message;
};

// ---- header (§2) ----

struct Header {
  uint64_t pkg_version = 2;
  uint64_t header_size = kHeaderBytes;
  uint64_t data_size = 0;
  uint64_t neff_version_major = 2;
  uint64_t neff_version_minor = 0;
  std::array<uint8_t, kBuildVersionBytes> neff_build_version{};
  uint32_t num_tpb = 1;  ///< 0x0A8 (runtime name unused_0): reported, never interpreted
  std::array<uint8_t, 32> hash{};
  std::array<uint8_t, 16> uuid{};
  std::array<uint8_t, kNameBytes> name{};
  uint32_t requested_tpb_count = 1;
  std::array<uint8_t, 64> tpb_per_node{};
  uint64_t feature_bits = 0;
  uint32_t lnc_size = 1;
  std::array<uint8_t, 468> pad{};

  /// `name` and `neff_build_version` up to their first NUL.
  std::string name_text() const;
  std::string build_version_text() const;
  void set_name(std::string_view text);           ///< truncated to 255 bytes, NUL-padded
  void set_build_version(std::string_view text);  ///< truncated to 127 bytes, NUL-padded
  bool operator==(const Header&) const = default;
};

/// Reads the 1024 header bytes (little-endian fields at the offsets of §2).
Header parse_header(std::span<const uint8_t, kHeaderBytes> bytes);
/// Writes the header back; encode_header(parse_header(b)) == b for any 1024 bytes.
std::array<uint8_t, kHeaderBytes> encode_header(const Header& h);

/// A cheap look at the first bytes of an input: true when they start a NEFF header (pkg_version 1 or 2 and a
/// header_size below 2^32, 0 included: the §4 gate accepts any header_size below the file's size), which no valid
/// instruction word does (its byte 1, inst_word_len, is 16). Needs 16 bytes; fewer is never a NEFF.
bool is_neff(std::span<const uint8_t> first_bytes);

// ---- hash (§3, PROJ-CONV-X1) ----

enum class HashOrder : uint8_t {
  Natural,  ///< the digest's bytes as computed
  WordLE,   ///< every 4-byte group reversed (the real file's form)
};
std::string_view to_string(HashOrder order);  ///< "natural", "word-le"

struct HashCheck {
  std::string algorithm;  ///< "md5" (pkg 2) or "sha256" (pkg 1)
  std::vector<uint8_t> computed;
  std::vector<uint8_t> stored;       ///< the bytes compared: 16 (md5) or 32 (sha256)
  std::optional<HashOrder> matched;  ///< nullopt = mismatch (or not computed)
  bool computed_skipped = false;     ///< ReadOptions::hash was off: nothing computed, nothing compared
};

/// The digest of the payload window for `pkg_version` (1: SHA-256, 2: MD5); empty for any other version.
std::vector<uint8_t> payload_digest(uint64_t pkg_version, std::span<const uint8_t> window);
/// The digest laid out as the header stores it in `order` (32 bytes, zero after an MD5).
std::array<uint8_t, 32> stored_hash(std::span<const uint8_t> digest, HashOrder order);

// ---- the model ----

/// The five instruction engines in the runtime's order (neff.md §7.1): the catalog's engine enum.
using Engine = tpbisa::Engine;
using tpbisa::kEngines;
/// The stream label part: "PE", "Activation", "Pool", "DVE", "SP".
std::string_view engine_name(Engine e);
/// The def.json key prefix: "pe", "act", "pool", "dve", "sp".
std::string_view engine_key(Engine e);
/// Either spelling, case-insensitive (also "ACT", "POOL").
std::optional<Engine> parse_engine(std::string_view text);

/// One engine's instruction words: a flat array of 64-byte words (§7.1).
/// A stream's words: a view of the member that holds them (no copy, however large the program), until a word is
/// changed through the non-const operator[] or assigned: then the stream holds its own copy, which copies of the
/// model copy with it.
class StreamBytes {
 public:
  StreamBytes() = default;
  explicit StreamBytes(std::span<const uint8_t> view) : view_(view) {}
  StreamBytes(const StreamBytes& other) { *this = other; }
  StreamBytes& operator=(const StreamBytes& other) {
    if (this == &other) return *this;
    owned_ = other.owned_;
    view_ = other.owns() ? std::span<const uint8_t>(owned_) : other.view_;
    return *this;
  }
  StreamBytes(StreamBytes&& other) noexcept { *this = std::move(other); }
  StreamBytes& operator=(StreamBytes&& other) noexcept {
    if (this == &other) return *this;
    const bool owned = other.owns();
    owned_ = std::move(other.owned_);  // the buffer moves with its address
    view_ = owned ? std::span<const uint8_t>(owned_) : other.view_;
    other.view_ = {};
    return *this;
  }
  /// The stream becomes a copy of `bytes`.
  StreamBytes& operator=(std::vector<uint8_t> bytes) {
    owned_ = std::move(bytes);
    view_ = owned_;
    return *this;
  }

  const uint8_t* data() const { return view_.data(); }
  size_t size() const { return view_.size(); }
  bool empty() const { return view_.empty(); }
  auto begin() const { return view_.begin(); }
  auto end() const { return view_.end(); }
  const uint8_t& operator[](size_t i) const { return view_[i]; }
  /// A byte to change: the stream first takes a copy of its words.
  uint8_t& operator[](size_t i) {
    if (!owns()) *this = std::vector<uint8_t>(view_.begin(), view_.end());
    return owned_[i];
  }
  operator std::span<const uint8_t>() const { return view_; }  // NOLINT(google-explicit-constructor): a view
  friend bool operator==(const StreamBytes& a, const StreamBytes& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator==(const StreamBytes& a, const std::vector<uint8_t>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  bool owns() const { return !owned_.empty() && view_.data() == owned_.data(); }
  std::span<const uint8_t> view_;
  std::vector<uint8_t> owned_;
};

struct Stream {
  std::string subgraph;  ///< "sg00"
  Engine engine = Engine::Pe;
  std::string member;  ///< archive member holding the words: "sg00/PE.bin"
  /// The member's words, viewed in Neff::member_data (valid while a copy of that Neff lives); the subgraphs' streams
  /// together are still bounded by max_inflated_bytes, as when each was a copy.
  StreamBytes bytes;

  size_t word_count() const { return bytes.size() / kWordBytes; }
  std::span<const uint8_t, kWordBytes> word(size_t i) const {
    return std::span<const uint8_t, kWordBytes>(bytes.data() + i * kWordBytes, kWordBytes);
  }
  /// "sg00/PE"; a word is "sg00/PE#12".
  std::string label() const;
};

/// One descriptor of a DMA block, variables by name (PROJ-CONV-PS4).
struct DmaDescriptor {
  std::string from, to;
  uint64_t from_off = 0, to_off = 0, size = 0;
};

/// One block of an engine JSON's `dma` list: the descriptors a PSEUDO_DMATRIGGER of `queue` fires.
struct DmaBlock {
  std::string queue;
  uint64_t id = 0;
  std::vector<DmaDescriptor> descriptors;
};

/// An engine of a subgraph: its engine JSON and its stream.
struct EngineDef {
  Engine engine = Engine::Pe;
  std::string json_member;     ///< "sg00/PE.json"
  size_t dma_descriptors = 0;  ///< entries of the engine JSON's `dma` list
  /// The entries of `dma` that are blocks: {"queue", "id", "desc": [{"from", "from_off", "to", "to_off", "size"}]}
  /// (PROJ-CONV-PS4); the others are counted only.
  std::vector<DmaBlock> dma_blocks;
  std::vector<std::string> tables;        ///< DVE: the tables of `dve_tables`; ACT: `activation_function_sets`
  std::optional<uint64_t> act_semaphore;  ///< Activation.json `act_semaphore` (purpose unknown, reported)
  Stream stream;
};

enum class VarType : uint8_t { StateBuffer, Input, Output, File, TmpBuf, Virtual, Pointer, DgeTable, Other };
/// The def.json spelling: "state-buffer", "input", ...; "other" for Other.
std::string_view to_string(VarType t);

/// A constant loaded from an archive member (variables of type `file`).
struct Constant {
  std::string member;  ///< "sg00/value_sg0000_identity_82_CRSM.npy"
  uint64_t member_bytes = 0;
  std::optional<npy::Array> array;  ///< set for .npy members (data bytes inside the member); raw otherwise
};

/// One def.json `var` entry (§6.2). Sizes and offsets are 64-bit.
struct Variable {
  std::string name;
  uint32_t id = 0;
  VarType type = VarType::Other;
  std::string type_name;  ///< as written (kept for Other)
  std::optional<uint64_t> size;
  std::optional<uint64_t> alignment;
  std::string fabric_path;
  std::string file_name;                      ///< `file`: the member, relative to the subgraph folder
  std::optional<uint64_t> backing_offset;     ///< `virtual`: backing_variable_off (PROJ-CONV-X8)
  std::optional<uint32_t> referenced_var_id;  ///< `pointer`
  std::vector<uint32_t> list;                 ///< `dge-table`: entry i names var_id list[i]
  std::optional<Constant> constant;           ///< `file`
};

/// A DMA queue set of def.json `dma_queue` (§6.1).
struct QueueSet {
  std::string name;
  std::string type;
  std::string owner;                   ///< as written ("sp", "pool", "act", ...)
  std::optional<Engine> owner_engine;  ///< owner as an engine, when it names one
  uint32_t num_queues = 0;
  std::vector<uint32_t> semaphores;  ///< `semaphore_set`
  std::string fabric_path;
};

/// One def.json `runtime_statebuffer_reservation` entry (§6): SBUF bytes the runtime keeps for itself.
struct SbufReservation {
  uint32_t base_partition = 0;
  uint32_t partitions = 0;
  uint64_t offset = 0;  ///< byte inside each partition
  uint64_t size = 0;
  std::string type;  ///< "evtaccel"
};

/// One subgraph: loaded onto its own core (§7.3).
struct Subgraph {
  std::string name;                  ///< kelf `name`: "sg00"
  std::string definition;            ///< "sg00/def.json"
  std::string folder;                ///< "sg00" (member names in def.json are relative to it)
  std::string version;               ///< def.json `version`
  std::vector<EngineDef> engines;    ///< in engine order; an engine def.json does not name is absent
  std::vector<Variable> variables;   ///< by var_id
  std::vector<QueueSet> queue_sets;  ///< by name
  /// PROJ-CONV-X8: the private scratch buffer behind the virtual variables, max(backing_variable_off + size).
  uint64_t virtual_scratch_bytes = 0;
  std::optional<uint64_t> runtime_event_count;
  std::optional<uint64_t> runtime_semaphore_count;
  std::vector<SbufReservation> sbuf_reservations;  ///< `runtime_statebuffer_reservation`

  const EngineDef* engine(Engine e) const;
  const Variable* variable(uint32_t id) const;
  const Variable* variable(std::string_view var_name) const;
  /// PROJ-CONV-F12: the dge-table variable with the lowest var_id, or nullptr.
  const Variable* dge_table() const;
};

/// An input or output of the compiled graph (neff.json).
struct Tensor {
  std::string name;
  std::string dtype;  ///< "float16", ...
  std::vector<uint64_t> shape;
};

/// What a member is, for `neff ls`.
enum class MemberKind : uint8_t {
  Graph,       ///< neff.json
  Kelf,        ///< the subgraph list
  Info,        ///< info.json
  Definition,  ///< a subgraph's def.json
  EngineJson,  ///< an engine description
  Stream,      ///< an instruction stream
  DveTable,    ///< a DVE table named by DVE.json
  Activation,  ///< an activation function set or act_info
  Constant,    ///< a file variable's data
  TensorMap,   ///< tensor_map.json (informative)
  Debug,       ///< compiler debug records (.dbg)
  Skipped,     ///< "*wavegraph-bin.json": kept, not interpreted (PROJ-CONV-X4)
  Other,
};
std::string_view to_string(MemberKind k);  ///< "graph", "kelf", "info", "definition", "engine", ...

/// The members' bytes, back to back in archive order, in one buffer that holds at most `capacity` bytes. It starts
/// on the heap, sized for what a container of its window usually holds (reused by the allocator from read to read);
/// past that it moves once, into a reservation of address space for the whole capacity that never moves again and is
/// resident only as it is written. So reading holds about the members' own size at every moment (at most
/// kMemberHeapBytes more), never the twice of a growing buffer's copies.
class MemberData {
 public:
  static constexpr uint64_t kMemberHeapBytes = uint64_t{16} << 20;  ///< most the heap start may be

  MemberData() = default;
  /// Sets the most the buffer may hold, and starts it with room for `expected` bytes (at most capacity and
  /// kMemberHeapBytes); false when it cannot.
  bool reserve(uint64_t capacity, uint64_t expected);
  ~MemberData();
  MemberData(const MemberData&) = delete;
  MemberData& operator=(const MemberData&) = delete;
  MemberData(MemberData&& other) noexcept;
  MemberData& operator=(MemberData&& other) noexcept;
  /// Appends n bytes; false (nothing appended) beyond the capacity, or when the reservation cannot be made.
  bool append(const uint8_t* bytes, size_t n);
  /// Gives back what the buffer holds beyond the bytes appended (a reservation's tail).
  void trim();
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  /// Bytes the buffer can hold without moving.
  size_t room() const { return room_; }
  /// The buffer moved to its reservation (it outgrew the heap start).
  bool mapped() const { return mapped_; }
  /// Keeps a read-only mapping of the container (its payload window) that members view in place of a copy; it is
  /// unmapped with the buffer.
  void keep_window(void* base, size_t length);

 private:
  void release();
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t room_ = 0;        ///< the heap start's size, or the reservation's (a whole number of pages)
  uint64_t capacity_ = 0;  ///< the most it may hold
  bool mapped_ = false;
  void* window_ = nullptr;  ///< keep_window's mapping
  size_t window_length_ = 0;
};

struct Member {
  std::string name;  ///< normalised (no leading "./")
  /// The member's bytes: read members view Neff::member_data (valid while a copy of that Neff lives).
  std::span<const uint8_t> bytes;
  MemberKind kind = MemberKind::Other;
  std::string role;  ///< what it is in a few words: "sg00/PE stream, 12 words"
};

/// How the payload was packaged and how much of the window it used.
struct PayloadInfo {
  uint64_t window_bytes = 0;      ///< data_size
  uint64_t compressed_bytes = 0;  ///< pkg 2: bytes of the gzip member
  uint64_t padding_bytes = 0;     ///< pkg 2: window bytes after the gzip member
  bool padding_zero = true;
  uint64_t tar_bytes = 0;           ///< bytes of the tar archive
  uint64_t bytes_after_window = 0;  ///< file bytes after header + data_size
};

struct Neff {
  std::string file;  ///< the label errors and output use
  uint64_t file_size = 0;
  Header header;
  HashCheck hash;
  PayloadInfo payload;
  std::vector<Member> members;  ///< in archive order
  /// Every member's bytes, one after the other in archive order: the buffer Member::bytes views (shared by copies).
  std::shared_ptr<const MemberData> member_data;
  std::string kelf_member;  ///< "kelf-0.json"
  std::string kelf_version;
  std::string target;                    ///< kelf `target`: "cayman"
  std::optional<Generation> generation;  ///< from target (PROJ-CONV-X7); nullopt for "*" or unknown
  std::string compiler_version;          ///< info.json `tool_version`
  std::vector<Subgraph> subgraphs;
  std::vector<Tensor> inputs;
  std::vector<Tensor> outputs;
  std::vector<Warning> warnings;

  const Member* member(std::string_view name) const;
  /// The subgraph of that kelf name ("sg00"), or nullptr.
  const Subgraph* subgraph(std::string_view name) const;
  /// Every engine stream in subgraph then engine order: what decode/validate/disasm iterate.
  std::vector<const Stream*> streams() const;
};

// ---- reading ----

inline constexpr uint64_t kDefaultMaxInflatedBytes = uint64_t{1} << 30;  ///< 1 GiB of tar in total
inline constexpr uint64_t kDefaultMaxMemberBytes = uint64_t{512} << 20;  ///< 512 MiB per member
inline constexpr uint64_t kDefaultMaxMembers = 65536;
inline constexpr uint64_t kDefaultMaxJsonBytes = uint64_t{64} << 20;  ///< 64 MiB per JSON member
inline constexpr unsigned kDefaultMaxJsonDepth = 64;
inline constexpr uint64_t kDefaultMaxSubgraphs = 256;  ///< kelf graphs: the cores of a run

struct ReadOptions {
  bool verify_hash = false;      ///< PROJ-CONV-X1: a hash mismatch is an error (default: a warning)
  bool strict_trailing = false;  ///< PROJ-CONV-X3: bytes after the gzip member or the window are an error
  uint64_t max_inflated_bytes = kDefaultMaxInflatedBytes;
  uint64_t max_member_bytes = kDefaultMaxMemberBytes;
  uint64_t max_members = kDefaultMaxMembers;
  uint64_t max_json_bytes = kDefaultMaxJsonBytes;
  unsigned max_json_depth = kDefaultMaxJsonDepth;
  uint64_t max_subgraphs = kDefaultMaxSubgraphs;
  /// Compute the payload hash and compare it (PROJ-CONV-X1). Off (`validate --no-hash-check`): not computed, no
  /// mismatch warning, HashCheck::computed_skipped set; verify_hash computes it regardless.
  bool hash = true;
};

/// The header and acceptance checks of §4 alone (PROJ-CONV-X2, in that order, first failure); the hash is not
/// computed. For `neff info` on a file whose payload is broken, and for detectors that need more than is_neff.
Result<Header> check_header(std::span<const uint8_t> file, std::string_view label);

/// Reads a whole NEFF held in memory (§8). `label` names the file in errors and warnings. The data_size window may
/// not exceed max_inflated_bytes (check `limit`).
Result<Neff> read(std::span<const uint8_t> file, std::string_view label, const ReadOptions& options = {});
/// Reads a NEFF file: its 1024-byte header first, checked (§4) against the file's size, then only the data_size
/// window (at most max_inflated_bytes, check `limit`); the bytes after the window are counted, never read. A path
/// that is not a regular file is refused (check `io`) without waiting on it (a FIFO).
Result<Neff> read_file(const std::string& path, const ReadOptions& options = {});
/// Reads a NEFF from an open stream (stdin, a pipe, a file) of which `head` holds the first bytes, already read.
/// A regular file is read as read_file reads it; any other stream up to its end, holding only the header and the
/// window and counting the rest, and refused (check `limit`) once it passes max_inflated_bytes + 1024 bytes.
Result<Neff> read_stream(std::FILE* file, std::span<const uint8_t> head, std::string_view label,
                         const ReadOptions& options = {});

// ---- the static semaphore picture ----

/// One use of a semaphore by one word.
struct SemUse {
  enum class Kind : uint8_t { Wait, Update, DmaCompletion };
  Kind kind = Kind::Wait;
  std::string stream;  ///< "sg00/PE"
  size_t word = 0;     ///< index in the stream
  std::string mnemonic;
  uint8_t mode = 0;       ///< wait or update mode (0 for DMA completions)
  uint32_t value = 0;     ///< comparand, operand, or the DMA's increment
  std::string text;       ///< "$S[24]>=16", "$S[22]++@complete", "+16 on completion"
  std::string queue_set;  ///< DMA completions: the queue set whose semaphore_set holds the semaphore
  std::string note;       ///< e.g. a DMA issued by an engine that does not own the queue set
};

struct SemaphoreUses {
  uint32_t index = 0;
  std::vector<SemUse> waits;
  std::vector<SemUse> increments;       ///< updates and DMA completions
  std::vector<std::string> queue_sets;  ///< queue sets whose semaphore_set holds it
};

struct SubgraphSems {
  std::string subgraph;
  std::vector<SemaphoreUses> semaphores;  ///< every semaphore some word waits on or raises, by index
  bool branches = false;  ///< some word of the subgraph is a branch (a CTRL_BR opcode): a loop may repeat its raises
};

/// Words of a stream the semaphore picture looks at as one task (a large program's ranges run on oneTBB's threads).
inline constexpr size_t kSemaphorePictureRangeWords = size_t{1} << 16;

/// For every subgraph and semaphore: which words wait on it and which increment it (event updates, the
/// extended lane of EventSemaphore, PseudoDmaDirect2d completions with their queue set). Generation:
/// the NEFF's, or `fallback` when its target names none. `range_words` (at least 1) splits each stream into
/// ranges looked at apart and joined in order: the picture is the same for every value.
std::vector<SubgraphSems> semaphore_picture(const Neff& neff, Generation fallback = kDefaultGeneration,
                                            size_t range_words = kSemaphorePictureRangeWords);

// ---- program-level checks (docs/neff.md, "Program checks") ----

/// A check over a whole subgraph that no single word can make: named like a predicate, resting on a convention.
struct ProgramPredicate {
  std::string_view name;
  std::string_view convention;  ///< PROJ-CONV id (docs/conventions.md)
  std::string_view meaning;     ///< one sentence, for docs and --explain
};
/// Every program predicate, in evaluation order.
std::span<const ProgramPredicate> program_predicates();

/// One failure of a program predicate at one word.
struct ProgramFailure {
  const ProgramPredicate* predicate = nullptr;
  size_t stream = 0;    ///< index into Neff::streams()
  size_t word = 0;      ///< index in the stream
  std::string label;    ///< "sg00/Pool#3"
  std::string message;  ///< names the variable (or SBUF/PSUM) and the byte range
};

/// Every program predicate over every word of every stream, on `gen` (geometry and decoding); failures in
/// stream then word order. The DMA checks read PseudoDmaDirect2d words; the on-chip checks read the tensor
/// operands of the datapath words and the SBUF operands of the DMA words.
std::vector<ProgramFailure> check_program(const Neff& neff, Generation gen);

/// What a variable field of a NEFF word names in its subgraph's def.json, by field path as decode prints it.
struct VariableNote {
  std::string field;    ///< "src.id", "dst.offset"
  std::string meaning;  ///< "var 4 'identity_82_sg0000' (file, 32768 bytes)", "SBUF partition 0 byte 0x37b00"
};
/// The PseudoDmaDirect2d operands of `inst` resolved against `sg`: the variable each names (a dge-table entry
/// through the table, PROJ-CONV-F12) and where its offset points; empty for other words.
std::vector<VariableNote> variable_notes(const Subgraph& sg, const Instruction& inst);

// ---- writing ----

struct PackMember {
  std::string name;
  std::vector<uint8_t> bytes;
};

struct PackOptions {
  /// Header fields to write; pkg_version selects the packaging (1 plain tar + SHA-256, 2 gzip tar + MD5),
  /// header_size, data_size and hash are computed.
  Header header;
  HashOrder hash_order = HashOrder::Natural;  ///< PROJ-CONV-X1 writer default
  uint64_t padding = 0;                       ///< zero bytes after the payload inside the data_size window
};

/// Builds a container: header, hash, and the members as a ustar archive (pax extensions only for long names)
/// (gzip-compressed for pkg 2), in the order given, mode 0644, mtime 0, no directory entries. Refuses names the reader
/// would refuse.
Result<std::vector<uint8_t>> pack(std::span<const PackMember> members, const PackOptions& options);

/// The regular files under `dir` as members (names relative to it, '/'-separated, sorted); a symbolic link or
/// other non-regular file is an error, and `limits` bound the sizes as the reader would.
Result<std::vector<PackMember>> collect_directory(const std::string& dir, const ReadOptions& limits = {});

/// Writes every member under `dir` (which must not exist, or be empty): into a fresh sibling folder first
/// (io::OutputDirectory), renamed to `dir` once every file is written, so a failure or a SIGINT, SIGTERM, SIGHUP or
/// SIGPIPE leaves no partial tree; never writes outside it.
std::optional<Error> extract(const Neff& neff, const std::string& dir);

}  // namespace tpbisa::neff
