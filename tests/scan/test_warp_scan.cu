// Warp layer: inclusive, exclusive (with and without init) scans and reductions over 32 lanes,
// with a commutative and a non-commutative operator, against the CPU.
#include <upsweep/scan/warp_reduce.cuh>
#include <upsweep/scan/warp_scan.cuh>

#include "scan_test_support.cuh"

#include <cuda/std/functional>

namespace upsweep::test {
namespace {

// Each warp: inclusive, exclusive with init, total, and the reduction of lanes >= first_valid.
template <class T, class Op>
__global__ void warp_collectives_kernel(const T* in, T* inclusive, T* exclusive, T* total, T* partial, T* suffix,
                                        T init, int first_valid, Op op) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const T value = in[i];
  inclusive[i] = upsweep::warp_inclusive_scan(value, op);
  exclusive[i] = upsweep::warp_exclusive_scan(value, init, op);
  total[i] = upsweep::warp_reduce(value, op);
  const maybe<T> tail = upsweep::warp_reduce(maybe<T>{value, static_cast<int>(detail::lane_id()) >= first_valid}, op);
  partial[i] = tail.value;
  suffix[i] = upsweep::warp_reduce_suffix(value, first_valid, op);
}

template <class T, class Op>
void check_warp_collectives(const std::vector<T>& host_in, T init, int first_valid, Op op) {
  const auto n = static_cast<std::int64_t>(host_in.size());
  device_buffer<T> in(host_in), inclusive(n), exclusive(n), total(n), partial(n), suffix(n);
  warp_collectives_kernel<<<static_cast<int>(n / 64), 64>>>(in.data(), inclusive.data(), exclusive.data(), total.data(),
                                                            partial.data(), suffix.data(), init, first_valid, op);
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaDeviceSynchronize());
  const auto got_inclusive = inclusive.download(), got_exclusive = exclusive.download();
  const auto got_total = total.download(), got_partial = partial.download(), got_suffix = suffix.download();
  for (std::int64_t warp = 0; warp < n / 32; ++warp) {
    const std::vector<T> lanes(host_in.begin() + warp * 32, host_in.begin() + warp * 32 + 32);
    const auto want_inclusive = reference_inclusive_scan<T>(lanes, op);
    const auto want_exclusive = reference_exclusive_scan<T>(lanes, init, op);
    const std::vector<T> tail(lanes.begin() + first_valid, lanes.end());
    const T want_partial = reference_inclusive_scan<T>(tail, op).back();
    for (int lane = 0; lane < 32; ++lane) {
      const std::int64_t i = warp * 32 + lane;
      ASSERT_EQ(0, std::memcmp(&got_inclusive[i], &want_inclusive[lane], sizeof(T))) << "inclusive, lane " << lane;
      ASSERT_EQ(0, std::memcmp(&got_exclusive[i], &want_exclusive[lane], sizeof(T))) << "exclusive, lane " << lane;
      ASSERT_EQ(0, std::memcmp(&got_total[i], &want_inclusive[31], sizeof(T))) << "total, lane " << lane;
      ASSERT_EQ(0, std::memcmp(&got_partial[i], &want_partial, sizeof(T))) << "partial, lane " << lane;
      ASSERT_EQ(0, std::memcmp(&got_suffix[i], &want_partial, sizeof(T))) << "suffix, lane " << lane;
    }
  }
}

class WarpScan : public gpu_test {};

TEST_F(WarpScan, SumsMatchTheCpuInEveryLane) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (int first_valid : {0, 1, 17, 31})
    check_warp_collectives(random_small_ints<int>(64 * 8, seed + first_valid, -100, 100), 11, first_valid,
                           cuda::std::plus<int>{});
}

TEST_F(WarpScan, NonCommutativeOperatorsKeepLaneOrder) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  std::vector<mat2> in(64 * 4);
  for (std::size_t i = 0; i < in.size(); ++i)
    for (int k = 0; k < 4; ++k) in[i].m[k] = static_cast<std::uint32_t>(mix64(seed + 4 * i + k));
  for (int first_valid : {0, 5, 30}) check_warp_collectives(in, mat2{{1, 2, 3, 4}}, first_valid, mat_mul{});
}

TEST_F(WarpScan, NarrowTypesShuffleCorrectly) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  std::vector<affine16> in(64 * 4);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = {static_cast<std::uint16_t>(mix64(seed + i)), static_cast<std::uint16_t>(mix64(seed - i))};
  check_warp_collectives(in, affine16{1, 0}, 3, then_affine{});
}

}  // namespace
}  // namespace upsweep::test
