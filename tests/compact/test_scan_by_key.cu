// The scans by key against host references and CUB: inclusive and exclusive (with init), runs of
// every shape, sizes around warp and tile edges, small tiles, a non-commutative operator (2x2
// matrix product), an equality on part of a key, in place, bad arguments, and 2^31 + 1001 items
// whose runs cross many tiles. Outputs are poisoned and guarded.
#include <upsweep/compact/device_scan_by_key.cuh>

#include "by_key_test_support.cuh"

#include <cstring>
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/transform.h>

namespace upsweep::test {
namespace {

// Host reference: the scan restarts at each run head; exclusive puts init in front.
template <class A, class K, class V, class Op, class Eq>
std::vector<A> scan_on_host(const std::vector<K>& keys, const std::vector<V>& values, Op op, Eq eq,
                            const A* init) {
  std::vector<A> out(keys.size());
  const auto head = heads_on_host(keys, eq);
  A running{};
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const A value = static_cast<A>(values[i]);
    if (init != nullptr) {
      running = head[i] ? *init : op(running, static_cast<A>(values[i - 1]));
      out[i] = running;
    } else {
      running = head[i] ? value : op(running, value);
      out[i] = running;
    }
  }
  return out;
}

// Runs an inclusive (init null) or exclusive scan by key with Policy, out of place or in place,
// and checks every output, the guard after it, and that the keys are unchanged.
template <class Policy, class A, class K, class V, class Op, class Eq>
void expect_scans_like_the_host(const std::vector<K>& keys, const std::vector<V>& values, Op op, Eq eq,
                                const A* init, bool in_place) {
  const auto n = static_cast<std::int64_t>(keys.size());
  const auto want = scan_on_host<A>(keys, values, op, eq, init);
  device_buffer<K> d_keys(keys);
  device_buffer<V> d_values(n, guard_items);
  device_buffer<A> d_out(n, guard_items);
  poison(d_values);
  poison(d_out);
  if (n > 0) d_values.upload(values);
  const auto call = [&](void* temp, std::size_t& bytes) {
    const K* k = d_keys.data();
    if constexpr (std::is_same_v<V, A>) {
      if (in_place) {
        return init ? exclusive_scan_by_key<Policy>(temp, bytes, k, d_values.data(), d_values.data(), n, *init, op, eq)
                    : inclusive_scan_by_key<Policy>(temp, bytes, k, d_values.data(), d_values.data(), n, op, eq);
      }
    }
    const V* v = d_values.data();
    return init ? exclusive_scan_by_key<Policy>(temp, bytes, k, v, d_out.data(), n, *init, op, eq)
                : inclusive_scan_by_key<Policy>(temp, bytes, k, v, d_out.data(), n, op, eq);
  };
  std::size_t bytes = 0;
  CUDA_OK(call(nullptr, bytes));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  CUDA_OK(call(temp.data(), bytes));
  CUDA_OK(cudaDeviceSynchronize());
  if (in_place) {
    expect_output_then_poison(d_values.download(n + guard_items), std::vector<V>(want.begin(), want.end()), "scan");
  } else {
    expect_output_then_poison(d_out.download(n + guard_items), want, "scan");
    expect_same_bytes(d_values.download(n).data(), values.data(), n, "values changed");
  }
  expect_same_bytes(d_keys.download(n).data(), keys.data(), n, "keys changed");
}

template <class K, class V, class A, class Op, class Eq>
void expect_every_shape_scans_like_the_host(Op op, Eq eq, A init) {
  constexpr std::int64_t tile = default_scan_by_key_policy<K, A>::tile_items;
  for_every_size_and_shape<K, V>(tile, [&](const std::vector<K>& keys, const std::vector<V>& values) {
    for (const bool exclusive : {false, true}) {
      SCOPED_TRACE(exclusive ? "exclusive" : "inclusive");
      const A* with_init = exclusive ? &init : nullptr;
      expect_scans_like_the_host<void>(keys, values, op, eq, with_init, false);
      expect_scans_like_the_host<small_by_key_tiles>(keys, values, op, eq, with_init, false);
      expect_scans_like_the_host<small_tiles_ahead>(keys, values, op, eq, with_init, false);
      if constexpr (std::is_same_v<V, A>) {
        SCOPED_TRACE("in place");
        expect_scans_like_the_host<void>(keys, values, op, eq, with_init, true);
        expect_scans_like_the_host<small_tiles_ahead>(keys, values, op, eq, with_init, true);
      }
      if (::testing::Test::HasFatalFailure()) return;
    }
  });
}

class ScanByKey : public gpu_test {};

TEST_F(ScanByKey, IntSumsMatchTheHostAtEverySizeAndRunShape) {
  expect_every_shape_scans_like_the_host<std::int32_t, std::int32_t, std::int32_t>(cuda::std::plus<>{}, plain_equal{},
                                                                                   7);
}

TEST_F(ScanByKey, NarrowValuesIntoWideSumsMatchTheHost) {
  expect_every_shape_scans_like_the_host<std::uint64_t, std::int16_t, std::int64_t>(cuda::std::plus<>{},
                                                                                    plain_equal{}, -3);
}

TEST_F(ScanByKey, MatrixProductsKeepEachRunsOrder) {
  const mat2 init{{1, 2, 3, 4}};
  expect_every_shape_scans_like_the_host<std::uint8_t, mat2, mat2>(mat_mul{}, plain_equal{}, init);
}

TEST_F(ScanByKey, EqualityOnPartOfAKeyDecidesTheRuns) {
  expect_every_shape_scans_like_the_host<tagged, double, double>(cuda::std::plus<>{}, same_key{}, 0.5);
}

TEST_F(ScanByKey, MatchesCubInclusiveAndExclusiveScanByKey) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{33}, std::int64_t{100'000}, max_test_items(std::int64_t{5'000'011})}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto keys = keys_of_shape<int>(n, run_shape::long_runs, 4096, seed + n);
    device_buffer<int> d_keys(keys), d_values(values_for<int>(n, seed)), ours(n), theirs(n);
    for (const bool exclusive : {false, true}) {
      SCOPED_TRACE(exclusive ? "exclusive" : "inclusive");
      std::size_t bytes = 0;
      const auto cub_call = [&](void* temp) {
        return exclusive ? cub::DeviceScan::ExclusiveScanByKey(temp, bytes, d_keys.data(), d_values.data(),
                                                               theirs.data(), cuda::std::plus<>{}, 5, n)
                         : cub::DeviceScan::InclusiveScanByKey(temp, bytes, d_keys.data(), d_values.data(),
                                                               theirs.data(), cuda::std::plus<>{}, n);
      };
      CUDA_OK(cub_call(nullptr));
      device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
      CUDA_OK(cub_call(temp.data()));
      if (exclusive)
        exclusive_scan_by_key(d_keys.data(), d_values.data(), ours.data(), n, 5, cuda::std::plus<>{});
      else
        inclusive_scan_by_key(d_keys.data(), d_values.data(), ours.data(), n, cuda::std::plus<>{});
      CUDA_OK(cudaDeviceSynchronize());
      expect_same_bytes(ours.download().data(), theirs.download().data(), n, "scan");
    }
  }
}

TEST_F(ScanByKey, RefusesBadArguments) {
  device_buffer<int> keys(100), values(100), out(100);
  std::size_t bytes = 0;
  const auto plus = cuda::std::plus<>{};
  CUDA_OK(inclusive_scan_by_key(nullptr, bytes, keys.data(), values.data(), out.data(), 100, plus));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  const auto call = [&](const int* k, const int* v, int* o, std::int64_t n) {
    return inclusive_scan_by_key(temp.data(), bytes, k, v, o, n, plus);
  };
  EXPECT_EQ(cudaErrorInvalidValue, call(keys.data(), values.data(), out.data(), -1));
  EXPECT_EQ(cudaErrorInvalidValue, call(nullptr, values.data(), out.data(), 100));
  EXPECT_EQ(cudaErrorInvalidValue, call(keys.data(), values.data(), keys.data(), 100));
  EXPECT_EQ(cudaErrorInvalidValue, call(keys.data(), values.data(), values.data() + 1, 100));
  EXPECT_EQ(cudaSuccess, call(keys.data(), values.data(), values.data(), 0));
  CUDA_OK(cudaDeviceSynchronize());
}

// Keys i / 2^20 (runs of 2^20 items, 2049 runs), values 1, sums wrapping in 8 bits: out[i] is
// (i mod 2^20) + 1 mod 256.
struct run_of_index {
  __host__ __device__ std::int64_t operator()(std::int64_t i) const { return i >> 20; }
};

TEST_F(ScanByKey, LargeInclusiveScanByKeyPast2To31Items) {
  const std::int64_t n = (std::int64_t{1} << 31) + 1001;
  device_buffer<std::uint8_t> out(n);
  const auto keys = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), run_of_index{});
  inclusive_scan_by_key(keys, thrust::constant_iterator<std::uint8_t>(1), out.data(), n, cuda::std::plus<>{});
  CUDA_OK(cudaDeviceSynchronize());
  const auto got = out.download();
  std::int64_t first_wrong = -1;
  for (std::int64_t i = 0; i < n && first_wrong < 0; ++i)
    if (got[i] != static_cast<std::uint8_t>((i & ((1 << 20) - 1)) + 1)) first_wrong = i;
  ASSERT_EQ(first_wrong, -1) << "first wrong output";
}

// The same runs as int32 keys and values in device memory: 16-byte aligned pointers, so the
// default policy reduces ahead on every resident block.
struct int_run_of_index {
  __host__ __device__ std::int32_t operator()(std::int64_t i) const { return static_cast<std::int32_t>(i >> 20); }
};

TEST_F(ScanByKey, LargeInclusiveScanByKeyReducingAheadPast2To31Items) {
  const std::int64_t n = (std::int64_t{1} << 31) + 1001;
  device_buffer<std::int32_t> keys(n), values(n), out(n, guard_items);
  thrust::transform(thrust::cuda::par, thrust::counting_iterator<std::int64_t>(0),
                    thrust::counting_iterator<std::int64_t>(n), keys.data(), int_run_of_index{});
  thrust::fill_n(thrust::cuda::par, values.data(), n, 1);
  poison(out);
  inclusive_scan_by_key(keys.data(), values.data(), out.data(), n, cuda::std::plus<>{});
  CUDA_OK(cudaDeviceSynchronize());
  const auto got = out.download(n + guard_items);
  std::int64_t first_wrong = -1;
  for (std::int64_t i = 0; i < n && first_wrong < 0; ++i)
    if (got[i] != static_cast<std::int32_t>((i & ((1 << 20) - 1)) + 1)) first_wrong = i;
  ASSERT_EQ(first_wrong, -1) << "first wrong output";
  std::vector<std::int32_t> poisoned(guard_items);
  std::memset(poisoned.data(), poison_byte, poisoned.size() * sizeof(std::int32_t));
  expect_same_bytes(got.data() + n, poisoned.data(), guard_items, "written past the end");
}

}  // namespace
}  // namespace upsweep::test
