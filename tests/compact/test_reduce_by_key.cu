// reduce_by_key, unique_by_key and unique with a custom equality against host references and CUB:
// runs of every shape (all distinct, short, crossing many tiles, one run, tile edges), sizes
// around warp and tile edges, small tiles so look-backs walk many windows, a non-commutative
// operator (2x2 matrix product), float keys with -0.0/+0.0 and NaN, an equality on part of a key
// (which item of a run is kept), eq called once per pair of neighbours, bad arguments, and one
// run past 2^31 items. Outputs and counts are poisoned; guards follow every output.
#include <upsweep/compact/device_reduce_by_key.cuh>
#include <upsweep/compact/device_unique.cuh>

#include "by_key_test_support.cuh"

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

namespace upsweep::test {
namespace {

template <class K, class A>
struct runs_of {
  std::vector<K> keys;
  std::vector<A> values;  // aggregates (reduce) or first values (unique)
};

// Host reference: each run's first key, and op over its values in order (or its first value).
template <class A, class K, class V, class Op, class Eq>
runs_of<K, A> reduce_on_host(const std::vector<K>& keys, const std::vector<V>& values, Op op, Eq eq, bool first_only) {
  runs_of<K, A> r;
  const auto head = heads_on_host(keys, eq);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const A value = static_cast<A>(values[i]);
    if (head[i]) {
      r.keys.push_back(keys[i]);
      r.values.push_back(value);
    } else if (!first_only) {
      r.values.back() = op(r.values.back(), value);
    }
  }
  return r;
}

// Runs `call(temp, bytes, keys, values, keys_out, values_out, count, n)` (a core-layer call) and
// checks the count, both outputs and the poison past them, and that the inputs are unchanged.
template <class A, class K, class V, class Call>
void expect_runs_like_the_host(const std::vector<K>& keys, const std::vector<V>& values,
                               const runs_of<K, A>& want, Call call) {
  const auto n = static_cast<std::int64_t>(keys.size());
  device_buffer<K> d_keys(keys), d_keys_out(n, guard_items);
  device_buffer<V> d_values(values);
  device_buffer<A> d_values_out(n, guard_items);
  device_buffer<std::int64_t> d_count(1);
  poison(d_keys_out);
  poison(d_values_out);
  check(cudaMemset(d_count.data(), poison_byte, sizeof(std::int64_t)), "cudaMemset");
  std::size_t bytes = 0;
  CUDA_OK(call(nullptr, bytes, static_cast<const K*>(d_keys.data()), static_cast<const V*>(d_values.data()),
               d_keys_out.data(), d_values_out.data(), d_count.data(), n));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  CUDA_OK(call(temp.data(), bytes, static_cast<const K*>(d_keys.data()), static_cast<const V*>(d_values.data()),
               d_keys_out.data(), d_values_out.data(), d_count.data(), n));
  CUDA_OK(cudaDeviceSynchronize());
  const auto runs = static_cast<std::int64_t>(want.keys.size());
  ASSERT_EQ(d_count.download()[0], runs) << "number of runs";
  expect_output_then_poison(d_keys_out.download(n + guard_items), want.keys, "run keys");
  expect_output_then_poison(d_values_out.download(n + guard_items), want.values, "run values");
  expect_same_bytes(d_keys.download(n).data(), keys.data(), n, "keys changed");
  expect_same_bytes(d_values.download(n).data(), values.data(), n, "values changed");
}

template <class Policy, class Op, class Eq>
auto reduce_call(Op op, Eq eq) {
  return [=](void* t, std::size_t& b, auto keys, auto values, auto keys_out, auto values_out, std::int64_t* count,
             std::int64_t n) {
    return upsweep::reduce_by_key<Policy>(t, b, keys, values, keys_out, values_out, count, n, op, eq);
  };
}

// unique_by_key's default tiles past unique_large_tiles_from items, here at every size (a policy
// of its own type, not the default).
template <class K, class V>
struct unique_large_tiles : default_unique_by_key_policy<K, V> {};

template <class Policy, class Eq>
auto unique_by_key_call(Eq eq) {
  return [=](void* t, std::size_t& b, auto keys, auto values, auto keys_out, auto values_out, std::int64_t* count,
             std::int64_t n) {
    return upsweep::unique_by_key<Policy>(t, b, keys, values, keys_out, values_out, count, n, eq);
  };
}

// Every size and shape, the default tiles and small ones, reduce and unique_by_key.
template <class K, class V, class A, class Op, class Eq>
void expect_every_shape_like_the_host(Op op, Eq eq) {
  // Sizes around each function's own default tile.
  for_every_size_and_shape<K, V>(default_reduce_by_key_policy<K, A>::tile_items,
                                 [&](const std::vector<K>& keys, const std::vector<V>& values) {
                                   const auto reduced = reduce_on_host<A>(keys, values, op, eq, false);
                                   expect_runs_like_the_host<A>(keys, values, reduced, reduce_call<void>(op, eq));
                                   expect_runs_like_the_host<A>(keys, values, reduced,
                                                                reduce_call<small_by_key_tiles>(op, eq));
                                   expect_runs_like_the_host<A>(keys, values, reduced,
                                                                reduce_call<small_tiles_ahead>(op, eq));
                                 });
  // The default's tiles below unique_large_tiles_from items, and its large tiles at every size.
  for_every_size_and_shape<K, V>(default_by_key_policy<K, V>::tile_items,
                                 [&](const std::vector<K>& keys, const std::vector<V>& values) {
                                   const auto firsts = reduce_on_host<V>(keys, values, op, eq, true);
                                   expect_runs_like_the_host<V>(keys, values, firsts, unique_by_key_call<void>(eq));
                                   expect_runs_like_the_host<V>(keys, values, firsts,
                                                                unique_by_key_call<small_by_key_tiles>(eq));
                                 });
  for_every_size_and_shape<K, V>(default_unique_by_key_policy<K, V>::tile_items,
                                 [&](const std::vector<K>& keys, const std::vector<V>& values) {
                                   const auto firsts = reduce_on_host<V>(keys, values, op, eq, true);
                                   expect_runs_like_the_host<V>(keys, values, firsts,
                                                                unique_by_key_call<unique_large_tiles<K, V>>(eq));
                                 });
}

class ReduceByKey : public gpu_test {};

TEST_F(ReduceByKey, IntSumsMatchTheHostAtEverySizeAndRunShape) {
  expect_every_shape_like_the_host<std::int32_t, std::int32_t, std::int32_t>(cuda::std::plus<>{}, plain_equal{});
}

TEST_F(ReduceByKey, NarrowKeysIntoWideSumsMatchTheHost) {
  expect_every_shape_like_the_host<std::int16_t, std::int32_t, std::int64_t>(cuda::std::plus<>{}, plain_equal{});
}

TEST_F(ReduceByKey, WideKeysAndDoubleSumsMatchTheHost) {
  expect_every_shape_like_the_host<std::uint64_t, double, double>(cuda::std::plus<>{}, plain_equal{});
}

TEST_F(ReduceByKey, MatrixProductsKeepEachRunsOrder) {
  expect_every_shape_like_the_host<std::uint8_t, mat2, mat2>(mat_mul{}, plain_equal{});
}

TEST_F(ReduceByKey, EqualityOnPartOfAKeyKeepsTheFirstKeyOfEachRun) {
  expect_every_shape_like_the_host<tagged, std::int32_t, std::int32_t>(cuda::std::plus<>{}, same_key{});
}

// -0.0 and +0.0 form one run (its first key kept, sign and all); every NaN is its own run.
TEST_F(ReduceByKey, FloatKeysJoinSignedZerosAndSplitNaNs) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{1000}, max_test_items(std::int64_t{500'000})}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto keys = float_keys(n, seed + n);
    const auto values = values_for<std::int32_t>(n, seed);
    const auto want = reduce_on_host<std::int32_t>(keys, values, cuda::std::plus<>{}, plain_equal{}, false);
    expect_runs_like_the_host<std::int32_t>(keys, values, want, reduce_call<void>(cuda::std::plus<>{}, plain_equal{}));
    const auto firsts = reduce_on_host<std::int32_t>(keys, values, keep_first{}, plain_equal{}, true);
    expect_runs_like_the_host<std::int32_t>(keys, values, firsts, unique_by_key_call<void>(plain_equal{}));
  }
}

// Upsweep and CUB on the same keys and values; CUB's ReduceByKey keys are compared where runs hold
// identical keys (int keys), its UniqueByKey also keeps the first.
TEST_F(ReduceByKey, MatchesCubReduceByKeyAndUniqueByKey) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{33}, std::int64_t{100'000}, max_test_items(std::int64_t{5'000'011})}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto keys = keys_of_shape<int>(n, run_shape::short_runs, 4096, seed + n);
    const auto values = values_for<int>(n, seed);
    device_buffer<int> d_keys(keys), d_values(values);
    device_buffer<int> ours_keys(n), ours_values(n), cub_keys(n), cub_values(n);
    device_buffer<std::int64_t> counts(2);
    std::size_t bytes = 0;
    for (const bool unique : {false, true}) {
      SCOPED_TRACE(unique ? "unique_by_key" : "reduce_by_key");
      if (unique) {
        upsweep::unique_by_key(d_keys.data(), d_values.data(), ours_keys.data(), ours_values.data(), counts.data(), n);
        CUDA_OK(cub::DeviceSelect::UniqueByKey(nullptr, bytes, d_keys.data(), d_values.data(), cub_keys.data(),
                                               cub_values.data(), counts.data() + 1, n));
      } else {
        upsweep::reduce_by_key(d_keys.data(), d_values.data(), ours_keys.data(), ours_values.data(), counts.data(), n,
                               cuda::std::plus<>{});
        CUDA_OK(cub::DeviceReduce::ReduceByKey(nullptr, bytes, d_keys.data(), cub_keys.data(), d_values.data(),
                                               cub_values.data(), counts.data() + 1, cuda::std::plus<>{}, n));
      }
      device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
      if (unique)
        CUDA_OK(cub::DeviceSelect::UniqueByKey(temp.data(), bytes, d_keys.data(), d_values.data(), cub_keys.data(),
                                               cub_values.data(), counts.data() + 1, n));
      else
        CUDA_OK(cub::DeviceReduce::ReduceByKey(temp.data(), bytes, d_keys.data(), cub_keys.data(), d_values.data(),
                                               cub_values.data(), counts.data() + 1, cuda::std::plus<>{}, n));
      CUDA_OK(cudaDeviceSynchronize());
      const auto count = counts.download();
      ASSERT_EQ(count[0], count[1]) << "number of runs";
      ASSERT_GT(count[0], 0);
      expect_same_bytes(ours_keys.download(count[0]).data(), cub_keys.download(count[0]).data(), count[0], "keys");
      expect_same_bytes(ours_values.download(count[0]).data(), cub_values.download(count[0]).data(), count[0],
                        "values");
    }
  }
}

// unique with an equality in the template layer, against the host and (for ==) CUB's Unique.
TEST_F(ReduceByKey, UniqueTakesAnyEqualityAndKeepsTheFirst) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : by_key_sizes(tile_of<tagged>())) {
    for (const run_shape shape : every_run_shape()) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", " + name_of(shape));
      const auto keys = keys_of_shape<tagged>(n, shape, tile_of<tagged>(), seed + n);
      const auto want = reduce_on_host<tagged>(keys, keys, keep_first{}, same_key{}, true).keys;
      run_compact(keys,
                  [](void* t, std::size_t& b, const tagged* in, tagged* out, std::int64_t* c, std::int64_t m,
                     cudaStream_t s) { return upsweep::unique(t, b, in, out, c, m, same_key{}, s); },
                  want);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// Counts eq's calls per pair of neighbours (items are their indices, runs of 3).
struct counting_equality {
  unsigned* calls;
  __device__ bool operator()(std::int64_t a, std::int64_t b) const {
    atomicAdd(calls + b, 1u);
    return a / 3 == b / 3;
  }
};

TEST_F(ReduceByKey, EqualityIsCalledOncePerPairOfNeighbours) {
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{4097}, max_test_items(std::int64_t{1'000'003})}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<std::int64_t> keys(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) keys[i] = i;
    device_buffer<std::int64_t> d_keys(keys), d_out(n), d_values_out(n), d_count(1);
    device_buffer<unsigned> calls(n);
    for (int which = 0; which < 3; ++which) {
      SCOPED_TRACE(which == 0 ? "unique" : which == 1 ? "unique_by_key" : "reduce_by_key");
      check(cudaMemset(calls.data(), 0, static_cast<std::size_t>(n) * sizeof(unsigned)), "cudaMemset");
      const counting_equality eq{calls.data()};
      if (which == 0) upsweep::unique(d_keys.data(), d_out.data(), d_count.data(), n, eq);
      if (which == 1) upsweep::unique_by_key(d_keys.data(), d_keys.data(), d_out.data(), d_values_out.data(),
                                             d_count.data(), n, eq);
      if (which == 2) upsweep::reduce_by_key(d_keys.data(), d_keys.data(), d_out.data(), d_values_out.data(),
                                             d_count.data(), n, cuda::std::plus<>{}, eq);
      CUDA_OK(cudaDeviceSynchronize());
      ASSERT_EQ(d_count.download()[0], (n + 2) / 3);
      const auto got = calls.download();
      for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], i == 0 ? 0u : 1u) << "calls for the pair ending at " << i;
    }
  }
}

// Counts the reads of each value (the value of item i is 7 i).
struct counted_value {
  unsigned* reads;
  __device__ std::int64_t operator()(std::int64_t i) const {
    atomicAdd(reads + i, 1u);
    return 7 * i;
  }
};

// unique_by_key's contract: it reads the value of each run's first item, once, and no other.
TEST_F(ReduceByKey, UniqueByKeyReadsOnlyTheValuesOfRunHeads) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  std::mt19937_64 rng(seed);
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{33}, std::int64_t{4097},
                               max_test_items(std::int64_t{1'000'003})}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<std::int64_t> keys(static_cast<std::size_t>(n));
    std::vector<unsigned> want_reads(static_cast<std::size_t>(n), 0);
    std::int64_t runs = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const bool head = i == 0 || rng() % 5 == 0;
      keys[i] = (i == 0 ? 0 : keys[i - 1]) + (head ? 1 : 0);
      want_reads[i] = head ? 1u : 0u;
      runs += head ? 1 : 0;
    }
    device_buffer<std::int64_t> d_keys(keys), d_keys_out(n), d_values_out(n, guard_items), d_count(1);
    device_buffer<unsigned> reads(n);
    check(cudaMemset(reads.data(), 0, static_cast<std::size_t>(n) * sizeof(unsigned)), "cudaMemset");
    poison(d_values_out);
    const auto values = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                                        counted_value{reads.data()});
    upsweep::unique_by_key(d_keys.data(), values, d_keys_out.data(), d_values_out.data(), d_count.data(), n);
    CUDA_OK(cudaDeviceSynchronize());
    ASSERT_EQ(d_count.download()[0], runs);
    const auto got_reads = reads.download();
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(got_reads[i], want_reads[i]) << "reads of value " << i;
    std::vector<std::int64_t> want_values;
    for (std::int64_t i = 0; i < n; ++i)
      if (want_reads[i] != 0) want_values.push_back(7 * i);
    expect_output_then_poison(d_values_out.download(runs + guard_items), want_values, "first values");
  }
}

TEST_F(ReduceByKey, RefusesBadArgumentsBeforeWritingAnything) {
  device_buffer<int> keys(100), values(100), out(100);
  device_buffer<std::int64_t> count(1);
  std::size_t bytes = 0;
  const auto plus = cuda::std::plus<>{};
  ASSERT_EQ(cudaSuccess, upsweep::reduce_by_key(nullptr, bytes, keys.data(), values.data(), out.data(), out.data() + 0,
                                                count.data(), 100, plus));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  const auto call = [&](const int* k, const int* v, int* ko, int* vo, std::int64_t* c, std::int64_t n) {
    return upsweep::reduce_by_key(temp.data(), bytes, k, v, ko, vo, c, n, plus);
  };
  device_buffer<int> other(100);
  EXPECT_EQ(cudaErrorInvalidValue, call(keys.data(), values.data(), out.data(), other.data(), count.data(), -1));
  EXPECT_EQ(cudaErrorInvalidValue, call(keys.data(), values.data(), out.data(), other.data(), nullptr, 100));
  EXPECT_EQ(cudaErrorInvalidValue, call(nullptr, values.data(), out.data(), other.data(), count.data(), 100));
  EXPECT_EQ(cudaErrorInvalidValue, call(keys.data(), values.data(), keys.data(), other.data(), count.data(), 100));
  EXPECT_EQ(cudaErrorInvalidValue, call(keys.data(), values.data(), out.data(), values.data(), count.data(), 100));
  EXPECT_EQ(cudaErrorInvalidValue,
            upsweep::unique_by_key(temp.data(), bytes, keys.data(), values.data(), keys.data() + 1, other.data(),
                                   count.data(), std::int64_t{100}));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::unique(temp.data(), bytes, keys.data(), keys.data(), count.data(),
                                                   std::int64_t{100}, plain_equal{}));
  CUDA_OK(cudaDeviceSynchronize());
}

// One run of 2^31 + 1001 items from constant iterators: a 64-bit sum, one key.
TEST_F(ReduceByKey, LargeReduceByKeyOfOneRunPast2To31Items) {
  const std::int64_t n = (std::int64_t{1} << 31) + 1001;
  device_buffer<int> key_out(1);
  device_buffer<std::int64_t> sum(1), count(1);
  upsweep::reduce_by_key(thrust::constant_iterator<int>(7), thrust::constant_iterator<std::int64_t>(3),
                         key_out.data(), sum.data(), count.data(), n, cuda::std::plus<>{});
  CUDA_OK(cudaDeviceSynchronize());
  EXPECT_EQ(count.download()[0], 1);
  EXPECT_EQ(key_out.download()[0], 7);
  EXPECT_EQ(sum.download()[0], 3 * n);
}

struct run_of_1024 {
  __host__ __device__ int operator()(std::int64_t i) const { return static_cast<int>(i >> 10); }
};
struct low_31_bits {
  __host__ __device__ int operator()(std::int64_t i) const { return static_cast<int>(i & 0x7fffffff); }
};

// Runs of 1024 over 2^31 + 1001 items from iterators (int32 keys and values: the default's large
// tiles): every run's first key and value, at positions past 2^31.
TEST_F(ReduceByKey, LargeUniqueByKeyPast2To31Items) {
  const std::int64_t n = (std::int64_t{1} << 31) + 1001;
  const std::int64_t runs = (n + 1023) / 1024;
  const thrust::counting_iterator<std::int64_t> index(0);
  device_buffer<int> keys_out(runs, guard_items), values_out(runs, guard_items);
  device_buffer<std::int64_t> count(1);
  poison(keys_out);
  poison(values_out);
  upsweep::unique_by_key(thrust::make_transform_iterator(index, run_of_1024{}),
                         thrust::make_transform_iterator(index, low_31_bits{}), keys_out.data(), values_out.data(),
                         count.data(), n);
  CUDA_OK(cudaDeviceSynchronize());
  ASSERT_EQ(count.download()[0], runs);
  std::vector<int> want_keys(static_cast<std::size_t>(runs)), want_values(want_keys.size());
  for (std::int64_t j = 0; j < runs; ++j) {
    want_keys[j] = run_of_1024{}(j * 1024);
    want_values[j] = low_31_bits{}(j * 1024);
  }
  expect_output_then_poison(keys_out.download(runs + guard_items), want_keys, "run keys");
  expect_output_then_poison(values_out.download(runs + guard_items), want_values, "run values");
}

}  // namespace
}  // namespace upsweep::test
