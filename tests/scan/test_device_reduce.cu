// Device reduce against the CPU reference and CUB: sum, min, max, a custom functor; every type;
// sizes around tile, one-block and grid boundaries; init; misaligned pointers; float bounds;
// graph capture; the value-returning form; past 2^31 items.
#include <upsweep/scan/device_reduce.cuh>

#include "scan_test_support.cuh"

#include <cub/device/device_reduce.cuh>

#include <thrust/device_vector.h>

#include <algorithm>

namespace upsweep::test {
namespace {

template <class T>
std::vector<std::int64_t> reduce_sizes() {
  const std::int64_t tile = default_reduce_policy<T>::tile_items;
  const std::int64_t one_block = default_reduce_policy<T>::single_block_max_items;
  // one_block + 1 takes the two passes even at the sanitizers' capped sizes.
  return {0, 1, 2, 31, 32, 33, tile - 1, tile, tile + 1, one_block, one_block + 1, max_test_items(100'003),
          2048 * tile + 7, 999983, max_test_items(std::int64_t{30'000'001})};
}

// Reduces a copy of `host_in` with reduce(init, op) through the core layer; checks that nothing
// is written past the one result and that the input is unchanged.
template <class T, class Op>
void run_reduce(const std::vector<T>& host_in, T init, Op op, T& result, int misalign = 0) {
  const auto n = static_cast<std::int64_t>(host_in.size());
  device_buffer<T> in(n + misalign);
  device_buffer<T> out(1, guard_items);
  if (n > 0) CUDA_OK(cudaMemcpy(in.data() + misalign, host_in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(out.data(), poison_byte, (1 + guard_items) * sizeof(T)));
  const T* d_in = in.data() + misalign;
  std::size_t bytes = 0;
  CUDA_OK(upsweep::reduce(nullptr, bytes, d_in, out.data(), n, init, op));
  ASSERT_GT(bytes, 0u);
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  CUDA_OK(upsweep::reduce(temp.data(), bytes, d_in, out.data(), n, init, op));
  CUDA_OK(cudaDeviceSynchronize());
  const auto values = out.download(1 + guard_items);
  result = values[0];
  const auto* guard = reinterpret_cast<const unsigned char*>(values.data() + 1);
  for (std::size_t i = 0; i < guard_items * sizeof(T); ++i) ASSERT_EQ(guard[i], poison_byte) << "written past the result";
  std::vector<T> after(static_cast<std::size_t>(n));
  if (n > 0) CUDA_OK(cudaMemcpy(after.data(), d_in, n * sizeof(T), cudaMemcpyDeviceToHost));
  ASSERT_TRUE(after == host_in) << "input changed";
}

template <class T>
class DeviceReduceTyped : public gpu_test {};
using reduce_types = ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(DeviceReduceTyped, reduce_types);

TYPED_TEST(DeviceReduceTyped, SumWithInitMatchesTheCpuAtEveryBoundary) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : reduce_sizes<T>()) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto in = random_small_ints<T>(n, seed + n, 0, exact_max<T>(9));
    T got{};
    run_reduce(in, T(3), cuda::std::plus<T>{}, got);
    EXPECT_EQ(got, reference_reduce<T>(in, T(3), std::plus<T>{}));
  }
}

TYPED_TEST(DeviceReduceTyped, MinimumAndMaximumMatchTheCpu) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : reduce_sizes<T>()) {
    if (n == 0) continue;
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto in = random_small_ints<T>(n, seed + n, 0, 120);
    T got{};
    run_reduce(in, T(127), upsweep::minimum{}, got);
    EXPECT_EQ(got, *std::min_element(in.begin(), in.end()));
    run_reduce(in, T(0), upsweep::maximum{}, got);
    EXPECT_EQ(got, *std::max_element(in.begin(), in.end()));
  }
}

TYPED_TEST(DeviceReduceTyped, MisalignedInputStillReducesCorrectly) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (int offset = 1; offset <= 3; ++offset) {
    const auto in = random_small_ints<T>(500'001, seed + offset, 0, exact_max<T>(7));
    T got{};
    run_reduce(in, T(0), cuda::std::plus<T>{}, got, offset);
    EXPECT_EQ(got, reference_reduce<T>(in, T(0), std::plus<T>{})) << "offset " << offset;
  }
}

TYPED_TEST(DeviceReduceTyped, EmptyInputGivesInitAndTheIdentityShortcuts) {
  using T = TypeParam;
  device_buffer<T> out(3);
  CUDA_OK(poison(out.data(), 3, T(42)));
  const T* none = nullptr;
  upsweep::reduce_sum(none, out.data(), 0);
  upsweep::reduce_min(none, out.data() + 1, 0);
  upsweep::reduce_max(none, out.data() + 2, 0);
  CUDA_OK(cudaDeviceSynchronize());
  const auto got = out.download();
  EXPECT_EQ(got[0], T(0));
  EXPECT_EQ(got[1], upsweep::detail::highest_value<T>());
  EXPECT_EQ(got[2], upsweep::detail::lowest_value<T>());
}

template <class T>
class DeviceReduceFloat : public gpu_test {};
using float_types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(DeviceReduceFloat, float_types);

TYPED_TEST(DeviceReduceFloat, RandomFloatSumStaysWithinTheRoundingBound) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{999}, std::int64_t{1} << 20, max_test_items(std::int64_t{20'000'000})}) {
    const auto in = random_host<T>(n, seed + n, T(-1), T(1));
    T got{};
    run_reduce(in, T(0), cuda::std::plus<T>{}, got);
    double exact = 0;
    for (T x : in) exact += x;
    EXPECT_LE(std::fabs(static_cast<double>(got) - exact), float_sum_bound<T>(in, in.size())) << "n = " << n;
  }
}

class DeviceReduce : public gpu_test {};

// Extended device lambdas cannot live inside a test body (a private member function).
void reduce_xor_with_lambda(const std::uint32_t* in, std::uint32_t* out, std::int64_t n) {
  upsweep::reduce(in, out, n, 0u, [] __device__(std::uint32_t a, std::uint32_t b) { return a ^ b; });
}
struct bit_xor {
  __host__ __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const { return a ^ b; }
};

TEST_F(DeviceReduce, ValueFormReturnsTheResultToTheHost) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const auto host_in = random_small_ints<std::int64_t>(1'000'003, seed, -100, 100);
  device_buffer<std::int64_t> in(host_in);
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const auto got = upsweep::reduce_value(static_cast<const std::int64_t*>(in.data()), in.size(), std::int64_t{5},
                                         cuda::std::plus<std::int64_t>{}, stream);
  EXPECT_EQ(got, reference_reduce<std::int64_t>(host_in, 5, std::plus<std::int64_t>{}));
  CUDA_OK(cudaStreamDestroy(stream));
}

TEST_F(DeviceReduce, CoreCallIsCapturedInACudaGraph) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = 4'000'037;
  const auto host_in = random_small_ints<int>(n, seed, -5, 5);
  device_buffer<int> in(host_in), out(1);
  std::size_t bytes = 0;
  CUDA_OK(upsweep::reduce_sum(nullptr, bytes, static_cast<const int*>(in.data()), out.data(), n));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph;
  CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  CUDA_OK(upsweep::reduce_sum(temp.data(), bytes, static_cast<const int*>(in.data()), out.data(), n, stream));
  CUDA_OK(cudaStreamEndCapture(stream, &graph));
  cudaGraphExec_t exec;
  CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
  CUDA_OK(poison(out.data(), 1, -1));
  CUDA_OK(cudaGraphLaunch(exec, stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  EXPECT_EQ(out.download()[0], reference_reduce<int>(host_in, 0, std::plus<int>{}));
  CUDA_OK(cudaGraphExecDestroy(exec));
  CUDA_OK(cudaGraphDestroy(graph));
  CUDA_OK(cudaStreamDestroy(stream));
}

TEST_F(DeviceReduce, DeviceLambdaReduceMatchesCub) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = max_test_items(std::int64_t{50'000'000});
  thrust::device_vector<std::uint32_t> in(n), out(2);
  CUDA_OK(fill_random<std::uint32_t>(thrust::raw_pointer_cast(in.data()), n, seed, 0, ~0u));
  reduce_xor_with_lambda(thrust::raw_pointer_cast(in.data()), thrust::raw_pointer_cast(out.data()), n);
  std::size_t bytes = 0;
  CUDA_OK(cub::DeviceReduce::Reduce(nullptr, bytes, thrust::raw_pointer_cast(in.data()),
                                    thrust::raw_pointer_cast(out.data()) + 1, n, bit_xor{}, 0u));
  thrust::device_vector<unsigned char> temp(bytes);
  CUDA_OK(cub::DeviceReduce::Reduce(thrust::raw_pointer_cast(temp.data()), bytes, thrust::raw_pointer_cast(in.data()),
                                    thrust::raw_pointer_cast(out.data()) + 1, n, bit_xor{}, 0u));
  CUDA_OK(cudaDeviceSynchronize());
  EXPECT_EQ(static_cast<std::uint32_t>(out[0]), static_cast<std::uint32_t>(out[1]));
}

TEST_F(DeviceReduce, LargeSumPast2To31ItemsIntoA64BitTotal) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = (std::int64_t{1} << 31) + 77;
  device_buffer<std::uint64_t> out(1);
  device_buffer<std::uint8_t> in(n);
  CUDA_OK(fill_random<std::uint8_t>(in.data(), n, seed, 0, 255));
  const auto host_in = in.download();
  std::uint64_t expected = 0;
  for (std::uint8_t x : host_in) expected += x;
  upsweep::reduce(static_cast<const std::uint8_t*>(in.data()), out.data(), n, std::uint64_t{0},
                  cuda::std::plus<std::uint64_t>{});
  CUDA_OK(cudaDeviceSynchronize());
  EXPECT_EQ(out.download()[0], expected);
  EXPECT_GT(expected, std::uint64_t{1} << 32);
}

}  // namespace
}  // namespace upsweep::test
