// Suite `compact`: stream compaction by Upsweep (core layer, caller temporary storage), CUB and
// Thrust (par_nosync): select_if with the predicate `value < threshold` on uniform random int32 /
// int64 at selection rates 1%, 50% and 99%; unique and run-length encode on data whose runs start
// with probability 1%, 50% or 99% (that fraction of the items are run heads); run-length lengths
// as int, and as int64 in the run_length_encode_len64 case (CUB too). n = 10^2 .. 10^8,
// and 10^9 for the headline rows (int32 at 50%). GB/s counts the algorithmic bytes: the input
// read once, the expected output written once. The Upsweep rows check their last output after
// the timing; a wrong one is reported as an error. The partitions: partition_bench.cu; the
// group-by family: group_bench.cu.
#include "compact_bench_support.cuh"

#include <upsweep/compact.hpp>
#include <upsweep/compact/device_run_length_encode.cuh>
#include <upsweep/compact/device_select.cuh>

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
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/unique.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace upsweep::bench {
namespace {

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
    return cub::DeviceSelect::If(temp, bytes, in.ptr, out.ptr, count.ptr, cub_count(n), pred, s);
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

// ---- unique (consecutive duplicates) -------------------------------------------------------------

template <class T>
void cub_unique(benchmark::State& state, int rate) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n), out(n);
  device_array<std::int64_t> count(1);
  fill_runs(in.ptr, n, rate * 100);
  time_with_temp_storage(state, n, select_bytes<T>(n, rate), [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return cub::DeviceSelect::Unique(temp, bytes, in.ptr, out.ptr, count.ptr, cub_count(n), s);
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
  fill_runs(in.ptr, n, rate * 100);
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
  fill_runs(in.ptr, n, rate * 100);
  time_on_gpu(state, n, select_bytes<T>(n, rate), [&](cudaStream_t s) {
    auto end = thrust::unique_copy(thrust::cuda::par_nosync.on(s), in.ptr, in.ptr + n, out.ptr);
    benchmark::DoNotOptimize(end);
  });
}

// ---- run-length encode (run values and their lengths) --------------------------------------------

using run_length_t = int;  // CUB's Encode takes an int item count and counts runs in int

template <class T, class LengthT = run_length_t>
double encode_bytes(std::int64_t n, int rate_percent) {
  return static_cast<double>(n) * (sizeof(T) + rate_percent / 100.0 * (sizeof(T) + sizeof(LengthT)));
}

// Lengths written as LengthT (CUB still counts in int).
template <class T, class LengthT = run_length_t>
void cub_run_length_encode(benchmark::State& state, int rate) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n), values(n);
  device_array<LengthT> lengths(n);
  device_array<std::int64_t> count(1);
  fill_runs(in.ptr, n, rate * 100);
  const int num_items = static_cast<int>(n);
  time_with_temp_storage(state, n, encode_bytes<T, LengthT>(n, rate), [&](void* temp, std::size_t& bytes,
                                                                             cudaStream_t s) {
    return cub::DeviceRunLengthEncode::Encode(temp, bytes, in.ptr, values.ptr, lengths.ptr, count.ptr, num_items, s);
  });
}

// Lengths of LengthT: int, as CUB's (the template layer, Policy void for the default), or
// std::int64_t, the compiled API's (Policy void: through the compiled API), a case of its own
// against CUB writing int64 lengths too.
template <class T, class LengthT = run_length_t, class Policy = void>
void upsweep_run_length_encode(benchmark::State& state, int rate) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n), values(n);
  device_array<LengthT> lengths(n);
  device_array<std::int64_t> count(1);
  fill_runs(in.ptr, n, rate * 100);
  time_with_temp_storage(state, n, encode_bytes<T, LengthT>(n, rate), [&](void* temp, std::size_t& bytes,
                                                                             cudaStream_t s) {
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
  fill_runs(in.ptr, n, rate * 100);
  time_on_gpu(state, n, encode_bytes<T>(n, rate), [&](cudaStream_t s) {
    auto ends = thrust::reduce_by_key(thrust::cuda::par_nosync.on(s), in.ptr, in.ptr + n,
                                      thrust::make_constant_iterator(run_length_t{1}), values.ptr, lengths.ptr);
    benchmark::DoNotOptimize(ends);
  });
}

// ---- registration --------------------------------------------------------------------------------

template <class T>
void register_select_if(const char* type, int rate, bool headline = false) {
  add_compact_row("select_if", type, rate, "cub", cub_select_if<T>, headline);
  if constexpr (!cub_rows_only) {
    add_compact_row("select_if", type, rate, "upsweep", upsweep_select_if<T>, headline);
    add_compact_row("select_if", type, rate, "thrust", thrust_select_if<T>, headline);
  }
}

template <class T>
void register_unique(const char* type, int rate, bool headline = false) {
  add_compact_row("unique", type, rate, "cub", cub_unique<T>, headline);
  if constexpr (!cub_rows_only) {
    add_compact_row("unique", type, rate, "upsweep", upsweep_unique<T>, headline);
    add_compact_row("unique", type, rate, "thrust", thrust_unique<T>, headline);
  }
}

template <class T>
void register_run_length_encode(const char* type, int rate, bool headline = false) {
  add_compact_row("run_length_encode", type, rate, "cub", cub_run_length_encode<T>, headline);
  add_compact_row("run_length_encode_len64", type, rate, "cub", cub_run_length_encode<T, std::int64_t>, headline);
  if constexpr (!cub_rows_only) {
    add_compact_row("run_length_encode", type, rate, "upsweep", upsweep_run_length_encode<T>, headline);
    add_compact_row("run_length_encode", type, rate, "thrust", thrust_run_length_encode<T>, headline);
    add_compact_row("run_length_encode_len64", type, rate, "upsweep", upsweep_run_length_encode<T, std::int64_t>,
                    headline);
  }
}

// A select policy of the default loads and look-back pause: tile shape and resident blocks.
template <int Threads, int ItemsPerThread, int MinBlocksPerSm, int SettleNs = 0,
          upsweep::tile_schedule Schedule = upsweep::tile_schedule::block_per_tile>
using select_shape = upsweep::select_policy<Threads, ItemsPerThread, upsweep::tile_io::transpose,
                                            upsweep::default_look_back_delay_ns, MinBlocksPerSm, SettleNs, Schedule>;

// A select_if row at 50 % with the given policy, under tune/select_if_<type>_50pct/.
template <class Policy, class T = std::int32_t>
void add_select_tune_row(const std::string& name, const std::vector<std::int64_t>& sizes) {
  const std::string type = sizeof(T) == 4 ? "i32" : "i64";
  add_row("tune/select_if_" + type + "_50pct/" + name, sizes, 0.1, [](benchmark::State& state) {
    guarded(state, [&] { upsweep_select_if<T, Policy>(state, 50); });
  });
}

// A reduce-ahead select shape that starts each tile's copy an iteration before reducing it.
template <int Threads, int ItemsPerThread, int MinBlocksPerSm, int SettleNs>
struct copying_ahead_shape : select_shape<Threads, ItemsPerThread, MinBlocksPerSm, SettleNs,
                                          upsweep::tile_schedule::reduce_ahead> {
  static constexpr int tiles_copied_ahead = 1;
};

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
  register_unique<std::int32_t>("i32", 50, headline);
  register_unique<std::int64_t>("i64", 50);
  register_run_length_encode<std::int32_t>("i32", 50, headline);
#ifndef UPSWEEP_BENCH_CUB35
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
  // A tile's copy in flight through the two tiles before it (three buffers, past 48 KB in dynamic
  // shared memory), against the default and the same shapes copying as they reduce.
  constexpr auto reduce_ahead = upsweep::tile_schedule::reduce_ahead;
  add_select_tune_row<select_shape<256, 16, 6, 1200, reduce_ahead>>("ahead_256x16_min_blocks_6", tune_sizes);
  add_select_tune_row<select_shape<256, 16, 4, 1200, reduce_ahead>>("ahead_256x16_min_blocks_4", tune_sizes);
  add_select_tune_row<copying_ahead_shape<256, 16, 4, 1200>>("copying_256x16_min_blocks_4", tune_sizes);
  add_select_tune_row<copying_ahead_shape<256, 16, 4, 0>>("copying_256x16_min_blocks_4_no_pause", tune_sizes);
  add_select_tune_row<copying_ahead_shape<256, 24, 3, 1200>>("copying_256x24_min_blocks_3", tune_sizes);
  add_select_tune_row<copying_ahead_shape<384, 16, 3, 1200>>("copying_384x16_min_blocks_3", tune_sizes);
  add_select_tune_row<copying_ahead_shape<192, 16, 6, 1200>>("copying_192x16_min_blocks_6", tune_sizes);
  add_select_tune_row<copying_ahead_shape<192, 20, 5, 1200>>("copying_192x20_min_blocks_5", tune_sizes);
  const std::vector<std::int64_t> wide_sizes{10'000'000, 100'000'000};
  using i64 = std::int64_t;
  add_select_tune_row<upsweep::wide_select_policy, i64>("ahead_128x16_min_blocks_8", wide_sizes);
  add_select_tune_row<copying_ahead_shape<128, 16, 4, 1200>, i64>("copying_128x16_min_blocks_4", wide_sizes);
  add_select_tune_row<copying_ahead_shape<256, 8, 4, 1200>, i64>("copying_256x8_min_blocks_4", wide_sizes);
  add_select_tune_row<copying_ahead_shape<192, 8, 6, 1200>, i64>("copying_192x8_min_blocks_6", wide_sizes);
  add_select_tune_row<copying_ahead_shape<128, 24, 3, 1200>, i64>("copying_128x24_min_blocks_3", wide_sizes);
  // Inputs of fewer tiles than resident blocks (a block per tile, one wave): the pause before
  // looking back, and the tile.
  const std::vector<std::int64_t> wave_sizes{1'000'000, 3'000'000};
  add_select_tune_row<select_shape<256, 16, 6, 1200>>("wave_256x16_min_blocks_6_settle1200", wave_sizes);
  add_select_tune_row<select_shape<256, 16, 6, 600>>("wave_256x16_min_blocks_6_settle600", wave_sizes);
  add_select_tune_row<select_shape<256, 16, 6, 0>>("wave_256x16_min_blocks_6_no_pause", wave_sizes);
  add_select_tune_row<select_shape<256, 8, 8, 0>>("wave_256x8_min_blocks_8_no_pause", wave_sizes);
  add_select_tune_row<upsweep::wide_select_policy::few_tiles, i64>("wave_256x8_min_blocks_4_settle1200", wave_sizes);
  add_select_tune_row<select_shape<256, 8, 4, 600>, i64>("wave_256x8_min_blocks_4_settle600", wave_sizes);
  add_select_tune_row<select_shape<256, 8, 4, 0>, i64>("wave_256x8_min_blocks_4_no_pause", wave_sizes);
  add_select_tune_row<select_shape<256, 12, 4, 0>, i64>("wave_256x12_min_blocks_4_no_pause", wave_sizes);
  add_select_tune_row<select_shape<256, 4, 8, 0>, i64>("wave_256x4_min_blocks_8_no_pause", wave_sizes);
  add_select_tune_row<select_shape<128, 8, 8, 0>, i64>("wave_128x8_min_blocks_8_no_pause", wave_sizes);
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
#endif
});

}  // namespace
}  // namespace upsweep::bench
