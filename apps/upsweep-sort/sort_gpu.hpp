// The device half of upsweep-sort. Upsweep sorts host to host (upsweep::host_sort_*: in core when
// the keys fit --memory-limit, else out of core); CUB and Thrust copy the keys in, sort and copy
// them out. On request the device sort alone is timed too and compared with CUB. Plain C++
// interface, so main.cpp needs no nvcc.
#pragma once

#include <upsweep/apps/gpu.hpp>
#include <upsweep/apps/key_order.hpp>
#include <upsweep/apps/numbers.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace upsweep::apps {

enum class sort_algo { upsweep, cub, thrust };
const char* algo_name(sort_algo algo);  // "upsweep", "cub", "thrust"

struct sort_job {
  sort_algo algo = sort_algo::upsweep;
  sort_order order;              // bit window and direction
  bool pairs = false;            // sort (key, input index) pairs, not keys alone
  bool compare_with_cub = false; // sort again with CUB and compare bit for bit
  bool time_device_sort = false; // upsweep: also time the sort on the device alone (when it fits)
  int repeat = 1;
  double memory_limit_gib = 0;   // > 0: use at most this much device memory
};

struct sort_report {
  std::string device_name;
  double setup_ms = 0;                            // CUDA context, memory, the first call: before any timing
  double context_ms = 0, first_call_ms = 0;       // host sort: two parts of the setup
  double host_sort_min_ms = 0, host_sort_median_ms = 0;  // upsweep: host to host, copies included
  bool host_sort = false, in_core = false;
  double budget_gib = 0;                          // upsweep: the device budget it sorted within
  std::string host_path;                          // host sort: "in core", or out of core and how
  bool device_sort_timed = false;                 // the fields below: the device sort alone
  double h2d_ms = 0, d2h_ms = 0;
  double sort_min_ms = 0, sort_median_ms = 0;
  double need_gib = 0, free_gib = 0;
  std::size_t peak_bytes = 0;   // the most device memory the tool held at once
  const char* index_type = "";  // "u32" or "u64" with pairs
  bool compared_with_cub = false;
};

// Sorts `keys` (n > 0) on device 0. `sorted` gets the keys in order; with job.pairs, `indices`
// gets each output key's input index (u32 when n < 2^32, else u64). Throws gpu_error: no device,
// too little memory (need and free in GiB), a CUDA failure, or a difference from CUB.
sort_report run_sort(const number_array& keys, const sort_job& job, number_array& sorted, number_array* indices);

// A binary file of `type` keys sorted by Upsweep's host sort into a new binary file (keys only, no
// verification), streamed: the sort reads the input through its pinned staging (pread by several
// threads) and writes each sorted piece as it arrives (pwrite) into a temporary file renamed over
// out_path when complete. No file-sized host memory in core; out of core a host scratch of the
// keys' size holds the sorted runs.
struct file_sort_times {
  double open_ms = 0;     // the files opened and the output's blocks reserved
  double publish_ms = 0;  // the output closed and renamed
  std::int64_t items = 0;
};
sort_report sort_binary_file(const std::string& in_path, const std::string& out_path, element_type type,
                             const sort_job& job, file_sort_times& times);

}  // namespace upsweep::apps
