// Suite `compact`: stream compaction by Upsweep (core layer, caller temporary storage), CUB and
// Thrust (par_nosync): select_if and stable partition with the predicate `value < threshold` on
// uniform random int32 / int64 at selection rates 1%, 50% and 99%; unique and run-length encode
// on data whose runs start with probability 1%, 50% or 99% (that fraction of the items are run
// heads). n = 10^2 .. 10^8, and 10^9 for the headline rows (int32 at 50%). GB/s counts the
// algorithmic bytes: the input read once, the expected output written once. The Upsweep rows
// check their last output after the timing; a wrong one is reported as an error.
// Upsweep's unique and run_length_encode come from the compiled API (compact.hpp, core layer):
// they are built there from select_flagged, not in the template layer.
#include "bench_support.cuh"

#include <upsweep/compact/device_partition.cuh>
#include <upsweep/compact.hpp>
#include <upsweep/compact/device_run_length_encode.cuh>
#include <upsweep/compact/device_select.cuh>

#include <cub/device/device_partition.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/logical.h>
#include <thrust/transform_reduce.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/partition.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/unique.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace upsweep::bench {
namespace {

// Values are uniform in [1, value_range<T>], so `value < threshold` keeps rate% of them.
template <class T>
inline constexpr T value_range = static_cast<T>(sizeof(T) == 4 ? 1'000'000ll : 1'000'000'000'000ll);

template <class T>
struct below {
  T threshold;
  __host__ __device__ bool operator()(const T& x) const { return x < threshold; }
};

template <class T>
below<T> keep_rate(int rate_percent) {
  return {static_cast<T>(1 + value_range<T> / 100 * rate_percent)};
}

template <class T>
void fill_uniform(T* d, std::int64_t n) { fill_input<T>(d, n, T{1}, value_range<T>); }

// Runs for unique / run-length encode: item i starts a run with probability rate% (item 0 always),
// run ids come from an inclusive scan of those starts, and each run gets a hashed non-zero value
// (adjacent runs sharing a value is a 2^-31 event, so the run count is the run-start count).
template <class T>
__global__ void run_starts_kernel(T* out, std::int64_t n, std::uint64_t seed, int rate_percent) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const bool starts = i == 0 || test::random_value<std::uint32_t>(seed, static_cast<std::uint64_t>(i), 0, 9999) <
                                      static_cast<std::uint32_t>(rate_percent * 100);
    out[i] = starts ? T{1} : T{0};
  }
}

template <class T>
__global__ void run_values_kernel(T* data, std::int64_t n, std::uint64_t seed) {
  constexpr auto largest = static_cast<std::uint64_t>(sizeof(T) == 4 ? 0x7fffffffull : 0x7fffffffffffffffull);
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    data[i] = static_cast<T>(1 + test::mix64(seed ^ static_cast<std::uint64_t>(data[i])) % (largest - 1));
}

template <class T>
void fill_runs(T* d, std::int64_t n, int rate_percent) {
  auto& ctx = bench_context::get();
  run_starts_kernel<<<1024, 256, 0, ctx.stream>>>(d, n, ++ctx.seed, rate_percent);
  BENCH_CUDA(cudaGetLastError());
  thrust::inclusive_scan(thrust::cuda::par_nosync.on(ctx.stream), d, d + n, d);
  run_values_kernel<<<1024, 256, 0, ctx.stream>>>(d, n, ++ctx.seed);
  BENCH_CUDA(cudaGetLastError());
  BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
}

template <class T>
double select_bytes(std::int64_t n, int rate_percent) {
  return static_cast<double>(n) * sizeof(T) * (1.0 + rate_percent / 100.0);
}

// ---- result checks (Upsweep rows, after the timing, on the last iteration's output) -------------
// A wrong row is reported as an error, not as a time. Order-free fingerprints: equal sums for the
// same multiset of items; the tests check order.

template <class T>
struct item_fingerprint {
  below<T> pred;
  bool only_kept;
  __device__ std::uint64_t operator()(const T& x) const {
    return !only_kept || pred(x) ? test::mix64(static_cast<std::uint64_t>(x)) : 0;
  }
};

template <class T>
std::uint64_t fingerprint(const T* d, std::int64_t n, below<T> pred, bool only_kept) {
  const cudaStream_t s = bench_context::get().stream;
  return thrust::transform_reduce(thrust::cuda::par.on(s), d, d + n, item_fingerprint<T>{pred, only_kept},
                                  std::uint64_t{0}, thrust::plus<std::uint64_t>());
}

inline std::int64_t count_to_host(const std::int64_t* d_count) {
  std::int64_t count = -1;
  BENCH_CUDA(cudaMemcpy(&count, d_count, sizeof(count), cudaMemcpyDeviceToHost));
  return count;
}

template <class T>
std::int64_t expected_count(const T* in, std::int64_t n, below<T> pred) {
  return thrust::count_if(thrust::cuda::par.on(bench_context::get().stream), in, in + n, pred);
}

void require(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("wrong result: ") + what);
}

template <class T>
void check_selected(const T* in, const T* out, const std::int64_t* d_count, std::int64_t n, below<T> pred) {
  const std::int64_t count = count_to_host(d_count);
  require(count == expected_count(in, n, pred), "selected count");
  require(fingerprint(out, count, pred, false) == fingerprint(in, n, pred, true), "not the selected items");
}

template <class T>
void check_partitioned(const T* in, const T* out, const std::int64_t* d_count, std::int64_t n, below<T> pred) {
  const std::int64_t count = count_to_host(d_count);
  require(count == expected_count(in, n, pred), "selected count");
  const auto policy = thrust::cuda::par.on(bench_context::get().stream);
  require(thrust::all_of(policy, out, out + count, pred) && thrust::none_of(policy, out + count, out + n, pred),
          "items on the wrong side of the split");
  require(fingerprint(out, n, pred, false) == fingerprint(in, n, pred, false), "not a permutation of the input");
}

// ---- select_if ---------------------------------------------------------------------------------

template <class T, class Policy = void>
void upsweep_select_if(benchmark::State& state, int rate) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n), out(n);
  device_array<std::int64_t> count(1);
  fill_uniform(in.ptr, n);
  const T* d_in = in.ptr;
  const below<T> pred = keep_rate<T>(rate);
  time_with_temp_storage(state, n, select_bytes<T>(n, rate), [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return upsweep::select_if<Policy>(temp, bytes, d_in, out.ptr, count.ptr, n, pred, s);
  });
  check_selected(d_in, out.ptr, count.ptr, n, pred);
}

template <class T>
void cub_select_if(benchmark::State& state, int rate) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n), out(n);
  device_array<std::int64_t> count(1);
  fill_uniform(in.ptr, n);
  const below<T> pred = keep_rate<T>(rate);
  time_with_temp_storage(state, n, select_bytes<T>(n, rate), [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return cub::DeviceSelect::If(temp, bytes, in.ptr, out.ptr, count.ptr, n, pred, s);
  });
}

// Thrust's copy_if returns the end of the output, so it copies the count to the host and waits
// for it inside the timed region (and allocates its temporaries there, stream-ordered).
template <class T>
void thrust_select_if(benchmark::State& state, int rate) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n), out(n);
  fill_uniform(in.ptr, n);
  const below<T> pred = keep_rate<T>(rate);
  time_on_gpu(state, n, select_bytes<T>(n, rate), [&](cudaStream_t s) {
    auto end = thrust::copy_if(thrust::cuda::par_nosync.on(s), in.ptr, in.ptr + n, out.ptr, pred);
    benchmark::DoNotOptimize(end);
  });
}

// ---- partition (selected first, rejected after) ------------------------------------------------

template <class T, class Policy = void>
void upsweep_partition(benchmark::State& state, int rate) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n), out(n);
  device_array<std::int64_t> count(1);
  fill_uniform(in.ptr, n);
  const T* d_in = in.ptr;
  const below<T> pred = keep_rate<T>(rate);
  time_with_temp_storage(state, n, 2.0 * n * sizeof(T), [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return upsweep::partition<Policy>(temp, bytes, d_in, out.ptr, count.ptr, n, pred, s);
  });
  check_partitioned(d_in, out.ptr, count.ptr, n, pred);
}

// CUB's partition writes the rejected items in reverse order (not stable on that side). Offset is
// the type of the item count, which selects CUB's 32- or 64-bit offsets.
template <class T, class Offset>
void cub_partition(benchmark::State& state, int rate) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n), out(n);
  device_array<std::int64_t> count(1);
  fill_uniform(in.ptr, n);
  const below<T> pred = keep_rate<T>(rate);
  const Offset num_items = static_cast<Offset>(n);
  time_with_temp_storage(state, n, 2.0 * n * sizeof(T), [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return cub::DevicePartition::If(temp, bytes, in.ptr, out.ptr, count.ptr, num_items, pred, s);
  });
}

// Stable on both sides like Upsweep's, into two arrays; returns both ends, so it syncs like copy_if.
template <class T>
void thrust_partition(benchmark::State& state, int rate) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n), selected(n), rejected(n);
  fill_uniform(in.ptr, n);
  const below<T> pred = keep_rate<T>(rate);
  time_on_gpu(state, n, 2.0 * n * sizeof(T), [&](cudaStream_t s) {
    auto ends = thrust::stable_partition_copy(thrust::cuda::par_nosync.on(s), in.ptr, in.ptr + n, selected.ptr,
                                              rejected.ptr, pred);
    benchmark::DoNotOptimize(ends);
  });
}

// ---- unique (consecutive duplicates) -------------------------------------------------------------

template <class T>
void cub_unique(benchmark::State& state, int rate) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n), out(n);
  device_array<std::int64_t> count(1);
  fill_runs(in.ptr, n, rate);
  time_with_temp_storage(state, n, select_bytes<T>(n, rate), [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return cub::DeviceSelect::Unique(temp, bytes, in.ptr, out.ptr, count.ptr, n, s);
  });
}

// Thrust's unique_copy is the reference: the same count and items; run lengths adding up to n.
template <class T, class LengthT = std::int64_t>
void check_unique(const T* in, const T* out, const std::int64_t* d_count, std::int64_t n,
                  const LengthT* lengths = nullptr) {
  const auto policy = thrust::cuda::par.on(bench_context::get().stream);
  device_array<T> expected(n);
  const std::int64_t count = thrust::unique_copy(policy, in, in + n, expected.ptr) - expected.ptr;
  require(count_to_host(d_count) == count, "run count");
  require(thrust::equal(policy, out, out + count, expected.ptr), "not the first item of each run");
  if (lengths) require(thrust::reduce(policy, lengths, lengths + count, std::int64_t{0}) == n, "run lengths");
}

template <class T>
void upsweep_unique(benchmark::State& state, int rate) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n), out(n);
  device_array<std::int64_t> count(1);
  fill_runs(in.ptr, n, rate);
  time_with_temp_storage(state, n, select_bytes<T>(n, rate), [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return upsweep::unique(temp, bytes, in.ptr, out.ptr, count.ptr, n, s);
  });
  check_unique(in.ptr, out.ptr, count.ptr, n);
}

// Returns the end of the output: syncs like copy_if.
template <class T>
void thrust_unique(benchmark::State& state, int rate) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n), out(n);
  fill_runs(in.ptr, n, rate);
  time_on_gpu(state, n, select_bytes<T>(n, rate), [&](cudaStream_t s) {
    auto end = thrust::unique_copy(thrust::cuda::par_nosync.on(s), in.ptr, in.ptr + n, out.ptr);
    benchmark::DoNotOptimize(end);
  });
}

// ---- run-length encode (run values and their lengths) --------------------------------------------

using run_length_t = int;  // CUB's Encode takes an int item count and counts runs in int

template <class T>
double encode_bytes(std::int64_t n, int rate_percent) {
  return static_cast<double>(n) * (sizeof(T) + rate_percent / 100.0 * (sizeof(T) + sizeof(run_length_t)));
}

template <class T>
void cub_run_length_encode(benchmark::State& state, int rate) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n), values(n);
  device_array<run_length_t> lengths(n);
  device_array<std::int64_t> count(1);
  fill_runs(in.ptr, n, rate);
  const int num_items = static_cast<int>(n);
  time_with_temp_storage(state, n, encode_bytes<T>(n, rate), [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return cub::DeviceRunLengthEncode::Encode(temp, bytes, in.ptr, values.ptr, lengths.ptr, count.ptr, num_items, s);
  });
}

// Lengths of LengthT: int, as CUB's (the template layer, Policy void for the default), or
// std::int64_t, the compiled API's (Policy void: through the compiled API). The bytes counted are
// CUB's int ones either way, to compare like for like.
template <class T, class LengthT = run_length_t, class Policy = void>
void upsweep_run_length_encode(benchmark::State& state, int rate) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n), values(n);
  device_array<LengthT> lengths(n);
  device_array<std::int64_t> count(1);
  fill_runs(in.ptr, n, rate);
  time_with_temp_storage(state, n, encode_bytes<T>(n, rate), [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    if constexpr (std::is_same_v<LengthT, std::int64_t> && std::is_void_v<Policy>)
      return upsweep::run_length_encode(temp, bytes, static_cast<const T*>(in.ptr), values.ptr, lengths.ptr, count.ptr,
                                        n, s);
    else
      return upsweep::run_length_encode<Policy>(temp, bytes, static_cast<const T*>(in.ptr), values.ptr, lengths.ptr,
                                                count.ptr, n, s);
  });
  check_unique(in.ptr, values.ptr, count.ptr, n, lengths.ptr);
}

// reduce_by_key of a constant 1 per item: Thrust's run-length encode. Returns both ends: syncs.
template <class T>
void thrust_run_length_encode(benchmark::State& state, int rate) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n), values(n);
  device_array<run_length_t> lengths(n);
  fill_runs(in.ptr, n, rate);
  time_on_gpu(state, n, encode_bytes<T>(n, rate), [&](cudaStream_t s) {
    auto ends = thrust::reduce_by_key(thrust::cuda::par_nosync.on(s), in.ptr, in.ptr + n,
                                      thrust::make_constant_iterator(run_length_t{1}), values.ptr, lengths.ptr);
    benchmark::DoNotOptimize(ends);
  });
}

// ---- registration --------------------------------------------------------------------------------

using row_fn = void (*)(benchmark::State&, int);

// 10^2 .. 10^8, or .. 10^9 for the headline rows (UPSWEEP_BENCH_MAX_EXP caps both).
void add_compact_row(const std::string& op, const char* type, int rate, const char* impl, row_fn fn, bool headline) {
  const std::string name = "compact/" + op + "_" + type + "_" + std::to_string(rate) + "pct/" + impl;
  add_row(name, decade_sizes(headline ? 9 : 8), 0.1,
          [fn, rate](benchmark::State& state) { guarded(state, [&] { fn(state, rate); }); });
}

template <class T>
void register_select_if(const char* type, int rate, bool headline = false) {
  add_compact_row("select_if", type, rate, "upsweep", upsweep_select_if<T>, headline);
  add_compact_row("select_if", type, rate, "cub", cub_select_if<T>, headline);
  add_compact_row("select_if", type, rate, "thrust", thrust_select_if<T>, headline);
}

template <class T>
void register_partition(const char* type, int rate, bool headline = false) {
  add_compact_row("partition", type, rate, "upsweep", upsweep_partition<T>, headline);
  add_compact_row("partition", type, rate, "cub", cub_partition<T, std::int64_t>, headline);
  if (headline) add_compact_row("partition", type, rate, "cub32", cub_partition<T, int>, headline);
  add_compact_row("partition", type, rate, "thrust", thrust_partition<T>, headline);
}

template <class T>
void register_unique(const char* type, int rate, bool headline = false) {
  add_compact_row("unique", type, rate, "upsweep", upsweep_unique<T>, headline);
  add_compact_row("unique", type, rate, "cub", cub_unique<T>, headline);
  add_compact_row("unique", type, rate, "thrust", thrust_unique<T>, headline);
}

template <class T>
void register_run_length_encode(const char* type, int rate, bool headline = false) {
  add_compact_row("run_length_encode", type, rate, "upsweep", upsweep_run_length_encode<T>, headline);
  add_compact_row("run_length_encode", type, rate, "upsweep_len64", upsweep_run_length_encode<T, std::int64_t>,
                  headline);
  add_compact_row("run_length_encode", type, rate, "cub", cub_run_length_encode<T>, headline);
  add_compact_row("run_length_encode", type, rate, "thrust", thrust_run_length_encode<T>, headline);
}

// A select policy of the default loads and look-back pause: tile shape and resident blocks.
template <int Threads, int ItemsPerThread, int MinBlocksPerSm, int SettleNs = 0,
          upsweep::tile_schedule Schedule = upsweep::tile_schedule::block_per_tile>
using select_shape = upsweep::select_policy<Threads, ItemsPerThread, upsweep::tile_io::transpose,
                                            upsweep::default_look_back_delay_ns, MinBlocksPerSm, SettleNs, Schedule>;

// A select_if row over int32 at 50 % with the given policy, under tune/select_if_i32_50pct/.
template <class Policy>
void add_select_tune_row(const std::string& name, const std::vector<std::int64_t>& sizes) {
  add_row("tune/select_if_i32_50pct/" + name, sizes, 0.1, [](benchmark::State& state) {
    guarded(state, [&] { upsweep_select_if<std::int32_t, Policy>(state, 50); });
  });
}

// A run_length_encode row over int32 at 50 % with the given policy, under tune/run_length_encode_i32_50pct/.
template <class Policy>
void add_run_length_tune_row(const std::string& name, const std::vector<std::int64_t>& sizes) {
  add_row("tune/run_length_encode_i32_50pct/" + name, sizes, 0.1, [](benchmark::State& state) {
    guarded(state, [&] { upsweep_run_length_encode<std::int32_t, run_length_t, Policy>(state, 50); });
  });
}

const bool registered = register_later([] {
  constexpr bool headline = true;
  register_select_if<std::int32_t>("i32", 50, headline);  // bar: >= 1.05x CUB at 10^9
  register_select_if<std::int32_t>("i32", 1);
  register_select_if<std::int32_t>("i32", 99);
  register_select_if<std::int64_t>("i64", 1);
  register_select_if<std::int64_t>("i64", 50);
  register_select_if<std::int64_t>("i64", 99);
  register_partition<std::int32_t>("i32", 50, headline);
  const std::vector<std::int64_t> tune_sizes{100'000'000, 1'000'000'000};
  // Tuning: resident blocks per SM (the default asks for 6 at 4-byte items) and tile shape; a
  // helper measured 256 x 32 at 3 blocks and 384 x 16 at 4 at 2.71 ms against 2.91 (H200, 10^9).
  add_select_tune_row<select_shape<256, 16, 3>>("min_blocks_3", tune_sizes);
  add_select_tune_row<select_shape<256, 16, 5>>("min_blocks_5", tune_sizes);
  add_select_tune_row<select_shape<256, 16, 6>>("min_blocks_6", tune_sizes);
  add_select_tune_row<select_shape<384, 16, 2>>("384x16_min_blocks_2", tune_sizes);
  add_select_tune_row<select_shape<384, 16, 4>>("384x16_min_blocks_4", tune_sizes);
  add_select_tune_row<select_shape<256, 32, 3>>("256x32_min_blocks_3", tune_sizes);
  // A pause between publishing the count and the first look-back read.
  add_select_tune_row<select_shape<256, 16, 6, 600>>("min_blocks_6_settle600", tune_sizes);
  add_select_tune_row<select_shape<256, 16, 6, 1200>>("min_blocks_6_settle1200", tune_sizes);
  add_select_tune_row<select_shape<256, 16, 6, 2000>>("min_blocks_6_settle2000", tune_sizes);
  add_select_tune_row<select_shape<256, 32, 3, 1200>>("256x32_min_blocks_3_settle1200", tune_sizes);
  // The scan's reduce-ahead schedule.
  add_select_tune_row<select_shape<256, 16, 6, 0, upsweep::tile_schedule::reduce_ahead>>("min_blocks_6_reduce_ahead",
                                                                                       tune_sizes);
  add_select_tune_row<select_shape<256, 16, 5, 0, upsweep::tile_schedule::reduce_ahead>>("min_blocks_5_reduce_ahead",
                                                                                       tune_sizes);
  // Partition's two-kernel form (select, then the reversal) where the default takes one pass: a
  // one-block wave limit sends every input of more than one tile to it.
  add_row("tune/partition_i32_50pct/two_kernels", decade_sizes(6), 0.1, [](benchmark::State& state) {
    using two_kernels = upsweep::select_policy<256, 16, upsweep::tile_io::transpose, upsweep::default_look_back_delay_ns,
                                               6, 1200, upsweep::tile_schedule::block_per_tile, 1>;
    guarded(state, [&] { upsweep_partition<std::int32_t, two_kernels>(state, 50); });
  });
  register_partition<std::int32_t>("i32", 1);
  register_partition<std::int32_t>("i32", 99);
  register_partition<std::int64_t>("i64", 50);
  register_unique<std::int32_t>("i32", 50, headline);
  register_unique<std::int64_t>("i64", 50);
  register_run_length_encode<std::int32_t>("i32", 50, headline);
  // Run-length encoding's tile and resident blocks (the default: select's 256 x 16 reducing ahead
  // at 5 blocks; until then a block per tile at 6 with the 1200 ns pause, min_blocks_6).
  add_run_length_tune_row<select_shape<256, 16, 4, 1200>>("min_blocks_4", tune_sizes);
  add_run_length_tune_row<select_shape<256, 16, 6, 1200>>("min_blocks_6", tune_sizes);
  add_run_length_tune_row<select_shape<256, 16, 6, 0>>("min_blocks_6_no_pause", tune_sizes);
  add_run_length_tune_row<select_shape<256, 8, 8, 1200>>("256x8_min_blocks_8", tune_sizes);
  // Select's reduce-ahead schedule; its shared memory fits 5 blocks of 256 x 16 per SM.
  add_run_length_tune_row<select_shape<256, 16, 4, 0, upsweep::tile_schedule::reduce_ahead>>(
      "min_blocks_4_reduce_ahead", tune_sizes);
  add_run_length_tune_row<select_shape<256, 16, 5, 0, upsweep::tile_schedule::reduce_ahead>>(
      "min_blocks_5_reduce_ahead", tune_sizes);
  add_run_length_tune_row<select_shape<256, 8, 8, 0, upsweep::tile_schedule::reduce_ahead>>(
      "256x8_min_blocks_8_reduce_ahead", tune_sizes);
  // Small inputs, a block per tile: more and smaller tiles than the default's three at 10^4.
  const std::vector<std::int64_t> small_sizes{1'000, 10'000, 100'000};
  add_run_length_tune_row<select_shape<256, 16, 5, 1200>>("small_256x16", small_sizes);
  add_run_length_tune_row<select_shape<256, 8, 8, 1200>>("small_256x8", small_sizes);
  add_run_length_tune_row<select_shape<128, 16, 8, 1200>>("small_128x16", small_sizes);
  add_run_length_tune_row<select_shape<128, 8, 8, 1200>>("small_128x8", small_sizes);
  add_run_length_tune_row<select_shape<512, 8, 2, 1200>>("small_512x8", small_sizes);
});

}  // namespace
}  // namespace upsweep::bench
