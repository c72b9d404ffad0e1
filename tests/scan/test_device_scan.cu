// Device scan against the CPU reference and CUB: every type and op, sizes around warp, tile and
// one-block boundaries, in place, init, non-commutative ops (both tile-state layouts), u8 in and
// u32 out, misaligned pointers, a non-blocking stream, a CUDA graph, and past 2^31 items.
#include <upsweep/scan/device_reduce.cuh>
#include <upsweep/scan/device_scan.cuh>

#include "scan_test_support.cuh"

#include <cub/device/device_scan.cuh>

#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>

#include <cuda/std/functional>

namespace upsweep::test {
namespace {

template <class T>
constexpr std::int64_t tile_of() {
  return default_scan_policy<T>::tile_items;
}

template <class T>
using one_block_policy = detail::one_block_scan_policy<default_scan_policy<T>, T, T>;
template <class T>
using cluster_policy = detail::cluster_scan_policy<default_scan_policy<T>, T, T>;

template <class T>
std::vector<std::int64_t> scan_sizes() {
  const std::int64_t tile = tile_of<T>();
  // The largest input the one-block kernel takes, past one tile; one cluster takes 2 to 16 tiles of its own.
  const std::int64_t one_block = one_block_policy<T>::single_block_max_items;
  const std::int64_t cluster_tile = cluster_policy<T>::tile_items;
  std::vector<std::int64_t> sizes = {0, 1, 2, 31, 32, 33, 255, 257, tile - 1, tile, tile + 1,
                                     cluster_tile, cluster_tile + 1, one_block - 1, one_block, one_block + 1,
                                     10'000, 16 * cluster_tile, 16 * cluster_tile + 1, 32 * tile + 1, 999983};
  sizes.push_back(max_test_items(10'000'019));
  return sizes;
}

// Host copy of a device vector in one transfer (thrust::equal would trip initcheck on CUB's
// internal tuple padding, and element-wise host reads are one transfer per item).
template <class T>
std::vector<T> download(const thrust::device_vector<T>& d) {
  std::vector<T> host(d.size());
  upsweep::test::check(cudaMemcpy(host.data(), thrust::raw_pointer_cast(d.data()), d.size() * sizeof(T),
                                  cudaMemcpyDeviceToHost), "cudaMemcpy D2H");
  return host;
}

template <class T>
auto inclusive_sum_call() {
  return [](void* t, std::size_t& b, const T* in, T* out, std::int64_t n, cudaStream_t s) {
    return upsweep::inclusive_sum(t, b, in, out, n, s);
  };
}

template <class T>
class DeviceScanTyped : public gpu_test {};
using scan_types = ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(DeviceScanTyped, scan_types);

// Small integers keep float sums exact, so every type is checked bit for bit.
TYPED_TEST(DeviceScanTyped, InclusiveSumMatchesTheCpuAtEveryBoundary) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : scan_sizes<T>()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto in = random_small_ints<T>(n, seed + n, 0, exact_max<T>(9));
    std::vector<T> got;
    run_core<T>(in, inclusive_sum_call<T>(), got);
    expect_same_bits(got, reference_inclusive_scan<T>(in, std::plus<T>{}));
  }
}

TYPED_TEST(DeviceScanTyped, ExclusiveScanWithNonZeroInitMatchesTheCpu) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const T init = T(7);
  for (const std::int64_t n : scan_sizes<T>()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto in = random_small_ints<T>(n, seed + n, 0, exact_max<T>(5));
    std::vector<T> got;
    run_core<T>(in, [init](void* t, std::size_t& b, const T* i, T* o, std::int64_t c, cudaStream_t s) {
      return upsweep::exclusive_scan(t, b, i, o, c, init, cuda::std::plus<T>{}, s);
    }, got);
    expect_same_bits(got, reference_exclusive_scan<T>(in, init, std::plus<T>{}));
  }
}

TYPED_TEST(DeviceScanTyped, RunningMinimumAndMaximumMatchTheCpu) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{33}, tile_of<T>() + 1, std::int64_t{500001}}) {
    const auto in = random_small_ints<T>(n, seed + n, 0, 100);
    std::vector<T> got;
    run_core<T>(in, [](void* t, std::size_t& b, const T* i, T* o, std::int64_t c, cudaStream_t s) {
      return upsweep::inclusive_scan(t, b, i, o, c, upsweep::minimum{}, s);
    }, got);
    expect_same_bits(got, reference_inclusive_scan<T>(in, [](T a, T b) { return b < a ? b : a; }));
    run_core<T>(in, [](void* t, std::size_t& b, const T* i, T* o, std::int64_t c, cudaStream_t s) {
      return upsweep::inclusive_scan(t, b, i, o, c, upsweep::maximum{}, s);
    }, got);
    expect_same_bits(got, reference_inclusive_scan<T>(in, [](T a, T b) { return a < b ? b : a; }));
  }
}

TYPED_TEST(DeviceScanTyped, WorksInPlace) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{100}, 3 * tile_of<T>() + 5, std::int64_t{777777}}) {
    const auto in = random_small_ints<T>(n, seed + n, 0, 3);
    std::vector<T> got;
    run_core<T>(in, inclusive_sum_call<T>(), got, {0, true});
    expect_same_bits(got, reference_inclusive_scan<T>(in, std::plus<T>{}));
    run_core<T>(in, [](void* t, std::size_t& b, const T* i, T* o, std::int64_t c, cudaStream_t s) {
      return upsweep::exclusive_sum(t, b, i, o, c, s);
    }, got, {0, true});
    expect_same_bits(got, reference_exclusive_scan<T>(in, T(0), std::plus<T>{}));
  }
}

TYPED_TEST(DeviceScanTyped, MisalignedPointersStillScanCorrectly) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (int offset = 1; offset <= 3; ++offset) {
    SCOPED_TRACE("offset " + std::to_string(offset));
    const auto in = random_small_ints<T>(200003, seed + offset, 0, 4);
    std::vector<T> got;
    run_core<T>(in, inclusive_sum_call<T>(), got, {offset, false});
    expect_same_bits(got, reference_inclusive_scan<T>(in, std::plus<T>{}));
  }
}

template <class T>
class DeviceScanFloat : public gpu_test {};
using float_types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(DeviceScanFloat, float_types);

TYPED_TEST(DeviceScanFloat, RandomFloatSumsStayWithinTheRoundingBound) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{1000}, std::int64_t{1} << 20, max_test_items(std::int64_t{10'000'000})}) {
    const auto in = random_host<T>(n, seed + n, T(-1), T(1));
    std::vector<T> got;
    run_core<T>(in, inclusive_sum_call<T>(), got);
    expect_float_prefix_sums_close(got, in, false);
    run_core<T>(in, [](void* t, std::size_t& b, const T* i, T* o, std::int64_t c, cudaStream_t s) {
      return upsweep::exclusive_sum(t, b, i, o, c, s);
    }, got);
    expect_float_prefix_sums_close(got, in, true);
  }
}

class DeviceScan : public gpu_test {};

// Extended device lambdas cannot live inside a test body (a private member function).
cudaError_t xor_scan(void* t, std::size_t& b, const int* i, int* o, std::int64_t c, cudaStream_t s) {
  return upsweep::inclusive_scan(t, b, i, o, c, [] __device__(int x, int y) { return x ^ y; }, s);
}

TEST_F(DeviceScan, NonCommutativeOperatorKeepsOrderInThePackedTileState) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{5}, 3 * std::int64_t{cluster_policy<affine16>::tile_items} + 5,
                               tile_of<affine16>() * 40 + 3, std::int64_t{1'000'003}}) {
    std::vector<affine16> in(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i)
      in[i] = {static_cast<std::uint16_t>(mix64(seed + i) | 1), static_cast<std::uint16_t>(mix64(seed ^ i) >> 7)};
    std::vector<affine16> got;
    run_core<affine16>(in, [](void* t, std::size_t& b, const affine16* i, affine16* o, std::int64_t c, cudaStream_t s) {
      return upsweep::inclusive_scan(t, b, i, o, c, then_affine{}, s);
    }, got);
    expect_same_bits(got, reference_inclusive_scan<affine16>(in, then_affine{}));
    const affine16 init = {3, 5};
    run_core<affine16>(in, [init](void* t, std::size_t& b, const affine16* i, affine16* o, std::int64_t c, cudaStream_t s) {
      return upsweep::exclusive_scan(t, b, i, o, c, init, then_affine{}, s);
    }, got);
    expect_same_bits(got, reference_exclusive_scan<affine16>(in, init, then_affine{}));
  }
}

TEST_F(DeviceScan, NonCommutativeOperatorKeepsOrderInTheSplitTileState) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{3}, 5 * std::int64_t{cluster_policy<mat2>::tile_items} + 1, tile_of<mat2>() * 50 + 1,
                               std::int64_t{400'001}}) {
    std::vector<mat2> in(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i)
      for (int k = 0; k < 4; ++k) in[i].m[k] = static_cast<std::uint32_t>(mix64(seed + 4 * i + k));
    std::vector<mat2> got;
    run_core<mat2>(in, [](void* t, std::size_t& b, const mat2* i, mat2* o, std::int64_t c, cudaStream_t s) {
      return upsweep::inclusive_scan(t, b, i, o, c, mat_mul{}, s);
    }, got);
    expect_same_bits(got, reference_inclusive_scan<mat2>(in, mat_mul{}));
  }
}

// Every tile count of the one-cluster scan (2 to 16 tiles, as many as the GPU schedules in one
// cluster) at a whole last tile and at one item past a tile: an inclusive sum, and a
// non-commutative exclusive scan with init.
TEST_F(DeviceScan, OneClusterScansLikeTheCpuAtEveryTileCount) {
  using policy = cluster_policy<int>;
  int limit = 0;
  CUDA_OK((detail::cluster_blocks_limit<detail::device_scan_kernel<policy, false, const int*, int*, int,
                                                                   cuda::std::plus<int>, detail::cluster_tile_state<int>>,
                                        policy::block_threads>(limit)));
  if (limit == 0) GTEST_SKIP() << "this GPU runs no thread-block clusters";
  RecordProperty("cluster_blocks_limit", limit);
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const affine16 init = {static_cast<std::uint16_t>(mix64(seed) | 1), 9};
  for (int tiles = 2; tiles <= limit; ++tiles) {
    for (const std::int64_t n : {(tiles - 1) * std::int64_t{policy::tile_items} + 1, tiles * std::int64_t{policy::tile_items}}) {
      SCOPED_TRACE("tiles = " + std::to_string(tiles) + ", n = " + std::to_string(n));
      const auto in = random_host<int>(n, seed + n, -1000, 1000);
      std::vector<int> got;
      run_core<int>(in, inclusive_sum_call<int>(), got);
      expect_same_bits(got, reference_inclusive_scan<int>(in, std::plus<int>{}));
      std::vector<affine16> maps(static_cast<std::size_t>(n)), got_maps;
      for (std::int64_t k = 0; k < n; ++k)
        maps[k] = {static_cast<std::uint16_t>(mix64(seed + k) | 1), static_cast<std::uint16_t>(mix64(seed ^ k))};
      run_core<affine16>(maps, [init](void* t, std::size_t& b, const affine16* i, affine16* o, std::int64_t c,
                                      cudaStream_t s) { return upsweep::exclusive_scan(t, b, i, o, c, init, then_affine{}, s); },
                         got_maps);
      expect_same_bits(got_maps, reference_exclusive_scan<affine16>(maps, init, then_affine{}));
    }
  }
}

// A tuning policy must scan exactly like the CPU: sums and a non-commutative operator, at sizes
// past the grid size where look-backs pause (detail::settle_min_grid blocks).
template <class Policy>
void expect_policy_scans_like_the_cpu() {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{4097}, std::int64_t{65536}, std::int64_t{999983},
                               max_test_items(std::int64_t{30'000'001})}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto in = random_small_ints<std::uint32_t>(n, seed + n, 0, 1000);
    std::vector<std::uint32_t> got;
    run_core<std::uint32_t>(in, [](void* t, std::size_t& b, const std::uint32_t* i, std::uint32_t* o, std::int64_t c,
                                   cudaStream_t s) { return upsweep::inclusive_sum<Policy>(t, b, i, o, c, s); }, got);
    expect_same_bits(got, reference_inclusive_scan<std::uint32_t>(in, std::plus<std::uint32_t>{}));
    std::vector<affine16> maps(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i)
      maps[i] = {static_cast<std::uint16_t>(mix64(seed + i) | 1), static_cast<std::uint16_t>(mix64(seed ^ i))};
    std::vector<affine16> got_maps;
    run_core<affine16>(maps, [](void* t, std::size_t& b, const affine16* i, affine16* o, std::int64_t c, cudaStream_t s) {
      return upsweep::inclusive_scan<Policy>(t, b, i, o, c, then_affine{}, s);
    }, got_maps);
    expect_same_bits(got_maps, reference_inclusive_scan<affine16>(maps, then_affine{}));
    const affine16 init = {static_cast<std::uint16_t>(mix64(seed) | 1), 7};
    run_core<affine16>(maps, [init](void* t, std::size_t& b, const affine16* i, affine16* o, std::int64_t c,
                                    cudaStream_t s) {
      return upsweep::exclusive_scan<Policy>(t, b, i, o, c, init, then_affine{}, s);
    }, got_maps);
    expect_same_bits(got_maps, reference_exclusive_scan<affine16>(maps, init, then_affine{}));
  }
}

TEST_F(DeviceScan, PipelinedLookBackPolicyScansLikeTheCpu) {
  expect_policy_scans_like_the_cpu<scan_policy<256, 16, tile_io::transpose, 1, default_look_back_delay_ns, true>>();
}

TEST_F(DeviceScan, LookBackSettlePolicyScansLikeTheCpu) {
  expect_policy_scans_like_the_cpu<scan_policy<256, 16, tile_io::transpose, 1, default_look_back_delay_ns, false,
                                               tile_schedule::block_per_tile, 6, 1000>>();
}

TEST_F(DeviceScan, ReduceAheadPolicyScansLikeTheCpu) {
  expect_policy_scans_like_the_cpu<scan_policy<256, 16, tile_io::transpose, 1, default_look_back_delay_ns, false,
                                               tile_schedule::reduce_ahead, 6>>();
}

// Two persistent blocks: each takes many tiles even at the sanitizers' sizes.
TEST_F(DeviceScan, ReduceAheadOnTwoBlocksScansLikeTheCpu) {
  expect_policy_scans_like_the_cpu<scan_policy<256, 16, tile_io::transpose, 1, default_look_back_delay_ns, false,
                                               tile_schedule::reduce_ahead, 6, 0, 2>>();
}

TEST_F(DeviceScan, BlockPerTilePolicyScansLikeTheCpu) {
  expect_policy_scans_like_the_cpu<scan_policy<256, 16, tile_io::transpose, 1, default_look_back_delay_ns, false,
                                               tile_schedule::block_per_tile, 6>>();
}

TEST_F(DeviceScan, BytesInWordsOutAccumulateInTheOutputType) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{17}, std::int64_t{70001}, std::int64_t{3'000'001}}) {
    const auto in = random_host<std::uint8_t>(n, seed + n, 0, 255);
    std::vector<std::uint32_t> got;
    run_core<std::uint32_t>(in, [](void* t, std::size_t& b, const std::uint8_t* i, std::uint32_t* o, std::int64_t c,
                                   cudaStream_t s) { return upsweep::inclusive_sum(t, b, i, o, c, s); }, got);
    expect_same_bits(got, reference_inclusive_scan<std::uint32_t>(in, std::plus<std::uint32_t>{}));
  }
}

TEST_F(DeviceScan, DeviceLambdasWorkAsOperators) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const auto in = random_host<int>(123457, seed, -1000, 1000);
  std::vector<int> got;
  run_core<int>(in, xor_scan, got);
  expect_same_bits(got, reference_inclusive_scan<int>(in, [](int x, int y) { return x ^ y; }));
}

TEST_F(DeviceScan, RunsOnANonBlockingStream) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const auto in = random_host<std::int64_t>(2'000'003, seed, -50, 50);
  std::vector<std::int64_t> got;
  run_core<std::int64_t>(in, inclusive_sum_call<std::int64_t>(), got, {0, false, stream});
  expect_same_bits(got, reference_inclusive_scan<std::int64_t>(in, std::plus<std::int64_t>{}));
  CUDA_OK(cudaStreamDestroy(stream));
}

// Capture proves the core call neither allocates nor synchronises.
TEST_F(DeviceScan, CoreCallIsCapturedInACudaGraphAndReplays) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = 1'234'567;
  const auto host_in = random_host<int>(n, seed, -9, 9);
  device_buffer<int> in(host_in), out(n);
  std::size_t bytes = 0;
  CUDA_OK(upsweep::inclusive_sum(nullptr, bytes, in.data(), out.data(), n));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph;
  CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CUDA_OK(upsweep::inclusive_sum(temp.data(), bytes, static_cast<const int*>(in.data()), out.data(), n, stream));
  CUDA_OK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
  for (int replay = 0; replay < 2; ++replay) {
    CUDA_OK(poison(out.data(), n, -1, stream));
    CUDA_OK(cudaGraphLaunch(exec, stream));
    CUDA_OK(cudaStreamSynchronize(stream));
    expect_same_bits(out.download(), reference_inclusive_scan<int>(host_in, std::plus<int>{}));
  }
  CUDA_OK(cudaGraphExecDestroy(exec));
  CUDA_OK(cudaGraphDestroy(graph));
  CUDA_OK(cudaStreamDestroy(stream));
}

TEST_F(DeviceScan, ConvenienceLayerMatchesTheCoreAndThrowsOnBadArguments) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = 300'001;
  const auto host_in = random_small_ints<float>(n, seed, 0, 4);  // exact
  device_buffer<float> in(host_in), out(n);
  CUDA_OK(poison(out.data(), n, -1.0f));
  upsweep::exclusive_scan(static_cast<const float*>(in.data()), out.data(), n, 2.0f, cuda::std::plus<float>{});
  CUDA_OK(cudaDeviceSynchronize());
  expect_same_bits(out.download(), reference_exclusive_scan<float>(host_in, 2.0f, std::plus<float>{}));
  EXPECT_THROW(upsweep::inclusive_sum(static_cast<const float*>(in.data()), out.data(), -3), upsweep::cuda_error);
}

TEST_F(DeviceScan, AgreesWithCubBitForBit) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{1000}, std::int64_t{65537}, max_test_items(std::int64_t{100'000'000})}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    thrust::device_vector<int> in(n), ours(n, -1), theirs(n, -2);
    CUDA_OK(fill_random(thrust::raw_pointer_cast(in.data()), n, seed + n, -1000, 1000));
    upsweep::inclusive_sum(thrust::raw_pointer_cast(in.data()), thrust::raw_pointer_cast(ours.data()), n);
    std::size_t bytes = 0;
    CUDA_OK(cub::DeviceScan::InclusiveSum(nullptr, bytes, thrust::raw_pointer_cast(in.data()),
                                          thrust::raw_pointer_cast(theirs.data()), n));
    thrust::device_vector<unsigned char> temp(bytes);
    CUDA_OK(cub::DeviceScan::InclusiveSum(thrust::raw_pointer_cast(temp.data()), bytes,
                                          thrust::raw_pointer_cast(in.data()), thrust::raw_pointer_cast(theirs.data()), n));
    CUDA_OK(cudaDeviceSynchronize());
    expect_same_bits(download(ours), download(theirs));
  }
}

// Past 2^31 items: the count, the tile ids and the offsets are 64-bit. u8 in and u64 out also
// takes the prefix values past 2^32. The whole output is checked against a streaming CPU sum.
TEST_F(DeviceScan, LargeInclusiveSumPast2To31ItemsAndPast2To32InValue) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = (std::int64_t{1} << 31) + 1;
  device_buffer<std::uint8_t> in(n);
  device_buffer<std::uint64_t> out(n);
  CUDA_OK(fill_random<std::uint8_t>(in.data(), n, seed, 1, 255));
  CUDA_OK(poison<std::uint64_t>(out.data(), n, ~0ull));
  upsweep::inclusive_sum(static_cast<const std::uint8_t*>(in.data()), out.data(), n);
  CUDA_OK(cudaDeviceSynchronize());
  const auto host_in = in.download();
  std::uint64_t running = 0;
  const std::int64_t chunk = std::int64_t{1} << 26;
  for (std::int64_t first = 0; first < n; first += chunk) {
    const std::int64_t count = std::min(chunk, n - first);
    const auto got = out.download(count, first);
    std::int64_t mismatch = -1;
    for (std::int64_t i = 0; i < count; ++i) {
      running += host_in[first + i];
      if (got[i] != running && mismatch < 0) mismatch = i;
    }
    ASSERT_EQ(mismatch, -1) << "first mismatch at index " << first + mismatch;
  }
  EXPECT_GT(running, std::uint64_t{1} << 32);
}

TEST_F(DeviceScan, LargeExclusiveSumPast2To31ItemsMatchesCub) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = (std::int64_t{1} << 31) + 1000;
  thrust::device_vector<std::uint32_t> in(n), ours(n), theirs(n);
  CUDA_OK(fill_random<std::uint32_t>(thrust::raw_pointer_cast(in.data()), n, seed, 0, 1u << 30));
  upsweep::exclusive_sum(thrust::raw_pointer_cast(in.data()), thrust::raw_pointer_cast(ours.data()), n);
  std::size_t bytes = 0;
  CUDA_OK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, thrust::raw_pointer_cast(in.data()),
                                        thrust::raw_pointer_cast(theirs.data()), n));
  thrust::device_vector<unsigned char> temp(bytes);
  CUDA_OK(cub::DeviceScan::ExclusiveSum(thrust::raw_pointer_cast(temp.data()), bytes, thrust::raw_pointer_cast(in.data()),
                                        thrust::raw_pointer_cast(theirs.data()), n));
  CUDA_OK(cudaDeviceSynchronize());
  expect_same_bits(download(ours), download(theirs));
  // Check the tail against the CPU: the sum of everything before the last item.
  const std::vector<std::uint32_t> host_in = download(in);
  std::uint32_t running = 0;
  for (std::int64_t i = 0; i + 1 < n; ++i) running += host_in[i];
  EXPECT_EQ(static_cast<std::uint32_t>(ours[n - 1]), running);
}

}  // namespace
}  // namespace upsweep::test
