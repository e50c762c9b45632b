// A NEFF run on a time axis for trace viewers (ui.perfetto.dev, chrome://tracing): the Chrome trace-event JSON of
// `tpbisa run PROG.neff --timeline FILE.json`, timed by a documented cost model (docs/trace.md, "Timeline").
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tpbisa/machine.hpp"
#include "tpbisa/neff.hpp"
#include "tpbisa/neff_run.hpp"

namespace tpbisa::io {

/// The cost model, in model cycles (shown as microseconds by the viewers): a model of relative cost for reading a
/// schedule, not silicon timing.
struct TimelineCosts {
  uint64_t issue = 64;                  ///< every word: decode, dispatch, its EVENTS
  uint64_t lanes = 128;                 ///< memory elements written per cycle (one per partition)
  uint64_t macs_per_cycle = 128 * 128;  ///< the PE array: one multiply-add per cell per cycle
  uint64_t dma_bytes_per_cycle = 64;    ///< one DMA queue's bandwidth
};

/// Watches the steps of a serial NEFF run (NeffRunOptions::on_step) and lays them out: one track per core and
/// engine with a slice per retired word, a slice per semaphore wait that held an engine back and a flow arrow from
/// the word (or DMA transfer) whose update released it, one track per DMA queue (its completion semaphore).
class Timeline {
 public:
  Timeline(const neff::Neff& nf, const neff::Run& run, TimelineCosts costs = {});
  void observe(const StepResult& step);
  /// The waits a deadlock left blocked (NeffRunReport::blocked): each lasts to the end of the timeline.
  void blocked(std::span<const BlockedWait> waits);
  /// The trace-event document: {"traceEvents": [...], "displayTimeUnit": "ns", "otherData": {...}}.
  nlohmann::ordered_json document() const;

 private:
  using Key = std::tuple<unsigned, unsigned, size_t>;  ///< core, engine, word
  struct Slice {
    unsigned pid = 0, tid = 0;
    uint64_t ts = 0, dur = 0;
  };
  struct Release {
    uint64_t time = 0;
    std::optional<Slice> by;  ///< the slice whose completion made the update
  };
  struct Wait {
    uint16_t semaphore = 0;
    std::string text;  ///< "$S[24]>=16"
  };
  struct Raise {
    uint16_t semaphore = 0;
    bool dma = false;  ///< on the DMA's completion
  };
  uint64_t& clock(unsigned core, unsigned engine) { return clocks_[core * kEnginesPerCore + engine]; }
  void add_slice(const Slice& s, std::string name, std::string cat, nlohmann::ordered_json args);

  const neff::Run& run_;
  TimelineCosts costs_;
  std::map<Key, Wait> waits_;
  std::map<Key, std::vector<Raise>> raises_;
  std::vector<uint64_t> clocks_;
  std::vector<uint64_t> macs_;                                    ///< per core: the MACs counted so far
  std::map<std::pair<unsigned, uint16_t>, uint64_t> queues_;      ///< per core and completion semaphore: busy until
  std::map<std::pair<unsigned, uint16_t>, Release> releases_;     ///< per core and semaphore: its last update
  std::map<std::pair<unsigned, unsigned>, BlockedWait> blocked_;  ///< per core and engine: blocked on its last turn
  std::vector<nlohmann::ordered_json> events_;
  uint64_t flows_ = 0;
  uint64_t end_ = 0;
};

}  // namespace tpbisa::io
