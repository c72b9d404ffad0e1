// Host tests of the compiled API, from a g++-compiled file (no nvcc): the public headers of every
// component compile together as plain C++; the fixed predicates of compaction; size queries and
// argument checks, which make no CUDA call and so run without a GPU.
#include <upsweep/compact.hpp>
#include <upsweep/group_by.hpp>
#include <upsweep/histogram.hpp>
#include <upsweep/scan.hpp>
#include <upsweep/segmented_sort.hpp>
#include <upsweep/sort.hpp>
#include <upsweep/top_k.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

namespace {

using upsweep::predicate;

TEST(CompiledApiPredicates, CompareExactlyInTheElementType) {
  const std::int64_t big = (std::int64_t{1} << 53) + 1;  // not a double
  EXPECT_TRUE(predicate<std::int64_t>::greater(big)(big + 1));
  EXPECT_FALSE(predicate<std::int64_t>::greater(big)(big));
  EXPECT_TRUE(predicate<std::int64_t>::equal(big)(big));
  EXPECT_FALSE(predicate<std::int64_t>::equal(big)(big - 1));
  EXPECT_TRUE(predicate<std::uint8_t>::less_equal(200)(200));
  EXPECT_FALSE(predicate<std::uint8_t>::less(200)(255));
  EXPECT_TRUE(predicate<std::int8_t>::greater_equal(-128)(-128));
  EXPECT_TRUE(predicate<std::uint64_t>::not_equal(0)(std::numeric_limits<std::uint64_t>::max()));
}

TEST(CompiledApiPredicates, InRangeIsHalfOpen) {
  const auto p = predicate<std::int32_t>::in_range(-5, 5);
  EXPECT_TRUE(p(-5));
  EXPECT_TRUE(p(4));
  EXPECT_FALSE(p(5));
  EXPECT_FALSE(p(-6));
  EXPECT_FALSE(predicate<double>::in_range(0.0, 1.0)(std::numeric_limits<double>::quiet_NaN()));
}

TEST(CompiledApiPredicates, FloatsFollowCxxForNanAndSignedZeros) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(predicate<float>::less(1.0f)(nan));
  EXPECT_FALSE(predicate<float>::greater_equal(1.0f)(nan));
  EXPECT_FALSE(predicate<float>::equal(nan)(nan));
  EXPECT_TRUE(predicate<float>::not_equal(1.0f)(nan));
  EXPECT_TRUE(predicate<float>::nonzero()(nan));
  EXPECT_FALSE(predicate<float>::nonzero()(-0.0f));
  EXPECT_TRUE(predicate<float>::equal(0.0f)(-0.0f));
  EXPECT_FALSE(predicate<float>::finite()(nan));
  EXPECT_FALSE(predicate<float>::finite()(-inf));
  EXPECT_TRUE(predicate<float>::finite()(std::numeric_limits<float>::max()));
  EXPECT_TRUE(predicate<std::int32_t>::finite()(std::numeric_limits<std::int32_t>::min()));
}

TEST(CompiledApiPredicates, EvenAndOddOfIntegersAndOfFloatsHoldingIntegers) {
  EXPECT_TRUE(predicate<std::int32_t>::odd()(-3));
  EXPECT_TRUE(predicate<std::int32_t>::even()(0));
  EXPECT_TRUE(predicate<std::uint64_t>::odd()(std::numeric_limits<std::uint64_t>::max()));
  EXPECT_TRUE(predicate<double>::even()(2.0));
  EXPECT_TRUE(predicate<double>::odd()(-3.0));
  EXPECT_FALSE(predicate<double>::even()(2.5));
  EXPECT_FALSE(predicate<double>::odd()(2.5));
  EXPECT_FALSE(predicate<float>::even()(std::numeric_limits<float>::infinity()));
  EXPECT_TRUE(predicate<double>::even()(1e300));  // from 2^53 on every double is even
  EXPECT_TRUE(predicate<float>::even()(16777218.0f));
}

TEST(CompiledApiPredicates, NegationFlipsEveryKind) {
  const predicate<float> all[] = {predicate<float>::less(1), predicate<float>::greater(1), predicate<float>::even(),
                                  predicate<float>::finite(), predicate<float>::nonzero(),
                                  predicate<float>::in_range(-1, 1)};
  const float items[] = {0.0f, -0.0f, 1.0f, 2.0f, 0.5f, std::numeric_limits<float>::quiet_NaN(),
                         std::numeric_limits<float>::infinity()};
  for (const auto& p : all) {
    for (float x : items) EXPECT_NE(p(x), (!p)(x)) << "kind " << static_cast<int>(p.kind) << " item " << x;
    EXPECT_EQ((!!p)(2.0f), p(2.0f));
  }
}

// A size query (null temporary storage) touches no pointer and makes no CUDA call.
TEST(CompiledApiSizeQueries, WriteANonzeroSizeWithoutAGpu) {
  const std::int64_t n = 1'000'003;
  std::size_t bytes = 0;
  EXPECT_EQ(upsweep::sort_keys(nullptr, bytes, static_cast<const std::uint32_t*>(nullptr), nullptr, n), cudaSuccess);
  EXPECT_GE(bytes, n * sizeof(std::uint32_t));  // the alternate key buffer
  bytes = 0;
  EXPECT_EQ(upsweep::sort_pairs_descending(nullptr, bytes, static_cast<const double*>(nullptr), nullptr,
                                           static_cast<const float*>(nullptr), nullptr, n),
            cudaSuccess);
  EXPECT_GE(bytes, n * (sizeof(double) + sizeof(float)));
  bytes = 0;
  EXPECT_EQ(upsweep::argsort(nullptr, bytes, static_cast<const float*>(nullptr),
                             static_cast<std::uint32_t*>(nullptr), n),
            cudaSuccess);
  EXPECT_GE(bytes, 2 * n * (sizeof(float) + sizeof(std::uint32_t)));
  bytes = 0;
  EXPECT_EQ(upsweep::select_if(nullptr, bytes, static_cast<const std::int16_t*>(nullptr), nullptr, nullptr, n,
                               predicate<std::int16_t>::odd()),
            cudaSuccess);
  EXPECT_GT(bytes, 0u);
  bytes = 0;
  EXPECT_EQ(upsweep::run_length_encode(nullptr, bytes, static_cast<const std::uint64_t*>(nullptr), nullptr, nullptr,
                                       nullptr, n),
            cudaSuccess);
  EXPECT_GT(bytes, 0u);  // one pass: the tile state only, far below the items' bytes
  EXPECT_LT(bytes, n * sizeof(std::uint64_t));
  bytes = 0;
  EXPECT_EQ(upsweep::unique(nullptr, bytes, static_cast<const float*>(nullptr), nullptr, nullptr, 0), cudaSuccess);
  EXPECT_GT(bytes, 0u);  // never 0, so a null pointer always means "query"
  bytes = 0;
  EXPECT_EQ(upsweep::histogram_even(nullptr, bytes, static_cast<const std::int8_t*>(nullptr), n,
                                    static_cast<std::uint32_t*>(nullptr), 256, -128, 128),
            cudaSuccess);
  EXPECT_GT(bytes, 0u);
  bytes = 0;
  EXPECT_EQ(upsweep::inclusive_sum(nullptr, bytes, static_cast<const std::int64_t*>(nullptr), nullptr, n),
            cudaSuccess);
  EXPECT_GT(bytes, 0u);
}

TEST(CompiledApiSizeQueries, RefuseInvalidArgumentsBeforeAnyCudaCall) {
  std::size_t bytes = 0;
  const auto* keys = static_cast<const std::uint32_t*>(nullptr);
  EXPECT_EQ(upsweep::sort_keys(nullptr, bytes, keys, nullptr, 10, 0, 33), cudaErrorInvalidValue);
  EXPECT_EQ(upsweep::sort_keys(nullptr, bytes, keys, nullptr, 10, 9, 8), cudaErrorInvalidValue);
  EXPECT_EQ(upsweep::sort_keys(nullptr, bytes, keys, nullptr, -1), cudaErrorInvalidValue);
  // 32-bit indices cannot number more than 2^32 keys; 64-bit ones can.
  const std::int64_t past_u32 = (std::int64_t{1} << 32) + 1;
  EXPECT_EQ(upsweep::argsort(nullptr, bytes, keys, static_cast<std::uint32_t*>(nullptr), past_u32),
            cudaErrorInvalidValue);
  EXPECT_EQ(upsweep::argsort(nullptr, bytes, keys, static_cast<std::uint64_t*>(nullptr), past_u32), cudaSuccess);
  EXPECT_EQ(upsweep::argsort_descending(nullptr, bytes, keys, static_cast<std::uint64_t*>(nullptr), 10, 0, 40),
            cudaErrorInvalidValue);
  EXPECT_EQ(upsweep::select_if(nullptr, bytes, keys, nullptr, nullptr, -1, predicate<std::uint32_t>::nonzero()),
            cudaErrorInvalidValue);
  EXPECT_EQ(upsweep::run_length_encode(nullptr, bytes, keys, nullptr, nullptr, nullptr, -1), cudaErrorInvalidValue);
  EXPECT_EQ(upsweep::histogram_even(nullptr, bytes, keys, 10, static_cast<std::uint64_t*>(nullptr), 0, 0, 10),
            cudaErrorInvalidValue);
  EXPECT_EQ(upsweep::histogram_even(nullptr, bytes, static_cast<const float*>(nullptr), 10,
                                    static_cast<std::uint32_t*>(nullptr), 4, 1.0f, 1.0f),
            cudaErrorInvalidValue);
}

// The convenience layer's size query fails first, so it throws before any CUDA call.
TEST(CompiledApiSizeQueries, GroupByAndThreeWaySizesAndRefusalsNeedNoGpu) {
  const std::int64_t n = 1'000'003;
  const auto* keys = static_cast<const std::int64_t*>(nullptr);
  const auto* values = static_cast<const float*>(nullptr);
  std::size_t bytes = 0;
  EXPECT_EQ(upsweep::reduce_by_key(nullptr, bytes, keys, values, nullptr, nullptr, nullptr, n, upsweep::reduction::max),
            cudaSuccess);
  EXPECT_GT(bytes, 0u);
  bytes = 0;
  EXPECT_EQ(upsweep::inclusive_sum_by_key(nullptr, bytes, keys, values, nullptr, n), cudaSuccess);
  EXPECT_GT(bytes, 0u);
  bytes = 0;
  EXPECT_EQ(upsweep::partition_three_way(nullptr, bytes, static_cast<const double*>(nullptr), nullptr, nullptr, nullptr,
                                         nullptr, n, predicate<double>::finite(), predicate<double>::nonzero()),
            cudaSuccess);
  EXPECT_GT(bytes, 0u);
  EXPECT_EQ(upsweep::unique_by_key(nullptr, bytes, keys, values, nullptr, nullptr, nullptr, -1), cudaErrorInvalidValue);
  EXPECT_EQ(upsweep::exclusive_sum_by_key(nullptr, bytes, keys, values, nullptr, -1), cudaErrorInvalidValue);
  EXPECT_EQ(upsweep::non_trivial_runs(nullptr, bytes, static_cast<const std::uint8_t*>(nullptr), nullptr, nullptr,
                                      nullptr, -1),
            cudaErrorInvalidValue);
}

TEST(CompiledApiSizeQueries, TopKSizesAndRefusalsNeedNoGpu) {
  const std::int64_t n = (std::int64_t{1} << 28) + 3;
  std::size_t bytes = 0;
  EXPECT_EQ(upsweep::top_k_keys(nullptr, bytes, static_cast<const float*>(nullptr), nullptr, n, 1024), cudaSuccess);
  EXPECT_GT(bytes, 0u);
  const std::size_t sorted_bytes = bytes;
  EXPECT_EQ(upsweep::top_k_keys(nullptr, bytes, static_cast<const float*>(nullptr), nullptr, n, 1024,
                                upsweep::top_k_select::largest, upsweep::top_k_output::unsorted),
            cudaSuccess);
  EXPECT_LT(bytes, sorted_bytes) << "a sorted result also holds the sort of its k winners";
  EXPECT_EQ(upsweep::top_k_with_indices(nullptr, bytes, static_cast<const __nv_bfloat16*>(nullptr), nullptr, nullptr,
                                        n, n),
            cudaSuccess);
  EXPECT_EQ(upsweep::top_k_rows_with_indices(nullptr, bytes, static_cast<const __half*>(nullptr), nullptr, nullptr, 64,
                                             131072, 50),
            cudaSuccess);
  EXPECT_GT(bytes, 0u);
  EXPECT_EQ(upsweep::top_k_keys(nullptr, bytes, static_cast<const double*>(nullptr), nullptr, 10, 11),
            cudaErrorInvalidValue);
  EXPECT_EQ(upsweep::top_k_with_indices(nullptr, bytes, static_cast<const std::int32_t*>(nullptr), nullptr, nullptr, -1,
                                        0),
            cudaErrorInvalidValue);
  EXPECT_EQ(upsweep::top_k_rows_with_indices(nullptr, bytes, static_cast<const float*>(nullptr), nullptr, nullptr, 4,
                                             4096, 1025),
            cudaErrorInvalidValue)
      << "sorted rows take k <= 1024";
  EXPECT_EQ(upsweep::top_k_rows_with_indices(nullptr, bytes, static_cast<const float*>(nullptr), nullptr, nullptr, 4,
                                             4096, 1025, upsweep::top_k_select::largest,
                                             upsweep::top_k_output::unsorted),
            cudaSuccess);
}

TEST(CompiledApiConvenience, ThrowsCudaErrorNamingTheCall) {
  const auto expect_throw = [](auto&& call, const char* name) {
    try {
      call();
      ADD_FAILURE() << name << " did not throw";
    } catch (const upsweep::cuda_error& e) {
      EXPECT_EQ(e.code(), cudaErrorInvalidValue) << name;
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  };
  const auto* keys = static_cast<const std::uint32_t*>(nullptr);
  expect_throw([&] { upsweep::sort_keys(keys, nullptr, 10, 0, 40); }, "upsweep::sort_keys");
  expect_throw([&] { upsweep::argsort(keys, static_cast<std::uint32_t*>(nullptr), -1); }, "upsweep::argsort");
  expect_throw([&] { upsweep::select_if(keys, nullptr, nullptr, -1, predicate<std::uint32_t>::odd()); },
               "upsweep::select_if");
  expect_throw([&] { upsweep::run_length_encode(keys, nullptr, nullptr, nullptr, -1); },
               "upsweep::run_length_encode");
  expect_throw([&] { upsweep::histogram_even(keys, 10, static_cast<std::uint32_t*>(nullptr), 0, 0, 10); },
               "upsweep::histogram_even");
}

}  // namespace

TEST(CompiledApiSizeQueries, SegmentedSortSizesAndRefusalsNeedNoGpu) {
  const std::int64_t n = (std::int64_t{1} << 31) + 5, segments = 1000000;
  const std::int64_t* no_offsets = nullptr;
  std::size_t keys_bytes = 0, pairs_bytes = 0, rows_bytes = 0;
  EXPECT_EQ(upsweep::segmented_sort_keys(nullptr, keys_bytes, static_cast<const float*>(nullptr), nullptr, n, segments,
                                         no_offsets, no_offsets, upsweep::sort_order::ascending),
            cudaSuccess);
  EXPECT_GE(keys_bytes, static_cast<std::size_t>(n) * sizeof(float)) << "an alternate buffer of the keys";
  EXPECT_EQ(upsweep::segmented_sort_pairs(nullptr, pairs_bytes, static_cast<const std::uint64_t*>(nullptr), nullptr,
                                          static_cast<const double*>(nullptr), nullptr, n, segments, no_offsets,
                                          no_offsets, upsweep::sort_order::descending),
            cudaSuccess);
  EXPECT_GE(pairs_bytes, static_cast<std::size_t>(n) * 16) << "alternate buffers of keys and values";
  EXPECT_EQ(upsweep::sort_rows_keys(nullptr, rows_bytes, static_cast<const __nv_bfloat16*>(nullptr), nullptr,
                                    std::int64_t{1} << 20, 32),
            cudaSuccess);
  EXPECT_GT(rows_bytes, 0u);
  EXPECT_EQ(upsweep::segmented_sort_keys(nullptr, keys_bytes, static_cast<const float*>(nullptr), nullptr, -1, 1,
                                         no_offsets, no_offsets, upsweep::sort_order::ascending),
            cudaErrorInvalidValue);
  EXPECT_EQ(upsweep::segmented_sort_keys(nullptr, keys_bytes, static_cast<const float*>(nullptr), nullptr, 10,
                                         std::int64_t{1} << 31, no_offsets, no_offsets,
                                         upsweep::sort_order::ascending),
            cudaErrorInvalidValue)
      << "at most 2^31 - 1 segments";
  EXPECT_EQ(upsweep::sort_rows_pairs(nullptr, rows_bytes, static_cast<const std::int32_t*>(nullptr), nullptr,
                                     static_cast<const std::int64_t*>(nullptr), nullptr, 4, -1),
            cudaErrorInvalidValue);
}
