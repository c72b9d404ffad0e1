// upsweep-sort's sorter: one job's sorts of Key (with Value indices, or no_index) on the device,
// host to host, and file to file, with their reports (sort_gpu.cpp, sort_files.cpp). Host code
// over the CUDA runtime API; the sorts themselves are compiled by nvcc in their own translation
// units (sort_backends.hpp).
#pragma once

#include "sort_gpu.hpp"

#include "sort_backends.hpp"

#include <upsweep/apps/device_support.hpp>
#include <upsweep/apps/file_io.hpp>
#include <upsweep/apps/report.hpp>
#include <upsweep/apps/side_thread.hpp>
#include <upsweep/host_sort.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

namespace upsweep::apps {

inline double gib(double bytes) { return bytes / bytes_per_gib; }

// The sorts the job names, for keys of type Key and values of type Value (no_index: keys only).
template <class Key, class Value>
class sorter {
 public:
  static constexpr bool pairs = !std::is_same_v<Value, no_index>;
  using stored_value = std::conditional_t<pairs, Value, unsigned char>;  // buffers stay empty without pairs

  sorter(const sort_job& job, std::int64_t n) : job_(job), n_(n) {}

  sort_report run(const std::vector<Key>& h_in, std::vector<Key>& h_out, std::vector<stored_value>* h_indices) {
    sort_report r;
    r.device_name = probe_device();
    r.index_type = pairs ? (sizeof(Value) == 4 ? "u32" : "u64") : "";
    check_memory(r);

    keys_in_ = device_buffer<Key>(static_cast<std::size_t>(n_));
    keys_out_ = device_buffer<Key>(static_cast<std::size_t>(n_));
    if constexpr (pairs) {
      values_in_ = device_buffer<stored_value>(static_cast<std::size_t>(n_));
      values_out_ = device_buffer<stored_value>(static_cast<std::size_t>(n_));
    }
    event_timer timer;

    timer.start();
    check(cudaMemcpy(keys_in_.get(), h_in.data(), h_in.size() * sizeof(Key), cudaMemcpyHostToDevice), "copying the keys");
    if constexpr (pairs) check(fill_indices(values_in_.get(), n_), "filling the indices");
    r.h2d_ms = timer.stop_ms();

    std::vector<float> times;
    if (job_.algo == sort_algo::thrust) {
      device_block_cache cache;
      for (int k = 0; k < std::max(job_.repeat, 1); ++k) {
        restore_input_into_output();  // Thrust sorts in place
        timer.start();
        try {
          sort_with_thrust(call(keys_out_.get(), values_out_.get()), cache);
        } catch (const gpu_error&) {
          throw;
        } catch (const std::exception& e) {
          throw gpu_error(std::string("thrust::stable_sort failed: ") + e.what());
        }
        times.push_back(timer.stop_ms());
      }
    } else {
      device_buffer<unsigned char> temp(std::max<std::size_t>(algo_temp_bytes_, 1));
      for (int k = -1; k < std::max(job_.repeat, 1); ++k) {  // k = -1: loads the kernels, untimed
        std::size_t bytes = algo_temp_bytes_;
        timer.start();
        check(job_.algo == sort_algo::upsweep ? sort_with_upsweep(temp.get(), bytes, call(keys_out_.get(), values_out_.get()))
                                              : sort_with_cub(temp.get(), bytes, call(keys_out_.get(), values_out_.get())),
              job_.algo == sort_algo::upsweep ? "upsweep::sort" : "cub::DeviceRadixSort");
        const float ms = timer.stop_ms();
        if (k >= 0) times.push_back(ms);
        check(cudaGetLastError(), "the sort");
      }
    }
    std::sort(times.begin(), times.end());
    r.sort_min_ms = times.front();
    r.sort_median_ms = times[times.size() / 2];

    timer.start();
    h_out.resize(static_cast<std::size_t>(n_));
    check(cudaMemcpy(h_out.data(), keys_out_.get(), h_out.size() * sizeof(Key), cudaMemcpyDeviceToHost), "copying the keys back");
    if constexpr (pairs) {
      h_indices->resize(static_cast<std::size_t>(n_));
      check(cudaMemcpy(h_indices->data(), values_out_.get(), h_indices->size() * sizeof(Value), cudaMemcpyDeviceToHost),
            "copying the indices back");
    }
    r.d2h_ms = timer.stop_ms();

    if (job_.compare_with_cub && job_.algo != sort_algo::cub) {
      compare_with_cub(h_out, h_indices);
      r.compared_with_cub = true;
    }
    r.peak_bytes = device_bytes_peak();
    return r;
  }

  // Upsweep's host-to-host sort within the device budget (--memory-limit, else 95 % of free
  // memory). Setup (context, device storage, pinned staging, one small sort that loads the
  // kernels) is paid and reported before the timed runs.
  sort_report run_host(const std::vector<Key>& h_in, std::vector<Key>& h_out, std::vector<stored_value>* h_indices) {
    if (&h_in != &h_out) h_out.resize(static_cast<std::size_t>(n_));
    if constexpr (pairs) h_indices->resize(static_cast<std::size_t>(n_));
    return run_host(h_in.data(), h_out.data(), pairs ? h_indices->data() : nullptr);
  }

  // The same over raw host arrays of n items (h_out == h_in sorts in place when it fits).
  sort_report run_host(const Key* h_in, Key* h_out, stored_value* h_indices) {
    std::vector<stored_value> order;  // pairs: the input indices, sorted along as values
    if constexpr (pairs) {
      order.resize(static_cast<std::size_t>(n_));
      std::iota(order.begin(), order.end(), Value{0});
    }
    auto sort = [&](upsweep::host_sort_storage& storage, const Key* in, Key* out, stored_value* indices_out,
                    std::int64_t count) {
      const int begin_bit = job_.order.begin_bit, end_bit = window_end();
      if constexpr (pairs)
        return job_.order.descending
                   ? upsweep::host_sort_pairs_descending(storage, in, out, order.data(), indices_out, count, begin_bit,
                                                         end_bit)
                   : upsweep::host_sort_pairs(storage, in, out, order.data(), indices_out, count, begin_bit, end_bit);
      else
        return job_.order.descending ? upsweep::host_sort_keys_descending(storage, in, out, count, begin_bit, end_bit)
                                     : upsweep::host_sort_keys(storage, in, out, count, begin_bit, end_bit);
    };
    // The first call (kernel loading), untimed, on a copy of a prefix: the input may be the output.
    auto first_call = [&](upsweep::host_sort_storage& storage) {
      const std::size_t m = static_cast<std::size_t>(std::min<std::int64_t>(n_, 1 << 16));
      std::vector<Key> prefix(h_in, h_in + m), prefix_out(m);
      std::vector<stored_value> prefix_indices(pairs ? m : 0);
      check(sort(storage, prefix.data(), prefix_out.data(), prefix_indices.data(), static_cast<std::int64_t>(m)),
            "upsweep::host_sort (first call)");
    };
    return within_budget([&](upsweep::host_sort_storage& storage) { return sort(storage, h_in, h_out, h_indices, n_); },
                         first_call, h_in == h_out);
  }

  // Keys from one open file to another through Upsweep's host streams (pread into the pinned
  // staging, pwrite from it): no file-sized host memory in core.
  sort_report run_files(int in_fd, int out_fd) {
    upsweep::host_stream<Key> in, out;
    in.move = [](void* fd, std::uint64_t offset, void* buffer, std::size_t bytes) {
      return pread_all(*static_cast<int*>(fd), buffer, bytes, offset);
    };
    out.move = [](void* fd, std::uint64_t offset, void* buffer, std::size_t bytes) {
      return pwrite_all(*static_cast<int*>(fd), buffer, bytes, offset);
    };
    in.context = &in_fd;
    out.context = &out_fd;
    auto sort = [&](upsweep::host_sort_storage& storage) {
      const int begin_bit = job_.order.begin_bit, end_bit = window_end();
      return job_.order.descending ? upsweep::host_sort_keys_descending(storage, in, out, n_, begin_bit, end_bit)
                                   : upsweep::host_sort_keys(storage, in, out, n_, begin_bit, end_bit);
    };
    // The first call loads the kernels in the sort's own storage (a second pinned staging would
    // cost a 256 MB cudaMallocHost): a prefix-sized sort of mixed bits, so that no pass is skipped.
    auto first_call = [&](upsweep::host_sort_storage& storage) {
      std::vector<Key> keys(static_cast<std::size_t>(std::min<std::int64_t>(n_, 1 << 16))), sorted(keys.size());
      std::uint64_t bits = 0x9E3779B97F4A7C15ull;
      for (Key& k : keys) {
        bits ^= bits << 13, bits ^= bits >> 7, bits ^= bits << 17;
        std::memcpy(&k, &bits, sizeof(Key));
      }
      const auto m = static_cast<std::int64_t>(keys.size());
      const int begin_bit = job_.order.begin_bit, end_bit = window_end();
      check(job_.order.descending
                ? upsweep::host_sort_keys_descending(storage, keys.data(), sorted.data(), m, begin_bit, end_bit)
                : upsweep::host_sort_keys(storage, keys.data(), sorted.data(), m, begin_bit, end_bit),
            "upsweep::host_sort (first call)");
    };
    try {
      return within_budget(sort, first_call, false);
    } catch (const gpu_error&) {
      for (const upsweep::host_stream_base* s : {&in, &out})
        if (s->error != 0)
          throw gpu_error(std::string(s == &in ? "reading the input: " : "writing the output: ") + std::strerror(s->error));
      throw;
    }
  }

 private:
  int window_end() const { return job_.order.end_bit < 0 ? static_cast<int>(sizeof(Key) * 8) : job_.order.end_bit; }

  // Upsweep's host sort within the device budget (--memory-limit, else 95 % of free memory):
  // sized by `sort` on a query storage, then its storage allocated (a host scratch out of core),
  // `first_call` and the allocations reported as setup, then `sort` timed over --repeat runs.
  template <class Sort, class FirstCall>
  sort_report within_budget(Sort sort, FirstCall first_call, bool in_place) {
    sort_report r;
    const auto t_setup = std::chrono::steady_clock::now();
    r.device_name = probe_device();
    r.index_type = pairs ? (sizeof(Value) == 4 ? "u32" : "u64") : "";
    std::size_t free_bytes = 0, total_bytes = 0;
    check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");  // creates the context
    r.context_ms = ms_since(t_setup);
    r.free_gib = gib(static_cast<double>(free_bytes));
    const double budget = job_.memory_limit_gib > 0 ? std::min(job_.memory_limit_gib * bytes_per_gib, 0.95 * free_bytes)
                                                    : 0.95 * static_cast<double>(free_bytes);
    upsweep::host_sort_storage storage;
    storage.device_bytes = static_cast<std::size_t>(budget);
    const cudaError_t query = sort(storage);
    if (query == cudaErrorInvalidValue)
      throw gpu_error("--memory-limit " + std::to_string(job_.memory_limit_gib) +
                      " GiB is below the smallest device budget the host sort works in for these keys");
    check(query, "sizing the host sort");
    r.in_core = storage.device_bytes < static_cast<std::size_t>(budget);
    r.host_path = r.in_core ? "in core" : "out of core";
    std::unique_ptr<raw_memory> scratch;  // out of core: sorted runs, the input read twice instead of three times
    if (!r.in_core && storage.scratch_bytes > 0) {
      try {
        scratch = std::make_unique<raw_memory>(storage.scratch_bytes);
        storage.h_scratch = scratch->data();
        char text[96];
        std::snprintf(text, sizeof text, "out of core through sorted runs in %.2f GiB of host scratch",
                      gib(static_cast<double>(storage.scratch_bytes)));
        r.host_path = text;
      } catch (const std::bad_alloc&) {
        r.host_path = "out of core (no host memory for a scratch: three reads of the input)";
      }
    }
    if (in_place && !scratch) throw std::logic_error("run_host: in place out of core needs the scratch");
    r.budget_gib = gib(static_cast<double>(storage.device_bytes));
    r.need_gib = r.budget_gib;
    // The pinned staging (256 MB: tens of ms to pin) is allocated on another thread while the
    // device storage is and the first call runs, through a small staging of its own (16 MiB: the
    // plan's few KB and 8 slots of 1 MiB, the least a pageable prefix needs).
    void* staging = nullptr;
    void* first_staging = nullptr;
    struct pinned_free {
      void*& p;
      ~pinned_free() {
        if (p != nullptr) cudaFreeHost(p);
      }
    } free_staging{staging}, free_first_staging{first_staging};
    side_thread pin([&] { check(cudaMallocHost(&staging, storage.staging_bytes), "cudaMallocHost (pinned staging)"); });
    device_buffer<unsigned char> d_storage(storage.device_bytes);
    storage.d_storage = d_storage.get();
    const auto t_first = std::chrono::steady_clock::now();
    upsweep::host_sort_storage first = storage;
    first.staging_bytes = std::size_t{16} << 20;
    check(cudaMallocHost(&first_staging, first.staging_bytes), "cudaMallocHost (pinned staging of the first call)");
    first.h_staging = first_staging;
    first_call(first);
    r.first_call_ms = ms_since(t_first);
    pin.join_and_rethrow();
    storage.h_staging = staging;
    r.setup_ms = ms_since(t_setup);

    std::vector<double> times;
    for (int k = 0; k < std::max(job_.repeat, 1); ++k) {
      const auto t = std::chrono::steady_clock::now();
      check(sort(storage), "upsweep::host_sort");  // in place: later repeats sort sorted keys
      times.push_back(ms_since(t));
    }
    std::sort(times.begin(), times.end());
    r.host_sort = true;
    r.host_sort_min_ms = times.front();
    r.host_sort_median_ms = times[times.size() / 2];
    r.peak_bytes = device_bytes_peak();
    return r;
  }

  sort_call<Key, Value> call(Key* keys_out, stored_value* values_out) const {
    const int end_bit = job_.order.end_bit < 0 ? static_cast<int>(sizeof(Key) * 8) : job_.order.end_bit;
    sort_call<Key, Value> c{keys_in_.get(), keys_out, nullptr, nullptr, n_, job_.order.begin_bit, end_bit,
                            job_.order.descending};
    if constexpr (pairs) {
      c.values_in = values_in_.get();
      c.values_out = values_out;
    }
    return c;
  }

  // Sizes every buffer (the size queries need a device but allocate nothing), then compares the
  // most the run holds at once with the free memory.
  void check_memory(sort_report& r) {
    std::size_t cub_bytes = 0;
    const bool cub_used = job_.algo != sort_algo::upsweep || job_.compare_with_cub;
    if (cub_used) check(sort_with_cub(nullptr, cub_bytes, call(nullptr, nullptr)), "sizing CUB's temporary storage");
    if (job_.algo == sort_algo::upsweep)
      check(sort_with_upsweep(nullptr, algo_temp_bytes_, call(nullptr, nullptr)), "sizing Upsweep's temporary storage");
    else
      algo_temp_bytes_ = cub_bytes;  // Thrust sends these sorts to CUB: its need, as an estimate
    cub_temp_bytes_ = cub_bytes;

    const double keys = gib(static_cast<double>(n_) * sizeof(Key));
    const double values = pairs ? gib(static_cast<double>(n_) * sizeof(stored_value)) : 0.0;
    // The CUB comparison runs after the sort's output and temporaries are freed, in the same room.
    const double temp = gib(static_cast<double>(std::max(algo_temp_bytes_, job_.compare_with_cub ? cub_bytes : 0)));
    std::size_t free_bytes = 0, total_bytes = 0;
    check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
    r.need_gib = 2 * keys + 2 * values + temp;
    r.free_gib = gib(static_cast<double>(free_bytes));
    const bool limited = job_.memory_limit_gib > 0 && job_.memory_limit_gib < r.free_gib;
    if (limited) r.free_gib = job_.memory_limit_gib;
    if (r.need_gib > r.free_gib) {
      char indices_text[64] = "";
      if (pairs) std::snprintf(indices_text, sizeof indices_text, " + indices 2 x %.2f", values);
      char text[320];
      std::snprintf(text, sizeof text, "not enough GPU memory: need %.2f GiB (keys 2 x %.2f%s + temporary %.2f), %.2f GiB free%s",
                    r.need_gib, keys, indices_text, temp, r.free_gib, limited ? " (--memory-limit)" : "");
      throw gpu_error(text);
    }
  }

  void restore_input_into_output() {
    check(cudaMemcpy(keys_out_.get(), keys_in_.get(), static_cast<std::size_t>(n_) * sizeof(Key), cudaMemcpyDeviceToDevice),
          "copying the keys for Thrust");
    if constexpr (pairs)
      check(cudaMemcpy(values_out_.get(), values_in_.get(), static_cast<std::size_t>(n_) * sizeof(Value),
                       cudaMemcpyDeviceToDevice),
            "copying the indices for Thrust");
  }

  void compare_with_cub(const std::vector<Key>& h_out, const std::vector<stored_value>* h_indices) {
    keys_out_.reset();
    values_out_.reset();
    device_buffer<Key> ref_keys(static_cast<std::size_t>(n_));
    device_buffer<stored_value> ref_values(pairs ? static_cast<std::size_t>(n_) : 0);
    device_buffer<unsigned char> temp(std::max<std::size_t>(cub_temp_bytes_, 1));
    std::size_t bytes = cub_temp_bytes_;
    check(sort_with_cub(temp.get(), bytes, call(ref_keys.get(), ref_values.get())), "cub::DeviceRadixSort");
    check(cudaDeviceSynchronize(), "cub::DeviceRadixSort");
    std::vector<Key> ref(static_cast<std::size_t>(n_));
    check(cudaMemcpy(ref.data(), ref_keys.get(), ref.size() * sizeof(Key), cudaMemcpyDeviceToHost), "copying CUB's keys");
    for (std::size_t i = 0; i < ref.size(); ++i)
      if (std::memcmp(&ref[i], &h_out[i], sizeof(Key)) != 0)
        throw gpu_error("verification FAILED: output key " + std::to_string(i) + " differs from CUB's");
    if constexpr (pairs) {
      std::vector<Value> ref_idx(static_cast<std::size_t>(n_));
      check(cudaMemcpy(ref_idx.data(), ref_values.get(), ref_idx.size() * sizeof(Value), cudaMemcpyDeviceToHost),
            "copying CUB's indices");
      for (std::size_t i = 0; i < ref_idx.size(); ++i)
        if (ref_idx[i] != (*h_indices)[i])
          throw gpu_error("verification FAILED: output item " + std::to_string(i) + " has input index " +
                          std::to_string((*h_indices)[i]) + ", CUB's " + std::to_string(ref_idx[i]));
    }
  }

  const sort_job& job_;
  std::int64_t n_;
  std::size_t algo_temp_bytes_ = 0, cub_temp_bytes_ = 0;
  device_buffer<Key> keys_in_, keys_out_;
  device_buffer<stored_value> values_in_, values_out_;
};

}  // namespace upsweep::apps
