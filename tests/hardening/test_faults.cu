// Hardening on a GPU (issue 9): bad arguments through the convenience layer (which allocates
// before its second check, so it needs a device), failed allocations, too-small or misaligned
// temporary storage, misaligned data (works, just slower), unsorted bin edges. After each fault
// the context must stay clean and the next call must succeed. Compiled API only.
#include <upsweep/compact.hpp>
#include <upsweep/histogram.hpp>
#include <upsweep/scan.hpp>
#include <upsweep/sort.hpp>

#include "tests/support/device_buffer.hpp"
#include "tests/support/gpu_test.hpp"
#include "tests/support/seed.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

namespace {

using upsweep::predicate;
using upsweep::test::device_buffer;

template <class F>
cudaError_t thrown_code(F&& f) {
  try {
    f();
  } catch (const upsweep::cuda_error& e) {
    return e.code();
  }
  return cudaSuccess;
}

class Faults : public upsweep::test::gpu_test {
 protected:
  std::uint64_t seed = upsweep::test::fresh_seed();
  std::mt19937_64 rng{seed};
  std::int64_t n = upsweep::test::max_test_items(100'003);

  std::vector<std::uint32_t> random_u32(std::int64_t count) {
    std::vector<std::uint32_t> v(static_cast<std::size_t>(count));
    for (auto& x : v) x = static_cast<std::uint32_t>(rng());
    return v;
  }
  // A fault must leave the device usable and no error behind. The next call comes first, before
  // anything clears the runtime's last error: a failed runtime call (cudaMallocAsync) records its
  // error, and a library call that checks its launches with cudaGetLastError would otherwise
  // report that stale error as its own.
  void expect_context_clean_and_usable() {
    const std::vector<std::uint32_t> keys = random_u32(1000);
    device_buffer<std::uint32_t> d_keys(keys), d_sorted(1000);
    EXPECT_EQ(thrown_code([&] { upsweep::sort_keys(d_keys.data(), d_sorted.data(), 1000); }), cudaSuccess)
        << "the next call after the fault";
    std::vector<std::uint32_t> expected = keys;
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(d_sorted.download(), expected) << "the next call after the fault";
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  }
};

TEST_F(Faults, ConvenienceCallsWithNullPointersThrowInvalidValueAndLeaveTheContextClean) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  device_buffer<std::uint32_t> d_a(n), d_b(n);
  device_buffer<std::int64_t> d_count(1);
  const auto* null_u32 = static_cast<const std::uint32_t*>(nullptr);
  EXPECT_EQ(thrown_code([&] { upsweep::sort_keys(null_u32, d_b.data(), n); }), cudaErrorInvalidValue);
  EXPECT_EQ(thrown_code([&] { upsweep::sort_keys(d_a.data(), static_cast<std::uint32_t*>(nullptr), n); }),
            cudaErrorInvalidValue);
  EXPECT_EQ(thrown_code([&] { upsweep::sort_keys(d_a.data(), d_a.data() + 1, n - 1); }), cudaErrorInvalidValue)
      << "overlapping by all but one item";
  EXPECT_EQ(thrown_code([&] { upsweep::inclusive_sum(null_u32, d_b.data(), n); }), cudaErrorInvalidValue);
  EXPECT_EQ(thrown_code([&] { upsweep::reduce_sum(d_a.data(), static_cast<std::uint32_t*>(nullptr), n); }),
            cudaErrorInvalidValue);
  EXPECT_EQ(thrown_code([&] { upsweep::select_if(d_a.data(), static_cast<std::uint32_t*>(nullptr), d_count.data(), n,
                                                  predicate<std::uint32_t>::odd()); }),
            cudaErrorInvalidValue);
  EXPECT_EQ(thrown_code([&] { upsweep::stable_partition(d_a.data(), d_a.data(), n, predicate<std::uint32_t>::odd()); }),
            cudaErrorInvalidValue)
      << "partition in place";
  EXPECT_EQ(thrown_code([&] { upsweep::histogram_even(null_u32, n, d_b.data(), 16,
                                                       0LL, 1LL << 32); }),
            cudaErrorInvalidValue);
  expect_context_clean_and_usable();
}

TEST_F(Faults, AnAllocationLargerThanTheGpuThrowsAndTheNextCallSucceeds) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_OK(cudaMemGetInfo(&free_bytes, &total_bytes));
  // Keys whose alternate buffer alone is twice the GPU: the temporary allocation must fail. The
  // pointers are never read, since the allocation comes first.
  const std::int64_t too_many = static_cast<std::int64_t>(2 * total_bytes / sizeof(std::uint64_t));
  device_buffer<std::uint64_t> d_small(16);
  const cudaError_t code = thrown_code([&] { upsweep::sort_keys(d_small.data(), d_small.data(), too_many); });
  EXPECT_EQ(code, cudaErrorMemoryAllocation) << cudaGetErrorName(code);
  std::size_t free_after = 0;
  CUDA_OK(cudaDeviceSynchronize());
  CUDA_OK(cudaMemGetInfo(&free_after, &total_bytes));
  EXPECT_GE(free_after + (64u << 20), free_bytes) << "nothing leaked beyond the pool's slack";
  expect_context_clean_and_usable();
}

TEST_F(Faults, TooSmallTemporaryStorageIsAnErrorAndWritesNothing) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  const std::vector<std::uint32_t> keys = random_u32(n);
  device_buffer<std::uint32_t> d_keys(keys), d_out(n);
  device_buffer<std::int64_t> d_count(1);
  CUDA_OK(cudaMemset(d_out.data(), 0xab, n * sizeof(std::uint32_t)));
  CUDA_OK(cudaMemset(d_count.data(), 0xab, sizeof(std::int64_t)));
  const auto poisoned = d_out.download();
  std::size_t bytes = 0;
  CUDA_OK(upsweep::sort_keys(nullptr, bytes, d_keys.data(), d_out.data(), n));
  device_buffer<unsigned char> d_temp(static_cast<std::int64_t>(bytes));
  std::size_t short_bytes = bytes - 1;
  EXPECT_EQ(upsweep::sort_keys(d_temp.data(), short_bytes, d_keys.data(), d_out.data(), n), cudaErrorInvalidValue);
  std::size_t scan_bytes = 0;
  CUDA_OK(upsweep::inclusive_sum(nullptr, scan_bytes, d_keys.data(), d_out.data(), n));
  scan_bytes -= 1;
  EXPECT_EQ(upsweep::inclusive_sum(d_temp.data(), scan_bytes, d_keys.data(), d_out.data(), n), cudaErrorInvalidValue);
  std::size_t select_bytes = 0;
  CUDA_OK(upsweep::select_if(nullptr, select_bytes, d_keys.data(), d_out.data(), d_count.data(), n,
                             predicate<std::uint32_t>::odd()));
  select_bytes /= 2;
  EXPECT_EQ(upsweep::select_if(d_temp.data(), select_bytes, d_keys.data(), d_out.data(), d_count.data(), n,
                               predicate<std::uint32_t>::odd()),
            cudaErrorInvalidValue);
  std::size_t enough = bytes;
  EXPECT_EQ(upsweep::sort_keys(d_temp.data() + 8, enough, d_keys.data(), d_out.data(), n), cudaErrorMisalignedAddress);
  CUDA_OK(cudaDeviceSynchronize());
  EXPECT_EQ(d_out.download(), poisoned) << "a refused call writes nothing";
  EXPECT_EQ(d_count.download()[0], static_cast<std::int64_t>(0xabababababababab));
  expect_context_clean_and_usable();
}

TEST_F(Faults, MisalignedDataGivesTheSameResults) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  const std::vector<std::uint32_t> keys = random_u32(n + 3);
  device_buffer<std::uint32_t> d_keys(keys), d_out(n + 3), d_values(n + 3), d_values_out(n + 3);
  device_buffer<std::int64_t> d_count(1);
  for (int offset = 1; offset <= 3; ++offset) {
    SCOPED_TRACE("offset " + std::to_string(offset) + " items");
    const std::vector<std::uint32_t> in(keys.begin() + offset, keys.begin() + offset + n);
    // scan
    upsweep::inclusive_sum(d_keys.data() + offset, d_out.data() + offset, n);
    std::vector<std::uint32_t> expected(in.size());
    std::partial_sum(in.begin(), in.end(), expected.begin());
    EXPECT_EQ(d_out.download(n, offset), expected) << "inclusive_sum";
    // sort pairs
    upsweep::sort_pairs(d_keys.data() + offset, d_out.data() + offset, d_keys.data() + offset,
                        d_values_out.data() + offset, n);
    expected = in;
    std::stable_sort(expected.begin(), expected.end());
    EXPECT_EQ(d_out.download(n, offset), expected) << "sort_pairs keys";
    EXPECT_EQ(d_values_out.download(n, offset), expected) << "sort_pairs values (the keys themselves)";
    // select
    const std::int64_t kept = upsweep::select_if(d_keys.data() + offset, d_out.data() + offset, n,
                                                 predicate<std::uint32_t>::odd());
    expected.clear();
    std::copy_if(in.begin(), in.end(), std::back_inserter(expected), [](std::uint32_t x) { return x & 1; });
    ASSERT_EQ(kept, static_cast<std::int64_t>(expected.size()));
    EXPECT_EQ(d_out.download(kept, offset), expected) << "select_if";
    // histogram of the top 4 bits
    device_buffer<std::uint32_t> d_counts(16 + 1);
    upsweep::histogram_even(d_keys.data() + offset, n, d_counts.data() + 1, 16, 0LL, 1LL << 32);
    std::vector<std::uint32_t> bins(16, 0);
    for (std::uint32_t x : in) ++bins[x >> 28];
    EXPECT_EQ(d_counts.download(16, 1), bins) << "histogram_even";
  }
}

TEST_F(Faults, UnsortedEdgesStayInsideTheirCounters) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  const std::vector<std::uint32_t> keys = random_u32(n);
  device_buffer<std::uint32_t> d_keys(keys);
  const std::vector<long long> edges = {0, 1LL << 31, 1LL << 20, 1LL << 30, 1LL << 32, 5, 1LL << 32};  // not sorted
  device_buffer<long long> d_edges(edges);
  const int num_bins = static_cast<int>(edges.size()) - 1;
  device_buffer<std::uint32_t> d_counts(num_bins, 64);
  CUDA_OK(cudaMemset(d_counts.data(), 0xab, (num_bins + 64) * sizeof(std::uint32_t)));
  upsweep::histogram_range(d_keys.data(), n, d_counts.data(), d_edges.data(), num_bins);
  CUDA_OK(cudaDeviceSynchronize());
  const auto counts = d_counts.download(num_bins + 64);
  std::uint64_t total = 0;
  for (int b = 0; b < num_bins; ++b) total += counts[b];
  EXPECT_LE(total, static_cast<std::uint64_t>(n)) << "each sample in at most one bin";
  for (int b = num_bins; b < num_bins + 64; ++b) EXPECT_EQ(counts[b], 0xababababu) << "past the counters, index " << b;
  expect_context_clean_and_usable();
}

TEST_F(Faults, AnEmptyBitWindowCopiesTheInput) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  const std::vector<std::uint32_t> keys = random_u32(n);
  device_buffer<std::uint32_t> d_keys(keys), d_out(n);
  upsweep::sort_keys(d_keys.data(), d_out.data(), n, 7, 7);
  EXPECT_EQ(d_out.download(), keys);
}


// ---- a sticky error from elsewhere ----------------------------------------------------------
// A kernel fault anywhere in the program (here a trap) breaks the context for good: every later
// CUDA call fails. Upsweep must report that error, not return success, hang or crash. The
// context cannot be repaired, so the test runs in a child process (a death test, re-executed),
// and the sanitizer runs leave it out (the trap is the point).

__global__ void trap_kernel() { __trap(); }

// Exit code: 0 when every call reported the sticky error, else which one did not.
[[noreturn]] void call_everything_after_a_sticky_error() {
  constexpr std::int64_t count = 100'003;
  std::uint32_t *d_in = nullptr, *d_out = nullptr, *d_counts = nullptr;
  void* d_temp = nullptr;
  std::size_t temp_bytes = 0;
  if (cudaMalloc(&d_in, count * sizeof(std::uint32_t)) != cudaSuccess ||
      cudaMalloc(&d_out, count * sizeof(std::uint32_t)) != cudaSuccess ||
      cudaMalloc(&d_counts, 256 * sizeof(std::uint32_t)) != cudaSuccess ||
      upsweep::inclusive_sum(nullptr, temp_bytes, d_in, d_out, count) != cudaSuccess ||
      cudaMalloc(&d_temp, temp_bytes) != cudaSuccess || cudaMemset(d_in, 1, count * sizeof(std::uint32_t)) != cudaSuccess)
    std::_Exit(20);
  trap_kernel<<<1, 1>>>();
  const cudaError_t sticky = cudaDeviceSynchronize();
  if (sticky == cudaSuccess) std::_Exit(21);
  // The core layer returns it; the convenience layer throws it.
  if (upsweep::inclusive_sum(d_temp, temp_bytes, d_in, d_out, count) == cudaSuccess) std::_Exit(1);
  if (thrown_code([&] { upsweep::inclusive_sum(d_in, d_out, count); }) == cudaSuccess) std::_Exit(2);
  if (thrown_code([&] { upsweep::sort_keys(d_in, d_out, count); }) == cudaSuccess) std::_Exit(3);
  if (thrown_code([&] { upsweep::select_if(d_in, d_out, count, predicate<std::uint32_t>::less(7u)); }) == cudaSuccess)
    std::_Exit(4);
  if (thrown_code([&] { upsweep::histogram_even(d_in, count, d_counts, 256, 0u, 256u); }) == cudaSuccess)
    std::_Exit(5);
  std::_Exit(0);
}

TEST(StickyError, EveryLayerReportsAStickyErrorFromAnotherKernel) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) GTEST_SKIP() << "no CUDA device";
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // a fresh process: no CUDA state forked
  EXPECT_EXIT(call_everything_after_a_sticky_error(), ::testing::ExitedWithCode(0), "")
      << "exit 1: core scan returned success; 2-5: convenience scan, sort, select, histogram did not throw";
}

}  // namespace
