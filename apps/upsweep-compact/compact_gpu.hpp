// The device half of upsweep-compact: check the GPU, run select/partition/count with the
// library, optionally compare with Thrust. Plain C++ interface so main.cpp needs no nvcc.
#pragma once

#include <upsweep/apps/gpu.hpp>
#include <upsweep/apps/numbers.hpp>
#include <upsweep/apps/where_predicate.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace upsweep::apps {

enum class compact_mode { select, partition, count };

struct compact_job {
  compact_mode mode = compact_mode::select;
  std::optional<where_predicate> where;        // or, for select and count:
  const std::vector<std::uint8_t>* mask = nullptr;  // keep item i where mask[i] != 0
  bool verify = false;
  int repeat = 1;
  double memory_limit_gib = 0;  // > 0: use at most this much device memory; a larger input is streamed
};

struct compact_report {
  std::string device_name;
  std::int64_t count = 0;               // selected items (the split point for partition)
  double h2d_ms = 0, d2h_ms = 0;
  double compute_min_ms = 0, compute_median_ms = 0;
  double need_gib = 0, free_gib = 0;
  std::int64_t chunks = 0;              // > 0: the input was streamed in this many chunks
  std::int64_t chunk_items = 0;         //   of this many items, through
  double staging_gib = 0;               //   this much pinned host memory
  double budget_gib = 0;                // the device budget (--memory-limit, else the free memory)
  bool verified = false;                // true when --verify ran and matched
  std::string verify_detail;            // what was compared
};

// Runs the job; `out` (same type as `in`) gets the survivors, or the whole partitioned array. An
// input whose buffers do not fit the device budget is streamed chunk by chunk (--repeat is then
// not applied: the report times the one streamed pass, copies included). Throws gpu_error
// (including a verification mismatch).
compact_report run_compaction(const number_array& in, const compact_job& job, number_array* out);

}  // namespace upsweep::apps
