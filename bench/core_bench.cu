// Suite `core`: inclusive sum and sum-reduce of int32 by Upsweep, CUB and Thrust (par_nosync),
// with a device-to-device copy of the same bytes as the ceiling. Suite `tune`: scan and reduce
// policies swept without editing the library. Temporary storage is allocated outside the timing.
#include "bench_support.cuh"

#include <upsweep/scan/device_reduce.cuh>
#include <upsweep/scan/device_scan.cuh>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace upsweep::bench {
namespace {

using item_t = std::int32_t;

// Positive values keep sums away from zero-valued shortcuts; wrap-around is harmless here.
void fill_items(item_t* d, std::int64_t n) { fill_input<item_t>(d, n, 1, 1000); }

template <class Policy = void>
void upsweep_inclusive_sum(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  device_array<item_t> in(n), out(n);
  fill_items(in.ptr, n);
  time_with_temp_storage(state, n, 2.0 * n * sizeof(item_t), [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return upsweep::inclusive_sum<Policy>(temp, bytes, static_cast<const item_t*>(in.ptr), out.ptr, n, s);
  });
}

void cub_inclusive_sum(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  device_array<item_t> in(n), out(n);
  fill_items(in.ptr, n);
  time_with_temp_storage(state, n, 2.0 * n * sizeof(item_t), [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return cub::DeviceScan::InclusiveSum(temp, bytes, in.ptr, out.ptr, cub_count(n), s);
  });
}

void thrust_inclusive_sum(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  device_array<item_t> in(n), out(n);
  fill_items(in.ptr, n);
  time_on_gpu(state, n, 2.0 * n * sizeof(item_t), [&](cudaStream_t s) {
    thrust::inclusive_scan(thrust::cuda::par_nosync.on(s), in.ptr, in.ptr + n, out.ptr);
  });
}

template <class Policy = void>
void upsweep_reduce_sum(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  device_array<item_t> in(n), out(1);
  fill_items(in.ptr, n);
  time_with_temp_storage(state, n, 1.0 * n * sizeof(item_t), [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return upsweep::reduce_sum<Policy>(temp, bytes, static_cast<const item_t*>(in.ptr), out.ptr, n, s);
  });
}

void cub_reduce_sum(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  device_array<item_t> in(n), out(1);
  fill_items(in.ptr, n);
  time_with_temp_storage(state, n, 1.0 * n * sizeof(item_t), [&](void* temp, std::size_t& bytes, cudaStream_t s) {
    return cub::DeviceReduce::Sum(temp, bytes, in.ptr, out.ptr, cub_count(n), s);
  });
}

// Thrust's reduce returns its value to the host, so its time includes that round trip.
void thrust_reduce_sum(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  device_array<item_t> in(n);
  fill_items(in.ptr, n);
  time_on_gpu(state, n, 1.0 * n * sizeof(item_t), [&](cudaStream_t s) {
    benchmark::DoNotOptimize(thrust::reduce(thrust::cuda::par_nosync.on(s), in.ptr, in.ptr + n, item_t{0}));
  });
}

// The floor under every small row: one empty kernel between the events.
__global__ void empty_kernel() {}

void empty_launch(benchmark::State& state) {
  time_on_gpu(state, state.range(0), 0.0, [&](cudaStream_t s) {
    empty_kernel<<<1, 256, 0, s>>>();
    BENCH_CUDA(cudaGetLastError());
  });
}

void device_copy(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  device_array<item_t> in(n), out(n);
  fill_items(in.ptr, n);
  time_on_gpu(state, n, 2.0 * n * sizeof(item_t), [&](cudaStream_t s) {
    BENCH_CUDA(cudaMemcpyAsync(out.ptr, in.ptr, n * sizeof(item_t), cudaMemcpyDeviceToDevice, s));
  });
}

const std::vector<std::int64_t> large_sizes{100'000'000, 1'000'000'000};
constexpr double min_time_s = 0.25;

template <class Policy>
void register_scan_tuning(const std::string& name) {
  add_row("tune/inclusive_sum_i32/" + name, large_sizes, min_time_s, upsweep_inclusive_sum<Policy>);
}

// A scan policy of transposed loads and the default single-block limit.
template <int Threads, int Items, int MinBlocksPerSm, int SettleNs = 0,
          tile_schedule Schedule = tile_schedule::block_per_tile, int DelayNs = default_look_back_delay_ns>
using scan_shape = scan_policy<Threads, Items, tile_io::transpose, 1, DelayNs, false, Schedule, MinBlocksPerSm, SettleNs>;

// Reduce-ahead at one shape.
template <int Threads, int Items, int MinBlocksPerSm>
void register_scan_reduce_ahead(const std::string& shape) {
  register_scan_tuning<scan_shape<Threads, Items, MinBlocksPerSm, 0, tile_schedule::reduce_ahead>>(shape +
                                                                                                 "_reduce_ahead");
}

const bool registered = register_later([] {
  add_row("core/inclusive_sum_i32/cub", decade_sizes(), min_time_s, cub_inclusive_sum);
  add_row("core/reduce_sum_i32/cub", decade_sizes(), min_time_s, cub_reduce_sum);
#ifndef UPSWEEP_BENCH_CUB35
  add_row("core/inclusive_sum_i32/upsweep", decade_sizes(), min_time_s, upsweep_inclusive_sum<>);
  add_row("core/inclusive_sum_i32/thrust", decade_sizes(), min_time_s, thrust_inclusive_sum);
  add_row("core/inclusive_sum_i32/copy", decade_sizes(), min_time_s, device_copy);
  add_row("core/reduce_sum_i32/upsweep", decade_sizes(), min_time_s, upsweep_reduce_sum<>);
  add_row("core/reduce_sum_i32/thrust", decade_sizes(), min_time_s, thrust_reduce_sum);

  // 10^9 on an H200 (2026-11-21): the block-per-tile default 3.15 ms, CUB 2.57. Earlier rows
  // (docs/performance.md): 5 or 8 resident blocks, 192 x 20, 384 x 12, 512 x 8, other poll pauses, the
  // pipelined look-back and a claim-ahead prefetching kernel were all slower than 256 x 16 at 6.
  register_scan_tuning<scan_shape<256, 16, 6>>("t256_i16_min6");
  // A pause between publishing the partial and the first look-back read, so the nearest
  // predecessors have published inclusive values (CUB's sm_90 int32 scan: 1245 ns, polls 648 ns
  // apart, 128 x 24). Measured 2.72 / 2.61 / 2.60 ms at 1000 / 1500 / 2500 ns.
  register_scan_tuning<scan_shape<256, 16, 6, 1000>>("t256_i16_min6_settle1000");
  register_scan_tuning<scan_shape<256, 16, 6, 1500>>("t256_i16_min6_settle1500");
  register_scan_tuning<scan_shape<256, 16, 6, 2500>>("t256_i16_min6_settle2500");
  register_scan_tuning<scan_shape<128, 24, 10, 1250, tile_schedule::block_per_tile, 650>>(
      "t128_i24_min10_delay650_settle1250");
  register_scan_tuning<scan_shape<256, 32, 3, 1500>>("t256_i32_min3_settle1500");
  // Persistent blocks looking back one tile behind their loads: the next tile's copy instead of
  // the settling pause. 256 x 16 at 6 blocks 2.32 ms (the default), 256 x 20 at 5 2.41, 256 x 16 at 4
  // 2.73, 256 x 8 at 8 3.08. Publishing after the earlier tile's scan instead: 6.5 to 10 ms.
  register_scan_reduce_ahead<256, 16, 6>("t256_i16_min6");
  register_scan_reduce_ahead<256, 20, 5>("t256_i20_min5");
  register_scan_reduce_ahead<256, 12, 7>("t256_i12_min7");
  register_scan_reduce_ahead<256, 12, 8>("t256_i12_min8");
  register_scan_reduce_ahead<128, 16, 12>("t128_i16_min12");
  register_scan_reduce_ahead<128, 24, 8>("t128_i24_min8");
  register_scan_reduce_ahead<384, 12, 4>("t384_i12_min4");
  register_scan_reduce_ahead<512, 8, 4>("t512_i8_min4");
  add_row("tune/reduce_sum_i32/t1024_i16_one_block_128k", {10'000, 100'000, 1'000'000}, min_time_s,
          upsweep_reduce_sum<reduce_policy<1024, 16, 2048, 8>>);
  add_row("tune/reduce_sum_i32/t512_i8_one_block_32k", {10'000, 100'000}, min_time_s,
          upsweep_reduce_sum<reduce_policy<512, 8, 2048, 8>>);
  // Small inputs (1e2, 1e3 at 0.82x and 0.91x of CUB on 2026-11-21): fewer threads and a shorter
  // unrolled body for the one-block kernel.
  add_row("tune/reduce_sum_i32/t128_i4_one_block_16k", {100, 1'000, 10'000}, min_time_s,
          upsweep_reduce_sum<reduce_policy<128, 4, 2048, 32>>);
  add_row("tune/reduce_sum_i32/t256_i4_one_block_16k", {100, 1'000, 10'000}, min_time_s,
          upsweep_reduce_sum<reduce_policy<256, 4, 2048, 16>>);
  add_row("tune/reduce_sum_i32/empty_kernel", {100}, min_time_s, empty_launch);
#endif
});

}  // namespace
}  // namespace upsweep::bench
