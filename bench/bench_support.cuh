// upsweep-bench plumbing: CUDA-event timing with an L2 flush before every iteration, fresh
// non-zero random inputs, 1000-based GB/s counters, the size ladder 10^2 .. 10^9, and the row
// registry that upsweep-bench's --suite, --types and --sizes select from.
#pragma once

#include "../tests/support/device_random.cuh"

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace upsweep::bench {

inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}
#define BENCH_CUDA(call) ::upsweep::bench::check((call), #call)

// Owning device allocation; freed at scope exit.
template <class T>
struct device_array {
  T* ptr = nullptr;
  std::int64_t n = 0;
  explicit device_array(std::int64_t count) : n(count) {
    BENCH_CUDA(cudaMalloc(&ptr, static_cast<std::size_t>(count > 0 ? count : 1) * sizeof(T)));
  }
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;
  ~device_array() { cudaFree(ptr); }
};

// One per process: the stream every benchmark runs on, timing events and the L2 flush buffer.
struct bench_context {
  cudaStream_t stream{};
  cudaEvent_t start{}, stop{};
  void* flush_buffer = nullptr;
  std::size_t flush_bytes = 0;
  std::uint64_t seed = 0;

  static bench_context& get() {
    static bench_context context;
    return context;
  }

 private:
  bench_context() {
    BENCH_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    BENCH_CUDA(cudaEventCreate(&start));
    BENCH_CUDA(cudaEventCreate(&stop));
    int device = 0, l2 = 0;
    BENCH_CUDA(cudaGetDevice(&device));
    BENCH_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    flush_bytes = static_cast<std::size_t>(l2) * 2;
    BENCH_CUDA(cudaMalloc(&flush_buffer, flush_bytes));
    std::random_device random;
    seed = (static_cast<std::uint64_t>(random()) << 32) ^ random();
  }
};

// Fresh random data in [lo, hi]; callers pick ranges that exclude 0 where zeros would flatter.
template <class T>
void fill_input(T* d, std::int64_t n, T lo, T hi) {
  auto& ctx = bench_context::get();
  BENCH_CUDA(upsweep::test::fill_random(d, n, ++ctx.seed, lo, hi, ctx.stream));
  BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
}

// Times `work(stream)` per iteration with CUDA events, after flushing L2; reports GB/s of
// `bytes_per_run` (1000-based) and items/s of `items`. `prepare(stream)` runs before the flush and
// the start event of every iteration (and before the warm-up), so it is never timed: the sort
// suite uses it to restore unsorted input for implementations that sort in place.
template <class Prepare, class Work>
void time_on_gpu_prepared(benchmark::State& state, std::int64_t items, double bytes_per_run, Prepare&& prepare,
                          Work&& work) {
  auto& ctx = bench_context::get();
  prepare(ctx.stream);
  work(ctx.stream);  // warm-up: module load, first-touch
  BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
  for (auto _ : state) {
    prepare(ctx.stream);
    BENCH_CUDA(cudaMemsetAsync(ctx.flush_buffer, 0, ctx.flush_bytes, ctx.stream));
    BENCH_CUDA(cudaEventRecord(ctx.start, ctx.stream));
    work(ctx.stream);
    BENCH_CUDA(cudaEventRecord(ctx.stop, ctx.stream));
    BENCH_CUDA(cudaEventSynchronize(ctx.stop));
    float ms = 0;
    BENCH_CUDA(cudaEventElapsedTime(&ms, ctx.start, ctx.stop));
    state.SetIterationTime(static_cast<double>(ms) * 1e-3);
  }
  state.counters["GB/s"] = benchmark::Counter(bytes_per_run * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["items"] = static_cast<double>(items);
  state.SetItemsProcessed(state.iterations() * items);
}

template <class Work>
void time_on_gpu(benchmark::State& state, std::int64_t items, double bytes_per_run, Work&& work) {
  time_on_gpu_prepared(state, items, bytes_per_run, [](cudaStream_t) {}, work);
}

// A core-layer call timed as the library is meant to be used: the size query, storage allocated
// once outside the timing, then the timed call. `call(temp, bytes, stream)` makes the core call
// and returns its cudaError_t.
template <class Call>
void time_with_temp_storage(benchmark::State& state, std::int64_t items, double bytes_per_run, Call&& call) {
  std::size_t bytes = 0;
  BENCH_CUDA(call(nullptr, bytes, bench_context::get().stream));
  device_array<char> temp(static_cast<std::int64_t>(bytes));
  time_on_gpu(state, items, bytes_per_run, [&](cudaStream_t s) { BENCH_CUDA(call(temp.ptr, bytes, s)); });
}

// Skips the row (Google Benchmark's "error" status; report.py lists it apart) when `bytes` of
// device memory, plus a margin for the libraries' own temporaries, are not free.
inline bool skip_unless_memory_fits(benchmark::State& state, double bytes) {
  std::size_t free = 0, total = 0;
  BENCH_CUDA(cudaMemGetInfo(&free, &total));
  constexpr double margin = 1.0e9;
  if (bytes + margin <= static_cast<double>(free)) return false;
  state.SkipWithError(("needs " + std::to_string(static_cast<long long>(bytes / 1e6)) + " MB of device memory, " +
                       std::to_string(free / 1000000) + " MB free")
                          .c_str());
  return true;
}

// Runs one row's body; a failed CUDA call (or a wrong result) marks only this row as an error
// ("error_occurred" in the JSON, listed by report.py) instead of ending the whole run. A sticky
// error (an illegal address) still fails every later row, each with its message.
template <class Body>
void guarded(benchmark::State& state, Body&& body) {
  try {
    body();
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

// ---- rows and their selection ---------------------------------------------------------------------

// What this run registers, from upsweep-bench's options (empty lists select everything). A row
// is named suite/case/impl; its element type is the key or item type (pairs: the key's).
struct row_selection {
  std::vector<std::string> suites;  // --suite
  std::vector<std::string> types;   // --types
  std::vector<std::int64_t> sizes;  // --sizes, single values: every row runs at exactly these ...
  std::vector<std::pair<std::int64_t, std::int64_t>> ranges;  // ... plus its own sizes inside these

  bool restricts_sizes() const { return !sizes.empty() || !ranges.empty(); }
};

inline row_selection& selection() {
  static row_selection s;
  return s;
}

// The first '_'-separated word of the case name that names a type: "pairs_u64_u32" -> "u64",
// "select_if_i32_50pct" -> "i32"; "" when none does (then the row says its type itself).
inline std::string type_in_case(const std::string& row_name) {
  const auto first = row_name.find('/'), second = row_name.find('/', first + 1);
  const std::string case_name = row_name.substr(first + 1, second - first - 1) + "_";
  static const char* const types[] = {"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64", "bf16"};
  for (std::size_t begin = 0, end; (end = case_name.find('_', begin)) != std::string::npos; begin = end + 1) {
    const std::string word = case_name.substr(begin, end - begin);
    for (const char* type : types)
      if (word == type) return word;
  }
  return "";
}

inline bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

// The sizes a row runs at: its own, or those the selection asks for (see row_selection).
inline std::vector<std::int64_t> selected_sizes(const std::vector<std::int64_t>& own) {
  const row_selection& sel = selection();
  if (!sel.restricts_sizes()) return own;
  std::vector<std::int64_t> chosen = sel.sizes;
  for (const std::int64_t n : own)
    for (const auto& [lo, hi] : sel.ranges)
      if (lo <= n && n <= hi) chosen.push_back(n);
  std::sort(chosen.begin(), chosen.end());
  chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
  return chosen;
}

// A row's minimum time per repetition, capped by UPSWEEP_BENCH_MIN_TIME (seconds) when set: a
// whole-suite run with repetitions fits in minutes that way.
inline double capped_min_time(double min_time_s) {
  const char* cap = std::getenv("UPSWEEP_BENCH_MIN_TIME");
  const double limit = cap ? std::atof(cap) : 0.0;
  return limit > 0 && limit < min_time_s ? limit : min_time_s;
}

// upsweep-bench-cub35 compiles the suites' sources a second time against the newest CCCL
// (UPSWEEP_BENCH_CUB35) and keeps only CUB's rows, renamed by cub35_impl. The sources register
// their other rows under `if constexpr (!cub_rows_only)` or `#ifndef UPSWEEP_BENCH_CUB35`, so no
// Upsweep kernel is built against the other CCCL.
#ifdef UPSWEEP_BENCH_CUB35
inline constexpr bool cub_rows_only = true;
#else
inline constexpr bool cub_rows_only = false;
#endif

// A row's impl name in upsweep-bench-cub35: cub -> cub35, cub32 -> cub35_32, cub64 -> cub35_64;
// "" for any impl that is not CUB's (not registered there).
inline std::string cub35_impl(const std::string& impl) {
  if (impl.rfind("cub", 0) != 0) return "";
  return impl == "cub" ? "cub35" : "cub35_" + impl.substr(3);
}

// The item count CUB's rows pass: an int, as CUB's users do below 2^31, so that CUB runs its
// 32-bit offsets. Counted in int64, CUB's unique_by_key took 1.6x and its reduce_by_key 1.4x as
// long at 10^8 and 10^9 items, its other algorithms within 7 % (H200, 2026-11-29, CUB 3.0 and 3.5).
inline int cub_count(std::int64_t n) {
  if (n > std::numeric_limits<int>::max()) throw std::runtime_error("a CUB row past 2^31 - 1 items");
  return static_cast<int>(n);
}

// Registers one row, timed by CUDA events (manual time, reported in ms), at its selected sizes;
// a row outside the selection, or left with no size, is not registered at all. `type` names the
// element type when the case name does not ("seeds/scan/fenwick" is int32).
template <class Fn>
void add_row(std::string name, const std::vector<std::int64_t>& sizes, double min_time_s, Fn&& fn,
             const std::string& type = "") {
  if constexpr (cub_rows_only) {
    const std::size_t impl_at = name.rfind('/') + 1;
    const std::string impl = cub35_impl(name.substr(impl_at));
    if (impl.empty()) return;
    name = name.substr(0, impl_at) + impl;
  }
  const row_selection& sel = selection();
  if (!sel.suites.empty() && !contains(sel.suites, name.substr(0, name.find('/')))) return;
  if (!sel.types.empty() && !contains(sel.types, type.empty() ? type_in_case(name) : type)) return;
  // One registration per size (the names stay name/n): below 10^6 items a tenth of the minimum
  // time, below 10^8 a quarter. The timed part of a small call is a few microseconds, but every
  // iteration also pays the L2 flush and an event wait (about 60 us): at the full minimum time a
  // 10^2 row took ten times its timed seconds, and whole-suite runs went past their 8 minutes. A
  // tenth still averages over a thousand or more calls per repetition, a quarter at 10^7 over
  // several hundred.
  for (const std::int64_t n : selected_sizes(sizes)) {
    const double scaled = n < 1'000'000 ? min_time_s / 10 : n < 100'000'000 ? min_time_s / 4 : min_time_s;
    benchmark::RegisterBenchmark(name.c_str(), fn)
        ->Arg(n)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->MinTime(capped_min_time(scaled));
  }
}

// Rows register when main() calls register_rows(), after the options are read, not during static
// initialisation: each benchmark file hands its registration function over with register_later.
using row_registration = void (*)();
inline std::vector<row_registration>& row_registrations() {
  static std::vector<row_registration> all;
  return all;
}
inline bool register_later(row_registration registration) {
  row_registrations().push_back(registration);
  return true;
}
inline void register_rows() {
  for (const row_registration registration : row_registrations()) registration();
}

// 10^2, 10^3, ..., 10^max_exp (capped by UPSWEEP_BENCH_MAX_EXP for quick runs).
inline std::vector<std::int64_t> decade_sizes(int max_exp = 9) {
  if (const char* cap = std::getenv("UPSWEEP_BENCH_MAX_EXP")) max_exp = std::min(max_exp, std::atoi(cap));
  std::vector<std::int64_t> sizes;
  std::int64_t n = 100;
  for (int e = 2; e <= max_exp; ++e, n *= 10) sizes.push_back(n);
  return sizes;
}

}  // namespace upsweep::bench
