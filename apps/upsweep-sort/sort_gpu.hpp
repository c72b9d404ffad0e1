// The device half of upsweep-sort: copy the keys in, sort them (Upsweep, CUB or Thrust), copy
// them out, and compare with CUB when asked. Plain C++ interface, so main.cpp needs no nvcc.
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
  int repeat = 1;
  double memory_limit_gib = 0;   // > 0: use at most this much device memory
};

struct sort_report {
  std::string device_name;
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

}  // namespace upsweep::apps
