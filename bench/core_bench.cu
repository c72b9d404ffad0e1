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
    return cub::DeviceScan::InclusiveSum(temp, bytes, in.ptr, out.ptr, n, s);
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
    return cub::DeviceReduce::Sum(temp, bytes, in.ptr, out.ptr, n, s);
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

const bool registered = register_later([] {
  add_row("core/inclusive_sum_i32/upsweep", decade_sizes(), min_time_s, upsweep_inclusive_sum<>);
  add_row("core/inclusive_sum_i32/cub", decade_sizes(), min_time_s, cub_inclusive_sum);
  add_row("core/inclusive_sum_i32/thrust", decade_sizes(), min_time_s, thrust_inclusive_sum);
  add_row("core/inclusive_sum_i32/copy", decade_sizes(), min_time_s, device_copy);
  add_row("core/reduce_sum_i32/upsweep", decade_sizes(), min_time_s, upsweep_reduce_sum<>);
  add_row("core/reduce_sum_i32/cub", decade_sizes(), min_time_s, cub_reduce_sum);
  add_row("core/reduce_sum_i32/thrust", decade_sizes(), min_time_s, thrust_reduce_sum);

  using io = tile_io;
  // Block per tile (the default) against persistent blocks prefetching their next tile (0.20x
  // on 2026-11-21: the claimed-ahead tiles stall their successors' look-back).
  register_scan_tuning<scan_policy<256, 16, io::transpose, 1, 350, false, false>>("t256_i16_block_per_tile");
  register_scan_tuning<scan_policy<256, 16, io::transpose, 1, 350, true, false>>("t256_i16_block_per_tile_pipelined");
  register_scan_tuning<scan_policy<256, 16, io::transpose, 1, 350, false, true>>("t256_i16_prefetch");
  // ncu at 1e8 (H100 2026-11-21): 48 registers, 5 blocks per SM, 66 % of the stalls at a block
  // barrier (warps waiting out warp 0's look-back). More resident blocks, or other tile shapes.
  register_scan_tuning<scan_policy<256, 16, io::transpose, 1, 350, false, false, 6>>("t256_i16_min6");
  register_scan_tuning<scan_policy<256, 16, io::transpose, 1, 350, false, false, 8>>("t256_i16_min8");
  register_scan_tuning<scan_policy<256, 12, io::transpose, 1, 350, false, false, 7>>("t256_i12_min7");
  register_scan_tuning<scan_policy<192, 20, io::transpose, 1, 350, false, false>>("t192_i20");
  register_scan_tuning<scan_policy<384, 12, io::transpose, 1, 350, false, false>>("t384_i12");
  register_scan_tuning<scan_policy<512, 8, io::transpose, 1, 350, false, false, 3>>("t512_i8_min3");
  // CUB's sm_90 shape for 4-byte sums (128 x 24), and the default with other pauses between polls.
  register_scan_tuning<scan_policy<128, 24, io::transpose, 1, 350, false, false, 10>>("t128_i24_min10");
  register_scan_tuning<scan_policy<256, 16, io::transpose, 1, 100, false, false, 6>>("t256_i16_min6_delay100");
  register_scan_tuning<scan_policy<256, 16, io::transpose, 1, 0, false, false, 6>>("t256_i16_min6_delay0");
  register_scan_tuning<scan_policy<256, 16, io::transpose, 1, 700, false, false, 6>>("t256_i16_min6_delay700");
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
});

}  // namespace
}  // namespace upsweep::bench
