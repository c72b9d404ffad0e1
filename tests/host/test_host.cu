// Host-only tests (no GPU): size queries are pure arithmetic, argument checks happen before any
// CUDA call, the error type names what failed, and the test references are right.
#include <upsweep/compact/device_select.cuh>
#include <upsweep/scan.hpp>
#include <upsweep/scan/device_reduce.cuh>
#include <upsweep/scan/device_scan.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/arguments.hpp>
#include <upsweep/util/temp_storage.hpp>

#include "../support/reference.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

void* fake_device_pointer() { return reinterpret_cast<void*>(std::uintptr_t{1} << 20); }

TEST(TempStorage, QueryReportsTheAlignedTotalAndNeverZero) {
  void* allocations[3] = {};
  const std::size_t sizes[3] = {1, 0, 300};
  std::size_t bytes = 0;
  ASSERT_EQ(cudaSuccess, upsweep::detail::alias_temporaries(nullptr, bytes, allocations, sizes));
  EXPECT_EQ(bytes, 256u + 0u + 512u);
  const std::size_t nothing[1] = {0};
  void* one[1] = {};
  ASSERT_EQ(cudaSuccess, upsweep::detail::alias_temporaries(nullptr, bytes, one, nothing));
  EXPECT_GT(bytes, 0u);
}

TEST(TempStorage, CarvingGivesAlignedDisjointPieces) {
  void* allocations[3] = {};
  const std::size_t sizes[3] = {10, 0, 300};
  std::size_t bytes = 768;
  ASSERT_EQ(cudaSuccess, upsweep::detail::alias_temporaries(fake_device_pointer(), bytes, allocations, sizes));
  EXPECT_EQ(allocations[0], fake_device_pointer());
  EXPECT_EQ(allocations[1], nullptr);
  EXPECT_EQ(static_cast<char*>(allocations[2]) - static_cast<char*>(allocations[0]), 256);
}

TEST(TempStorage, TooLittleStorageIsAnErrorNotACorruption) {
  void* allocations[1] = {};
  const std::size_t sizes[1] = {1000};
  std::size_t bytes = 999;
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::detail::alias_temporaries(fake_device_pointer(), bytes, allocations, sizes));
}

TEST(SizeQuery, ScanQueryNeedsNoDeviceAndNoData) {
  for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{1000000}, std::int64_t{1} << 33}) {
    std::size_t bytes = 0;
    const int* in = nullptr;
    int* out = nullptr;
    ASSERT_EQ(cudaSuccess, upsweep::inclusive_sum(nullptr, bytes, in, out, n)) << n;
    EXPECT_GT(bytes, 0u) << n;
  }
}

TEST(SizeQuery, ScanStorageGrowsWithTheTileCount) {
  std::size_t small = 0, large = 0;
  const int* in = nullptr;
  int* out = nullptr;
  ASSERT_EQ(cudaSuccess, upsweep::inclusive_sum(nullptr, small, in, out, 1 << 20));
  ASSERT_EQ(cudaSuccess, upsweep::inclusive_sum(nullptr, large, in, out, std::int64_t{1} << 32));
  EXPECT_GT(large, small);
  // One 8-byte word per tile plus the counter, rounded: far below the data size.
  EXPECT_LT(large, (std::size_t{1} << 32) / 100);
}

TEST(SizeQuery, WideValuesUseTheSplitTileLayout) {
  std::size_t narrow = 0, wide = 0;
  ASSERT_EQ(cudaSuccess, upsweep::inclusive_sum(nullptr, narrow, static_cast<const float*>(nullptr),
                                                static_cast<float*>(nullptr), 1 << 24));
  ASSERT_EQ(cudaSuccess, upsweep::inclusive_sum(nullptr, wide, static_cast<const double*>(nullptr),
                                                static_cast<double*>(nullptr), 1 << 24));
  EXPECT_GT(wide, narrow);
}

// Compaction's tile words: every status with counts at the edges of the 62 bits (and random
// ones between) decodes to itself, and no status reads as another.
TEST(CountTileState, WordsKeepStatusAndCountApart) {
  using state = upsweep::count_tile_state;
  std::mt19937_64 rng(std::random_device{}());
  const auto seed = rng();
  SCOPED_TRACE("seed " + std::to_string(seed));
  rng.seed(seed);
  std::vector<std::int64_t> counts = {0, 1, (std::int64_t{1} << 32) - 1, std::int64_t{1} << 32, state::max_count - 1,
                                      state::max_count};
  for (int i = 0; i < 1000; ++i) counts.push_back(static_cast<std::int64_t>(rng() & state::max_count));
  for (const auto status : {upsweep::tile_status::invalid, upsweep::tile_status::partial, upsweep::tile_status::inclusive})
    for (const std::int64_t count : counts) {
      const auto word = state::encode(status, count);
      ASSERT_EQ(status, state::status_of(word)) << count;
      ASSERT_EQ(count, state::count_of(word));
    }
  EXPECT_EQ(0u, state::encode(upsweep::tile_status::invalid, 0)) << "a zeroed word must read as invalid";
}

struct keep_all {
  __device__ bool operator()(int) const { return true; }
};

// Select refuses counts the 62-bit words cannot hold, at the size query already.
TEST(SizeQuery, SelectRejectsCountsPastTheTileWord) {
  std::size_t bytes = 0;
  const int* in = nullptr;
  int* out = nullptr;
  std::int64_t* count = nullptr;
  EXPECT_EQ(cudaSuccess,
            upsweep::select_if(nullptr, bytes, in, out, count, upsweep::count_tile_state::max_count, keep_all{}));
  EXPECT_EQ(cudaErrorInvalidValue,
            upsweep::select_if(nullptr, bytes, in, out, count, upsweep::count_tile_state::max_count + 1, keep_all{}));
}

TEST(SizeQuery, CompiledApiAnswersLikeTheTemplates) {
  std::size_t compiled = 0, templated = 0;
  const std::int64_t n = 12345678;
  ASSERT_EQ(cudaSuccess, upsweep::inclusive_sum(nullptr, compiled, static_cast<const std::uint32_t*>(nullptr),
                                                static_cast<std::uint32_t*>(nullptr), n));
  ASSERT_EQ(cudaSuccess, upsweep::inclusive_sum<void>(nullptr, templated, static_cast<const std::uint32_t*>(nullptr),
                                                      static_cast<std::uint32_t*>(nullptr), n));
  EXPECT_EQ(compiled, templated);
}

TEST(Arguments, NegativeCountsAreRejectedBeforeAnyCudaCall) {
  std::size_t bytes = 0;
  const int* in = nullptr;
  int* out = nullptr;
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::inclusive_sum(nullptr, bytes, in, out, -1));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::exclusive_sum(nullptr, bytes, in, out, -5));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::reduce_sum(nullptr, bytes, in, out, -1));
}

TEST(Arguments, TooSmallCallerStorageIsRejectedBeforeAnyLaunch) {
  std::size_t needed = 0;
  const int* in = nullptr;
  int* out = nullptr;
  const std::int64_t n = 1 << 24;
  ASSERT_EQ(cudaSuccess, upsweep::inclusive_sum(nullptr, needed, in, out, n));
  std::size_t given = needed - 1;
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::inclusive_sum(fake_device_pointer(), given, in, out, n));
  ASSERT_EQ(cudaSuccess, upsweep::reduce_sum(nullptr, needed, in, out, n));
  given = needed - 1;
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::reduce_sum(fake_device_pointer(), given, in, out, n));
}

// The vector and cp.async paths (reduce-ahead scan and select) are chosen by is_aligned_16: a
// mutable pointer must qualify as a const one does (it once bound to the iterators' overload).
TEST(Arguments, AlignedPointersTakeTheFastPathsConstOrNot) {
  alignas(16) static int items[8];
  int* mutable_items = items;
  const int* const_items = items;
  EXPECT_TRUE(upsweep::detail::is_aligned_16(mutable_items));
  EXPECT_TRUE(upsweep::detail::is_aligned_16(const_items));
  EXPECT_FALSE(upsweep::detail::is_aligned_16(mutable_items + 1));
  EXPECT_FALSE(upsweep::detail::is_aligned_16(const_items + 1));
  auto* as_long = reinterpret_cast<long long*>(items);
  EXPECT_TRUE(upsweep::detail::is_aligned_16(as_long));
  EXPECT_FALSE(upsweep::detail::is_aligned_16(std::vector<int>::const_iterator{}));
}

TEST(Errors, CudaErrorNamesTheCallAndTheError) {
  const upsweep::cuda_error error(cudaErrorMemoryAllocation, "cudaMallocAsync(&p, bytes, stream)", "file.cu", 12);
  const std::string text = error.what();
  EXPECT_NE(text.find("cudaMallocAsync"), std::string::npos);
  EXPECT_NE(text.find("cudaErrorMemoryAllocation"), std::string::npos);
  EXPECT_NE(text.find("file.cu:12"), std::string::npos);
  EXPECT_EQ(error.code(), cudaErrorMemoryAllocation);
}

TEST(Errors, ConvenienceLayerThrowsWithoutADevice) {
  // On a machine without a GPU the allocation fails; with one, n = -1 fails the query.
  EXPECT_THROW(upsweep::inclusive_sum(static_cast<const int*>(nullptr), static_cast<int*>(nullptr), -1),
               upsweep::cuda_error);
}

TEST(References, InclusiveScanMatchesPartialSum) {
  std::mt19937 gen(7);
  std::vector<int> in(1001);
  for (auto& x : in) x = static_cast<int>(gen() % 100) - 50;
  std::vector<int> expected(in.size());
  std::partial_sum(in.begin(), in.end(), expected.begin());
  EXPECT_EQ(upsweep::test::reference_inclusive_scan<int>(in, std::plus<int>{}), expected);
}

TEST(References, ExclusiveScanMatchesTheStandardLibrary) {
  std::mt19937 gen(11);
  std::vector<long long> in(777);
  for (auto& x : in) x = static_cast<long long>(gen());
  std::vector<long long> expected(in.size());
  std::exclusive_scan(in.begin(), in.end(), expected.begin(), 5ll);
  EXPECT_EQ(upsweep::test::reference_exclusive_scan<long long>(in, 5ll, std::plus<long long>{}), expected);
}

TEST(References, ReduceIsALeftFold) {
  const std::vector<int> in = {3, 1, 4, 1, 5};
  EXPECT_EQ(upsweep::test::reference_reduce<int>(in, 2, [](int a, int b) { return 2 * a - b; }),
            2 * (2 * (2 * (2 * (2 * 2 - 3) - 1) - 4) - 1) - 5);
}

}  // namespace
