// Suite `compact`, the partition family, predicate `value < threshold` on uniform random int32 /
// int64 at selection rates 1 %, 50 %, 99 %:
//  - partition (rejected side reversed): Upsweep against cub::DevicePartition::If (64- and, for
//    the headline row, 32-bit offsets);
//  - stable_partition (both sides in order): Upsweep against Thrust's stable_partition_copy and
//    a device-to-device copy of the input (row `copy`, 2n words): its floor is 3n words (past a
//    wave, two reads and one write), 1.5 times the copy's time;
//  - partition_three_way (value < t1, else value < t2, else the rest; t1, t2 at rate / 2 and
//    rate): Upsweep against cub::DevicePartition::If with two predicates.
// n = 10^2 .. 10^8, 10^9 for int32 at 50 %. GB/s counts n reads and n writes. The Upsweep rows
// check their last output after the timing.
#include "compact_bench_support.cuh"

#include <upsweep/compact/device_partition.cuh>

#include <cub/device/device_partition.cuh>
#include <thrust/partition.h>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace upsweep::bench {
namespace {

// Stable: both sides in order (stable_partition); else the rejected side reversed (partition).
template <class T, bool Stable, class Policy = void>
void upsweep_partition(benchmark::State& state, int rate) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n), out(n);
  device_array<std::int64_t> count(1);
  fill_uniform(in.ptr, n);
  const T* d_in = in.ptr;
  const below<T> pred = keep_rate<T>(rate);
  time_with_temp_storage(state, n, 2.0 * n * sizeof(T), [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    if constexpr (Stable) return upsweep::stable_partition<Policy>(temp, bytes, d_in, out.ptr, count.ptr, n, pred, s);
    else return upsweep::partition<Policy>(temp, bytes, d_in, out.ptr, count.ptr, n, pred, s);
  });
  check_partitioned(d_in, out.ptr, count.ptr, n, pred);
}

// Offset is the type of the item count, which selects CUB's 32- or 64-bit offsets.
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

// Stable on both sides, into two arrays; returns both ends, so it waits for them like copy_if.
template <class T>
void thrust_stable_partition(benchmark::State& state, int rate) {
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

// The stable partition's floor: a device-to-device copy of the same items, 2n words.
template <class T>
void device_copy(benchmark::State& state, int) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n), out(n);
  fill_uniform(in.ptr, n);
  time_on_gpu(state, n, 2.0 * n * sizeof(T), [&](cudaStream_t s) {
    BENCH_CUDA(cudaMemcpyAsync(out.ptr, in.ptr, n * sizeof(T), cudaMemcpyDeviceToDevice, s));
  });
}

// Three-way: below rate / 2 first, below rate second, the rest unselected.
template <class T>
std::array<below<T>, 2> three_way_predicates(int rate) {
  return {below<T>{static_cast<T>(1 + value_range<T> / 200 * rate)}, keep_rate<T>(rate)};
}

template <class T, class Policy = void>
void upsweep_three_way(benchmark::State& state, int rate) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n), first(n), second(n), rest(n);
  device_array<std::int64_t> counts(2);
  fill_uniform(in.ptr, n);
  const T* d_in = in.ptr;
  const auto preds = three_way_predicates<T>(rate);
  time_with_temp_storage(state, n, 2.0 * n * sizeof(T), [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return upsweep::partition_three_way<Policy>(temp, bytes, d_in, first.ptr, second.ptr, rest.ptr, counts.ptr, n,
                                                preds[0], preds[1], s);
  });
  const std::int64_t first_count = count_to_host(counts.ptr), second_count = count_to_host(counts.ptr + 1);
  require(first_count == expected_count(d_in, n, preds[0]), "first part's size");
  require(first_count + second_count == expected_count(d_in, n, preds[1]), "second part's size");
  require(fingerprint(first.ptr, first_count, preds[0], false) == fingerprint(d_in, n, preds[0], true),
          "not the first part's items");
}

template <class T>
void cub_three_way(benchmark::State& state, int rate) {
  const std::int64_t n = state.range(0);
  device_array<T> in(n), first(n), second(n), rest(n);
  device_array<std::int64_t> counts(2);
  fill_uniform(in.ptr, n);
  const auto preds = three_way_predicates<T>(rate);
  time_with_temp_storage(state, n, 2.0 * n * sizeof(T), [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return cub::DevicePartition::If(temp, bytes, in.ptr, first.ptr, second.ptr, rest.ptr, counts.ptr, n, preds[0],
                                    preds[1], s);
  });
}

template <class T>
void register_partition(const char* type, int rate, bool headline = false) {
  add_compact_row("partition", type, rate, "cub", cub_partition<T, std::int64_t>, headline);
  if (headline) add_compact_row("partition", type, rate, "cub32", cub_partition<T, int>, headline);
  if constexpr (!cub_rows_only)
    add_compact_row("partition", type, rate, "upsweep", upsweep_partition<T, false>, headline);
}

template <class T>
void register_stable_partition(const char* type, int rate, bool headline = false) {
  if constexpr (!cub_rows_only) {  // CUB has no stable partition
    add_compact_row("stable_partition", type, rate, "upsweep", upsweep_partition<T, true>, headline);
    add_compact_row("stable_partition", type, rate, "thrust", thrust_stable_partition<T>, headline);
    add_compact_row("stable_partition", type, rate, "copy", device_copy<T>, headline);
  }
}

template <class T>
void register_three_way(const char* type, int rate, bool headline = false) {
  add_compact_row("partition_three_way", type, rate, "cub", cub_three_way<T>, headline);
  if constexpr (!cub_rows_only)
    add_compact_row("partition_three_way", type, rate, "upsweep", upsweep_three_way<T>, headline);
}

// The three-way partition reducing ahead, by tile and resident blocks, int32 at 50 %.
template <int Threads, int ItemsPerThread, int MinBlocksPerSm>
void add_three_way_tune_row(const std::string& name) {
  using policy = upsweep::select_policy<Threads, ItemsPerThread, upsweep::tile_io::transpose,
                                        upsweep::default_look_back_delay_ns, MinBlocksPerSm, 1200,
                                        upsweep::tile_schedule::reduce_ahead>;
  add_row("tune/partition_three_way_i32_50pct/" + name, {100'000'000, 1'000'000'000}, 0.1,
          [](benchmark::State& state) { guarded(state, [&] { upsweep_three_way<std::int32_t, policy>(state, 50); }); });
}

// The stable partition's two passes at one block shape, at 50 %.
template <int Threads, int ItemsPerThread, upsweep::tile_io Io, int MinBlocksPerSm, class T = std::int32_t>
void add_stable_partition_tune_row(const std::string& name,
                                   std::vector<std::int64_t> sizes = {100'000'000, 1'000'000'000}) {
  using policy = upsweep::select_policy<Threads, ItemsPerThread, Io, upsweep::default_look_back_delay_ns,
                                        MinBlocksPerSm, 1200, upsweep::tile_schedule::block_per_tile, 1>;
  const std::string type = sizeof(T) == 8 ? "i64" : "i32";
  add_row("tune/stable_partition_" + type + "_50pct/" + name, std::move(sizes), 0.1, [](benchmark::State& state) {
    guarded(state, [&] { upsweep_partition<T, true, policy>(state, 50); });
  });
}

const bool registered = register_later([] {
  constexpr bool headline = true;
  register_partition<std::int32_t>("i32", 50, headline);  // bar: >= 1.05x CUB at 10^9
  register_partition<std::int32_t>("i32", 1);
  register_partition<std::int32_t>("i32", 99);
  register_partition<std::int64_t>("i64", 50);
  register_stable_partition<std::int32_t>("i32", 50, headline);  // bar: within 1.10x of 1.5x the copy
  register_stable_partition<std::int64_t>("i64", 50);
  register_three_way<std::int32_t>("i32", 50, headline);
  register_three_way<std::int64_t>("i64", 50);
#ifndef UPSWEEP_BENCH_CUB35
  add_three_way_tune_row<256, 16, 4>("256x16_min_blocks_4");
  add_three_way_tune_row<256, 16, 5>("256x16_min_blocks_5");
  add_three_way_tune_row<256, 12, 5>("256x12_min_blocks_5");
  // The stable partition's two passes where the default takes one pass (a one-block wave limit
  // sends every input of more than one tile to them), and their tile shapes at 10^8 and 10^9.
  add_stable_partition_tune_row<256, 16, upsweep::tile_io::transpose, 6>("two_passes", decade_sizes(6));
  add_stable_partition_tune_row<256, 16, upsweep::tile_io::direct, 6>("256x16_direct_min_blocks_6");
  add_stable_partition_tune_row<256, 16, upsweep::tile_io::transpose, 4>("256x16_min_blocks_4");
  add_stable_partition_tune_row<512, 16, upsweep::tile_io::transpose, 3>("512x16_min_blocks_3");
  add_stable_partition_tune_row<256, 32, upsweep::tile_io::transpose, 3>("256x32_min_blocks_3");
  add_stable_partition_tune_row<128, 16, upsweep::tile_io::transpose, 8>("128x16_min_blocks_8");
  using i64 = std::int64_t;
  const std::vector<std::int64_t> i64_sizes = {10'000'000, 100'000'000, 300'000'000};
  add_stable_partition_tune_row<256, 8, upsweep::tile_io::transpose, 4, i64>("256x8_min_blocks_4", i64_sizes);
  add_stable_partition_tune_row<256, 8, upsweep::tile_io::direct, 4, i64>("256x8_direct_min_blocks_4", i64_sizes);
  add_stable_partition_tune_row<256, 8, upsweep::tile_io::transpose, 6, i64>("256x8_min_blocks_6", i64_sizes);
  add_stable_partition_tune_row<256, 8, upsweep::tile_io::transpose, 8, i64>("256x8_min_blocks_8", i64_sizes);
  add_stable_partition_tune_row<128, 16, upsweep::tile_io::transpose, 6, i64>("128x16_min_blocks_6", i64_sizes);
  add_stable_partition_tune_row<256, 16, upsweep::tile_io::transpose, 3, i64>("256x16_min_blocks_3", i64_sizes);
#endif
});

}  // namespace
}  // namespace upsweep::bench
