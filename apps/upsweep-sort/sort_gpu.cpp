// The device half of upsweep-sort (sort_gpu.hpp): which sorts a job runs, the host sort checked
// against the device sort when asked. The sorter (sort_gpu_sorter.hpp) checks that the data fits
// before allocating, times the chosen sort with events over --repeat runs, and compares CUB's
// answer bit for bit; the file-to-file sort is in sort_files.cpp.
#include "sort_gpu_sorter.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace upsweep::apps {

const char* algo_name(sort_algo algo) {
  switch (algo) {
    case sort_algo::upsweep: return "upsweep";
    case sort_algo::cub: return "cub";
    case sort_algo::thrust: return "thrust";
  }
  return "?";
}

device_block_cache::~device_block_cache() {
  for (const block& b : blocks_) tracked_free(b.ptr, b.bytes);
}

void* device_block_cache::get(std::size_t bytes) {
  for (block& b : blocks_)
    if (!b.in_use && b.bytes >= bytes) {
      b.in_use = true;
      return b.ptr;
    }
  blocks_.push_back({tracked_malloc(std::max<std::size_t>(bytes, 1)), std::max<std::size_t>(bytes, 1), true});
  return blocks_.back().ptr;
}

void device_block_cache::put(void* ptr) {
  for (block& b : blocks_)
    if (b.ptr == ptr) b.in_use = false;
}

namespace {

// Upsweep: the host sort; then, when asked and the keys fit the device, the device sort alone
// (timed, compared with CUB) must give the same bits. CUB and Thrust: the device path.
template <class Key, class Value>
sort_report sort_with(const sort_job& job, const std::vector<Key>& h_in, std::vector<Key>& h_out,
                      std::vector<typename sorter<Key, Value>::stored_value>* h_indices) {
  using Indices = std::vector<typename sorter<Key, Value>::stored_value>;
  const auto n = static_cast<std::int64_t>(h_in.size());
  if (job.algo != sort_algo::upsweep) return sorter<Key, Value>(job, n).run(h_in, h_out, h_indices);
  sort_report r = sorter<Key, Value>(job, n).run_host(h_in, h_out, h_indices);
  if (!job.time_device_sort || !r.in_core) return r;
  std::vector<Key> device_out;
  Indices device_indices;
  sort_report d;
  try {
    d = sorter<Key, Value>(job, n).run(h_in, device_out, h_indices ? &device_indices : nullptr);
  } catch (const gpu_error& e) {
    if (std::string(e.what()).rfind("not enough GPU memory", 0) == 0) return r;  // the host sort's result stands
    throw;
  }
  if (!same_bits(device_out, h_out) || (h_indices && !same_bits(device_indices, *h_indices)))
    throw gpu_error("verification FAILED: the host-to-host sort differs from the device sort");
  r.device_sort_timed = true;
  r.h2d_ms = d.h2d_ms;
  r.d2h_ms = d.d2h_ms;
  r.sort_min_ms = d.sort_min_ms;
  r.sort_median_ms = d.sort_median_ms;
  r.compared_with_cub = d.compared_with_cub;
  r.peak_bytes = std::max(r.peak_bytes, d.peak_bytes);
  return r;
}

}  // namespace

sort_report run_sort(const number_array& keys, const sort_job& job, number_array& sorted, number_array* indices) {
  const std::int64_t n = size_of(keys);
  sorted = make_array(type_of(keys));
  return std::visit(
      [&](const auto& h_in) {
        using vector_t = std::decay_t<decltype(h_in)>;
        using Key = typename vector_t::value_type;
        auto& h_out = std::get<vector_t>(sorted);
        if (!job.pairs) return sort_with<Key, no_index>(job, h_in, h_out, nullptr);
        if (n <= static_cast<std::int64_t>(std::numeric_limits<std::uint32_t>::max())) {
          *indices = std::vector<std::uint32_t>{};
          return sort_with<Key, std::uint32_t>(job, h_in, h_out, &std::get<std::vector<std::uint32_t>>(*indices));
        }
        *indices = std::vector<std::uint64_t>{};
        return sort_with<Key, std::uint64_t>(job, h_in, h_out, &std::get<std::vector<std::uint64_t>>(*indices));
      },
      keys);
}

}  // namespace upsweep::apps
