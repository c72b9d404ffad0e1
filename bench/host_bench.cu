// Suite `host`: sorts whose input and output live in host memory, u32 keys and u32/u32 pairs at
// 2^28 and 2^32 items, timed end to end (CUDA events around a call that returns with the output in
// host memory). Rows:
//  - upsweep, upsweep_budget: upsweep::host_sort_* (core layer, storage allocated outside the
//    timing), with no device limit and with a budget of a quarter of the input (out of core,
//    through sorted runs in a host scratch); upsweep_budget_no_scratch: out of core without one
//    (three reads of the input);
//  - cub_pinned: copy in, cub::DeviceRadixSort, copy out, one after another (what a user writes);
//  - link: the copies alone, in then out (the floor the sort is held to); link_both: both at once;
//  - *_pageable: the same from malloc'd arrays (upsweep stages them; CUB copies them as they are).
// Host arrays are pinned unless the row says pageable; the output is checked after the timing.
#include "bench_support.cuh"

#include <upsweep/sort/host_radix_sort.cuh>

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace upsweep::bench {
namespace {

enum class host_impl { link, link_both, cub_pinned, upsweep, upsweep_budget, upsweep_budget_no_scratch, cub_pageable,
                       upsweep_pageable, upsweep_budget_pageable };

bool is_pageable(host_impl impl) {
  return impl == host_impl::cub_pageable || impl == host_impl::upsweep_pageable ||
         impl == host_impl::upsweep_budget_pageable;
}

// A number read from the first line of `path` that `format` matches, or `otherwise`.
double read_number(const char* path, const char* format, double otherwise) {
  std::FILE* f = std::fopen(path, "r");
  if (f == nullptr) return otherwise;
  char line[256];
  double value = otherwise, parsed = 0;
  while (std::fgets(line, sizeof line, f) != nullptr)
    if (std::sscanf(line, format, &parsed) == 1) {
      value = parsed;
      break;
    }
  std::fclose(f);
  return value;
}

// The host memory this process may still take: MemAvailable, and the cgroup's limit less its use
// where one is set. Rows whose arrays would not fit are skipped, not left to the out-of-memory
// killer (2^32 pairs pinned take 64 GiB, their scratch 32 more).
double host_bytes_available() {
  const double system = read_number("/proc/meminfo", "MemAvailable: %lf kB", 1e15) * 1024.0;
  const double limit = read_number("/sys/fs/cgroup/memory.max", "%lf", 1e18);  // "max": no limit, unparsed
  const double used = read_number("/sys/fs/cgroup/memory.current", "%lf", 0);
  return std::min(system, limit - used);
}

void require_host_memory(double bytes, const char* what) {
  constexpr double margin = 8.0 * (1 << 30);
  const double available = host_bytes_available();
  if (bytes + margin > available)
    throw std::runtime_error(std::string("host memory: ") + what + " needs " + std::to_string(static_cast<long long>(bytes / 1e9)) +
                             " GB, " + std::to_string(static_cast<long long>(available / 1e9)) + " GB available");
}

// Host memory, pinned or pageable, freed on scope exit.
struct host_block {
  void* ptr = nullptr;
  bool pinned = false;
  host_block(std::size_t bytes, bool pin) : pinned(pin) {
    if (pin) BENCH_CUDA(cudaMallocHost(&ptr, bytes));
    else if ((ptr = std::malloc(bytes)) == nullptr) throw std::runtime_error("malloc of host input failed");
  }
  ~host_block() {
    if (pinned) cudaFreeHost(ptr);
    else std::free(ptr);
  }
};

// The rows of one (case, n) share their host arrays; one kind (pinned or pageable) at a time, so a
// 2^32-pair case fits the host's memory.
template <class Key, class Value>
struct host_arrays {
  std::int64_t n = 0;
  bool pinned = true;
  std::unique_ptr<host_block> keys_in, keys_out, values_in, values_out;
  Key* k_in() const { return static_cast<Key*>(keys_in->ptr); }
  Key* k_out() const { return static_cast<Key*>(keys_out->ptr); }
  Value* v_in() const { return values_in ? static_cast<Value*>(values_in->ptr) : nullptr; }
  Value* v_out() const { return values_out ? static_cast<Value*>(values_out->ptr) : nullptr; }

  static host_arrays& get(std::int64_t n, bool pinned) {
    static host_arrays arrays;
    if (arrays.n != n || arrays.pinned != pinned || !arrays.keys_in) arrays.make(n, pinned);
    return arrays;
  }

 private:
  void make(std::int64_t count, bool pin) {
    keys_in.reset(); keys_out.reset(); values_in.reset(); values_out.reset();
    n = count;
    pinned = pin;
    const auto items = static_cast<std::size_t>(count);
    require_host_memory(2.0 * static_cast<double>(items) * (sizeof(Key) + sizeof(std::conditional_t<std::is_void_v<Value>, char[0], Value>)),
                        "the input and output arrays");
    keys_in = std::make_unique<host_block>(items * sizeof(Key), pin);
    keys_out = std::make_unique<host_block>(items * sizeof(Key), pin);
    if constexpr (!std::is_void_v<Value>) {
      values_in = std::make_unique<host_block>(items * sizeof(Value), pin);
      values_out = std::make_unique<host_block>(items * sizeof(Value), pin);
    }
    fill_on_device(k_in(), count, [](Key* d, std::int64_t m) { fill_input<Key>(d, m, Key{1}, ~Key{0}); });
    if constexpr (!std::is_void_v<Value>)
      fill_on_device(v_in(), count, [](Value* d, std::int64_t m) { fill_input<Value>(d, m, Value{0}, ~Value{0}); });
  }
  // Fresh random data made on the device a slice at a time and copied to the host array.
  template <class T, class Fill>
  static void fill_on_device(T* h, std::int64_t count, Fill fill) {
    const std::int64_t slice = std::min<std::int64_t>(count, std::int64_t{1} << 28);
    device_array<T> d(slice);
    for (std::int64_t first = 0; first < count; first += slice) {
      const std::int64_t m = std::min(slice, count - first);
      fill(d.ptr, m);
      BENCH_CUDA(cudaMemcpy(h + first, d.ptr, static_cast<std::size_t>(m) * sizeof(T), cudaMemcpyDeviceToHost));
    }
  }
};

// Keys in order at the start, the end and spread samples (a full check of 16 GB would take longer
// than the row); pairs: the sampled values sorted with their keys, as a multiset per window.
template <class Key>
void check_sorted(const Key* keys, std::int64_t n) {
  const std::int64_t window = std::min<std::int64_t>(n, 1 << 20);
  for (std::int64_t first : {std::int64_t{0}, n - window, n / 3, n / 2})
    if (!std::is_sorted(keys + first, keys + first + window)) throw std::runtime_error("wrong result: keys out of order");
  for (std::int64_t i = 1; i < n; i += 1 + n / 4096)
    if (keys[i] < keys[i - 1]) throw std::runtime_error("wrong result: keys out of order");
}

// Times `work()`, a blocking call, between two events on the context stream (time_on_gpu: the
// stop event is recorded once the call has returned with the output in host memory).
template <class Work>
void time_blocking(benchmark::State& state, std::int64_t n, double bytes, Work&& work) {
  time_on_gpu(state, n, bytes, [&](cudaStream_t) { work(); });
}

template <class Key, class Value>
void host_row(benchmark::State& state, host_impl impl) {
  const std::int64_t n = state.range(0);
  constexpr std::size_t item_bytes = sizeof(Key) + sizeof(std::conditional_t<std::is_void_v<Value>, char[0], Value>);
  const std::size_t bytes = static_cast<std::size_t>(n) * item_bytes;
  auto& a = host_arrays<Key, Value>::get(n, !is_pageable(impl));
  auto& ctx = bench_context::get();
  const double link_bytes = 2.0 * static_cast<double>(bytes);  // in and out
  if (impl == host_impl::link || impl == host_impl::link_both) {
    device_array<char> d(static_cast<std::int64_t>(bytes));
    cudaStream_t other = nullptr;
    BENCH_CUDA(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
    const std::size_t key_bytes = static_cast<std::size_t>(n) * sizeof(Key);
    time_blocking(state, n, link_bytes, [&] {
      BENCH_CUDA(cudaMemcpyAsync(d.ptr, a.k_in(), key_bytes, cudaMemcpyHostToDevice, ctx.stream));
      if (a.v_in()) BENCH_CUDA(cudaMemcpyAsync(d.ptr + key_bytes, a.v_in(), bytes - key_bytes, cudaMemcpyHostToDevice, ctx.stream));
      cudaStream_t out = impl == host_impl::link_both ? other : ctx.stream;
      BENCH_CUDA(cudaMemcpyAsync(a.k_out(), d.ptr, key_bytes, cudaMemcpyDeviceToHost, out));
      if (a.v_out()) BENCH_CUDA(cudaMemcpyAsync(a.v_out(), d.ptr + key_bytes, bytes - key_bytes, cudaMemcpyDeviceToHost, out));
      BENCH_CUDA(cudaStreamSynchronize(out));
      BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
    });
    BENCH_CUDA(cudaStreamDestroy(other));
    return;
  }
  if (impl == host_impl::cub_pinned || impl == host_impl::cub_pageable) {
    // CUB's temporaries hold a second copy of keys and values: 3x the bytes, 96 GiB for 2^32 pairs.
    std::size_t temp_bytes = 0;
    if constexpr (std::is_void_v<Value>)
      BENCH_CUDA(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, static_cast<const Key*>(nullptr),
                                                static_cast<Key*>(nullptr), n, 0, 8 * int(sizeof(Key)), ctx.stream));
    else
      BENCH_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, static_cast<const Key*>(nullptr),
                                                 static_cast<Key*>(nullptr), static_cast<const Value*>(nullptr),
                                                 static_cast<Value*>(nullptr), n, 0, 8 * int(sizeof(Key)), ctx.stream));
    if (skip_unless_memory_fits(state, 2.0 * static_cast<double>(bytes) + static_cast<double>(temp_bytes))) return;
    device_array<Key> k_in(n), k_out(n);
    std::unique_ptr<device_array<std::conditional_t<std::is_void_v<Value>, char, Value>>> v_in, v_out;
    if constexpr (!std::is_void_v<Value>) {
      v_in = std::make_unique<device_array<Value>>(n);
      v_out = std::make_unique<device_array<Value>>(n);
    }
    auto sort = [&](void* temp) {
      if constexpr (std::is_void_v<Value>)
        return cub::DeviceRadixSort::SortKeys(temp, temp_bytes, k_in.ptr, k_out.ptr, n, 0, 8 * int(sizeof(Key)), ctx.stream);
      else
        return cub::DeviceRadixSort::SortPairs(temp, temp_bytes, k_in.ptr, k_out.ptr, v_in->ptr, v_out->ptr, n, 0,
                                               8 * int(sizeof(Key)), ctx.stream);
    };
    device_array<char> temp(static_cast<std::int64_t>(temp_bytes));
    const std::size_t key_bytes = static_cast<std::size_t>(n) * sizeof(Key);
    time_blocking(state, n, link_bytes, [&] {
      BENCH_CUDA(cudaMemcpyAsync(k_in.ptr, a.k_in(), key_bytes, cudaMemcpyHostToDevice, ctx.stream));
      if constexpr (!std::is_void_v<Value>)
        BENCH_CUDA(cudaMemcpyAsync(v_in->ptr, a.v_in(), bytes - key_bytes, cudaMemcpyHostToDevice, ctx.stream));
      BENCH_CUDA(sort(temp.ptr));
      BENCH_CUDA(cudaMemcpyAsync(a.k_out(), k_out.ptr, key_bytes, cudaMemcpyDeviceToHost, ctx.stream));
      if constexpr (!std::is_void_v<Value>)
        BENCH_CUDA(cudaMemcpyAsync(a.v_out(), v_out->ptr, bytes - key_bytes, cudaMemcpyDeviceToHost, ctx.stream));
      BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
    });
    check_sorted(a.k_out(), n);
    return;
  }
  // Upsweep, core layer: the query with the row's budget, storage allocated once.
  const bool budgeted = impl == host_impl::upsweep_budget || impl == host_impl::upsweep_budget_pageable ||
                        impl == host_impl::upsweep_budget_no_scratch;
  host_sort_storage storage;
  storage.device_bytes = budgeted ? bytes / 4 : 0;
  auto sort = [&] {
    if constexpr (std::is_void_v<Value>)
      return host_sort_keys(storage, a.k_in(), a.k_out(), n, 0, 8 * int(sizeof(Key)), ctx.stream);
    else
      return host_sort_pairs(storage, a.k_in(), a.k_out(), a.v_in(), a.v_out(), n, 0, 8 * int(sizeof(Key)), ctx.stream);
  };
  BENCH_CUDA(sort());
  if (skip_unless_memory_fits(state, static_cast<double>(storage.device_bytes))) return;
  device_array<char> d_storage(static_cast<std::int64_t>(storage.device_bytes));
  host_block staging(storage.staging_bytes, true);
  storage.d_storage = d_storage.ptr;
  storage.h_staging = staging.ptr;
  // Out of core: a host scratch of the arrays' kind (pinned while the pinned total stays within
  // 64 GiB of the host's memory), unless the row is the three-read design without one. Past that
  // total (2^32 pairs) the scratch is pageable, which the sort leaves unused beside pinned arrays.
  std::unique_ptr<host_block> scratch;
  if (storage.scratch_bytes > 0 && impl != host_impl::upsweep_budget_no_scratch) {
    const bool pin = !is_pageable(impl) && 2.0 * static_cast<double>(bytes) + static_cast<double>(storage.scratch_bytes) <= 64.0 * (1 << 30);
    require_host_memory(static_cast<double>(storage.scratch_bytes), "the scratch");
    scratch = std::make_unique<host_block>(storage.scratch_bytes, pin);
    storage.h_scratch = scratch->ptr;
  }
  time_blocking(state, n, link_bytes, [&] { BENCH_CUDA(sort()); });
  check_sorted(a.k_out(), n);
}

std::vector<std::int64_t> host_sizes() {
  int max_log2 = 32;
  if (const char* cap = std::getenv("UPSWEEP_BENCH_MAX_LOG2")) max_log2 = std::atoi(cap);
  std::vector<std::int64_t> sizes;
  for (int log2 : {28, 32})
    if (log2 <= max_log2) sizes.push_back(std::int64_t{1} << log2);
  return sizes;
}

template <class Key, class Value>
void register_host_case(const std::string& row) {
  static const std::pair<host_impl, const char*> impls[] = {
      {host_impl::link, "link"}, {host_impl::link_both, "link_both"}, {host_impl::cub_pinned, "cub_pinned"},
      {host_impl::upsweep, "upsweep"}, {host_impl::upsweep_budget, "upsweep_budget"},
      {host_impl::upsweep_budget_no_scratch, "upsweep_budget_no_scratch"},
      {host_impl::cub_pageable, "cub_pageable"}, {host_impl::upsweep_pageable, "upsweep_pageable"},
      {host_impl::upsweep_budget_pageable, "upsweep_budget_pageable"}};
  for (const std::int64_t n : host_sizes())  // all rows of one size together: they share the host arrays
    for (const auto& [impl, name] : impls)
      add_row("host/" + row + "/" + name, {n}, 0.5, [impl = impl](benchmark::State& state) {
        guarded(state, [&] { host_row<Key, Value>(state, impl); });
      });
}

const bool registered = register_later([] {
  register_host_case<std::uint32_t, void>("keys_u32");
  register_host_case<std::uint32_t, std::uint32_t>("pairs_u32_u32");
});

}  // namespace
}  // namespace upsweep::bench
