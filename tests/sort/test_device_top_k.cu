// Device-wide top-k against the first k items of a stable host sort (descending for the largest):
// every key type of the radix sort, keys only and pairs, sorted and unsorted results, k from 0 to
// n, on fresh random keys of several shapes (ties, one value, NaNs and infinities from random
// bits, signed zeros). Outputs are poisoned first; keys are compared bitwise.
#include "radix_sort_cases.cuh"
#include "../support/graph_replay.hpp"

#include <upsweep/sort/device_top_k.cuh>

#include <thrust/iterator/counting_iterator.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace upsweep::test;
using upsweep::top_k_output;
using upsweep::top_k_select;

template <class Key>
bool same_bits(const Key& a, const Key& b) {
  return std::memcmp(&a, &b, sizeof(Key)) == 0;
}

std::string case_name(std::int64_t n, std::int64_t k, distribution d, top_k_select which, top_k_output output) {
  return "n " + std::to_string(n) + ", k " + std::to_string(k) + ", " + name_of(d) +
         (which == top_k_select::largest ? ", largest" : ", smallest") +
         (output == top_k_output::sorted ? ", sorted" : ", unsorted");
}

// The k asked of an n-item input: both ends, around a warp and a tile, and the middle.
std::vector<std::int64_t> ks_for(std::int64_t n) {
  std::vector<std::int64_t> ks;
  for (std::int64_t k : {std::int64_t{0}, std::int64_t{1}, std::int64_t{2}, std::int64_t{33}, std::int64_t{1023},
                         std::int64_t{1024}, n / 2, n - 1, n})
    if (k >= 0 && k <= n && std::find(ks.begin(), ks.end(), k) == ks.end()) ks.push_back(k);
  return ks;
}

// Runs top_k_pairs with the input positions as values (a counting iterator) and checks keys and
// positions against `order` (the stable host order for `which`).
template <class Key>
void check_top_k(const std::vector<Key>& host, const device_buffer<Key>& keys, const std::vector<index_t>& order,
                 std::int64_t k, top_k_select which, top_k_output output) {
  const auto n = static_cast<std::int64_t>(host.size());
  device_buffer<Key> keys_out(k + 1);
  device_buffer<index_t> positions_out(k + 1);
  CUDA_OK(cudaMemset(keys_out.data(), 0xA5, static_cast<std::size_t>(k + 1) * sizeof(Key)));
  CUDA_OK(cudaMemset(positions_out.data(), 0xA5, static_cast<std::size_t>(k + 1) * sizeof(index_t)));
  upsweep::top_k_pairs(keys.data(), keys_out.data(), thrust::counting_iterator<index_t>(0), positions_out.data(), n,
                       k, which, output);
  CUDA_OK(cudaDeviceSynchronize());
  const std::vector<Key> got_keys = keys_out.download();
  std::vector<index_t> got = positions_out.download();
  index_t guard;
  std::memset(&guard, 0xA5, sizeof(guard));
  ASSERT_EQ(got[static_cast<std::size_t>(k)], guard) << "written past k";
  for (std::int64_t i = 0; i < k; ++i) {
    const index_t at = got[static_cast<std::size_t>(i)];
    ASSERT_LT(at, static_cast<index_t>(n)) << "position " << i;
    ASSERT_TRUE(same_bits(got_keys[static_cast<std::size_t>(i)], host[at])) << "key " << i << " is not its input's";
  }
  std::vector<index_t> expected(order.begin(), order.begin() + k);
  got.resize(static_cast<std::size_t>(k));
  if (output == top_k_output::unsorted) {
    std::sort(expected.begin(), expected.end());
    std::sort(got.begin(), got.end());
  }
  for (std::int64_t i = 0; i < k; ++i)
    ASSERT_EQ(got[static_cast<std::size_t>(i)], expected[static_cast<std::size_t>(i)]) << "item " << i;
}

struct wide {  // a 16-byte value
  std::uint64_t lo, hi;
};

template <class Key>
class TopK : public gpu_test {};

using top_k_key_types = ::testing::Types<std::uint8_t, std::uint16_t, std::int32_t, std::uint32_t, float, double,
                                         std::int64_t, std::uint64_t, __half, __nv_bfloat16>;
TYPED_TEST_SUITE(TopK, top_k_key_types);

TYPED_TEST(TopK, MatchesTheFirstKOfAStableSortForEveryKAndShape) {
  using Key = TypeParam;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const distribution shapes[] = {distribution::uniform,   distribution::all_equal,      distribution::two_values,
                                 distribution::sixteen_values, distribution::reversed, distribution::low_bits};
  for (std::int64_t wanted : {0, 1, 31, 32, 33, 4095, 4097, 65537, 300001}) {
    const std::int64_t n = max_test_items(wanted);
    for (distribution d : shapes) {
      if (sparse_tests() && !takes_its_own_path(d)) continue;
      const std::vector<Key> host = make_keys<Key>(n, d, seed + static_cast<std::uint64_t>(n));
      const device_buffer<Key> keys(host);
      for (top_k_select which : {top_k_select::largest, top_k_select::smallest}) {
        const std::vector<index_t> order = reference_order(host, which == top_k_select::largest, 0, upsweep::key_bits_v<Key>);
        for (std::int64_t k : ks_for(n)) {
          for (top_k_output output : {top_k_output::sorted, top_k_output::unsorted}) {
            SCOPED_TRACE(case_name(n, k, d, which, output));
            check_top_k(host, keys, order, k, which, output);
            if (::testing::Test::HasFatalFailure()) return;
          }
        }
      }
    }
  }
}

// Signed zeros compare equal: the lowest positions win, each written with its own sign.
TEST(TopKFloat, SignedZerosAreTiesWonByTheLowestPositions) {
  if (const std::string reason = gpu_unavailable_reason(); !reason.empty()) GTEST_SKIP() << reason;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = max_test_items(70001);
  std::vector<float> host(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) host[static_cast<std::size_t>(i)] = (mix64(seed ^ mix64(i)) & 1) ? -0.0f : 0.0f;
  const device_buffer<float> keys(host);
  for (top_k_select which : {top_k_select::largest, top_k_select::smallest}) {
    const std::vector<index_t> order = reference_order(host, which == top_k_select::largest, 0, 32);
    for (std::int64_t k : {std::int64_t{1}, std::int64_t{777}, n}) {
      SCOPED_TRACE(case_name(n, k, distribution::two_values, which, top_k_output::sorted));
      check_top_k(host, keys, order, k, which, top_k_output::sorted);
      if (HasFatalFailure()) return;
    }
  }
}

// Keys only, through the core layer with its size query; values of 16 bytes through top_k_pairs.
TEST(TopKApi, KeysOnlyAndWideValuesAgreeWithThePairsPositions) {
  if (const std::string reason = gpu_unavailable_reason(); !reason.empty()) GTEST_SKIP() << reason;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = max_test_items(123457), k = std::min<std::int64_t>(n, 5000);
  const std::vector<float> host = make_keys<float>(n, distribution::sixteen_values, seed);
  const device_buffer<float> keys(host);
  const std::vector<index_t> order = reference_order(host, true, 0, 32);
  device_buffer<float> out(k);
  std::size_t bytes = 0;
  CUDA_OK(upsweep::top_k_keys(nullptr, bytes, keys.data(), out.data(), n, k));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  CUDA_OK(upsweep::top_k_keys(temp.data(), bytes, keys.data(), out.data(), n, k));
  CUDA_OK(cudaDeviceSynchronize());
  const std::vector<float> got = out.download();
  for (std::int64_t i = 0; i < k; ++i)
    ASSERT_TRUE(same_bits(got[static_cast<std::size_t>(i)], host[order[static_cast<std::size_t>(i)]])) << i;

  std::vector<wide> values(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) values[static_cast<std::size_t>(i)] = {mix64(i), ~mix64(i)};
  const device_buffer<wide> values_in(values);
  device_buffer<wide> values_out(k);
  upsweep::top_k_pairs(keys.data(), out.data(), values_in.data(), values_out.data(), n, k,
                       top_k_select::largest, top_k_output::sorted);
  CUDA_OK(cudaDeviceSynchronize());
  const std::vector<wide> got_values = values_out.download();
  for (std::int64_t i = 0; i < k; ++i) {
    const wide& want = values[order[static_cast<std::size_t>(i)]];
    ASSERT_EQ(got_values[static_cast<std::size_t>(i)].lo, want.lo) << i;
    ASSERT_EQ(got_values[static_cast<std::size_t>(i)].hi, want.hi) << i;
  }
}

// The core layer captured into a CUDA graph and replayed: capture proves it neither allocates nor
// synchronises, and the replays run its chained and cooperative launches as graph nodes. Sorted
// output, 2^20 keys: k = 1 (the one-block finish does the select), k = 4096 (more candidates than
// the finish holds: the split grid's passes read the candidate buffers), and k = n / 2 of sixteen
// values (too many ties for a buffer: every pass reads the input).
TEST(TopKApi, CoreCallIsCapturedIntoAGraphAndReplays) {
  if (const std::string reason = gpu_unavailable_reason(); !reason.empty()) GTEST_SKIP() << reason;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = max_test_items(1 << 20);
  struct graph_case {
    distribution d;
    std::int64_t k;
  };
  for (const graph_case& c : {graph_case{distribution::uniform, 1},
                              graph_case{distribution::uniform, std::min<std::int64_t>(n, 4096)},
                              graph_case{distribution::sixteen_values, n / 2}}) {
    const distribution d = c.d;
    const std::int64_t k = c.k;
    SCOPED_TRACE(case_name(n, k, d, top_k_select::largest, top_k_output::sorted));
    const std::vector<float> host = make_keys<float>(n, d, seed);
    const device_buffer<float> keys(host);
    const std::vector<index_t> order = reference_order(host, true, 0, 32);
    device_buffer<float> keys_out(k + 1);
    device_buffer<index_t> positions_out(k + 1);
    const auto call = [&](void* temp, std::size_t& bytes, cudaStream_t stream) {
      return upsweep::top_k_pairs(temp, bytes, keys.data(), keys_out.data(), thrust::counting_iterator<index_t>(0),
                                  positions_out.data(), n, k, top_k_select::largest, top_k_output::sorted, stream);
    };
    std::size_t bytes = 0;
    CUDA_OK(call(nullptr, bytes, nullptr));
    device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
    index_t guard;
    std::memset(&guard, 0xA5, sizeof(guard));
    expect_graph_replays([&](cudaStream_t stream) { return call(temp.data(), bytes, stream); },
                         [&](cudaStream_t stream) {
                           CUDA_OK(cudaMemsetAsync(keys_out.data(), 0xA5, (k + 1) * sizeof(float), stream));
                           CUDA_OK(cudaMemsetAsync(positions_out.data(), 0xA5, (k + 1) * sizeof(index_t), stream));
                         },
                         [&] {
                           const std::vector<float> got_keys = keys_out.download();
                           const std::vector<index_t> got = positions_out.download();
                           ASSERT_EQ(got[static_cast<std::size_t>(k)], guard) << "written past k";
                           for (std::int64_t i = 0; i < k; ++i) {
                             const index_t want = order[static_cast<std::size_t>(i)];
                             ASSERT_EQ(got[static_cast<std::size_t>(i)], want) << "item " << i;
                             ASSERT_TRUE(same_bits(got_keys[static_cast<std::size_t>(i)], host[want])) << "item " << i;
                           }
                         });
    if (HasFatalFailure()) return;
  }
}

// k > n, negative sizes and null pointers are refused before anything is enqueued.
TEST(TopKApi, BadArgumentsAreRefusedAndNothingIsWritten) {
  if (const std::string reason = gpu_unavailable_reason(); !reason.empty()) GTEST_SKIP() << reason;
  device_buffer<int> keys(std::vector<int>{3, 1, 2}), out(std::vector<int>{7, 7, 7, 7});
  std::size_t bytes = 0;
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::top_k_keys(nullptr, bytes, keys.data(), out.data(), 3, 4));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::top_k_keys(nullptr, bytes, keys.data(), out.data(), -1, 0));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::top_k_keys(nullptr, bytes, keys.data(), out.data(), 3, -1));
  CUDA_OK(upsweep::top_k_keys(nullptr, bytes, keys.data(), out.data(), 3, 2));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  EXPECT_EQ(cudaErrorInvalidValue,
            upsweep::top_k_keys(temp.data(), bytes, static_cast<const int*>(nullptr), out.data(), 3, 2));
  EXPECT_EQ(cudaErrorInvalidValue,
            upsweep::top_k_pairs(temp.data(), bytes, keys.data(), out.data(), keys.data(), static_cast<int*>(nullptr), 3, 2));
  EXPECT_THROW(upsweep::top_k_keys(keys.data(), out.data(), 3, 4), upsweep::cuda_error);
  CUDA_OK(cudaDeviceSynchronize());
  for (int v : out.download()) EXPECT_EQ(v, 7);
}

// Segments given by begin and end offsets: each row of the output against the stable host order
// of its segment; the row past a short segment's winners stays poisoned.
template <class Key>
void check_batched(const std::vector<Key>& host, const std::vector<std::int64_t>& begins,
                   const std::vector<std::int64_t>& ends, std::int64_t k, top_k_select which, top_k_output output) {
  const auto segments = static_cast<std::int64_t>(begins.size());
  const device_buffer<Key> keys(host);
  const device_buffer<std::int64_t> d_begins(begins), d_ends(ends);
  device_buffer<Key> keys_out(segments * k + 1);
  device_buffer<index_t> positions_out(segments * k + 1);
  CUDA_OK(cudaMemset(keys_out.data(), 0xA5, static_cast<std::size_t>(segments * k + 1) * sizeof(Key)));
  CUDA_OK(cudaMemset(positions_out.data(), 0xA5, static_cast<std::size_t>(segments * k + 1) * sizeof(index_t)));
  upsweep::batched_top_k_pairs(keys.data(), keys_out.data(), thrust::counting_iterator<index_t>(0),
                               positions_out.data(), segments, d_begins.data(), d_ends.data(), k, which, output);
  CUDA_OK(cudaDeviceSynchronize());
  const std::vector<Key> got_keys = keys_out.download();
  const std::vector<index_t> got = positions_out.download();
  index_t poison;
  std::memset(&poison, 0xA5, sizeof(poison));
  for (std::int64_t s = 0; s < segments; ++s) {
    SCOPED_TRACE("segment " + std::to_string(s) + " of " + std::to_string(ends[s] - begins[s]) + " items");
    const std::vector<Key> segment(host.begin() + begins[s], host.begin() + ends[s]);
    const std::vector<index_t> order = reference_order(segment, which == top_k_select::largest, 0, upsweep::key_bits_v<Key>);
    const auto taken = std::min<std::int64_t>(k, static_cast<std::int64_t>(segment.size()));
    std::vector<index_t> want(static_cast<std::size_t>(taken)), row(static_cast<std::size_t>(taken));
    for (std::int64_t i = 0; i < taken; ++i) {
      const index_t at = got[static_cast<std::size_t>(s * k + i)];
      ASSERT_LT(at, static_cast<index_t>(host.size())) << "item " << i;
      ASSERT_TRUE(same_bits(got_keys[static_cast<std::size_t>(s * k + i)], host[at])) << "item " << i;
      row[static_cast<std::size_t>(i)] = at;
      want[static_cast<std::size_t>(i)] = static_cast<index_t>(begins[s]) + order[static_cast<std::size_t>(i)];
    }
    for (std::int64_t i = taken; i < k; ++i) ASSERT_EQ(got[static_cast<std::size_t>(s * k + i)], poison) << "item " << i;
    if (output == top_k_output::unsorted) {
      std::sort(want.begin(), want.end());
      std::sort(row.begin(), row.end());
    }
    ASSERT_EQ(row, want);
  }
}

TYPED_TEST(TopK, BatchedSegmentsMatchTheirOwnStableSorts) {
  using Key = TypeParam;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  // Lengths around a warp, a shared-memory candidate buffer and a block's tile, empty ones, and
  // segments separated by gaps (begins and ends as two arrays).
  const std::int64_t lengths[] = {0, 1, 31, 32, 33, 50, 1000, 4095, 4097, 0, 20000, max_test_items(131072), 7};
  for (distribution d : {distribution::uniform, distribution::sixteen_values, distribution::all_equal}) {
    std::vector<std::int64_t> begins, ends;
    std::int64_t at = 0;
    for (std::int64_t length : lengths) {
      begins.push_back(at);
      ends.push_back(at + length);
      at += length + (length % 3);
    }
    const std::vector<Key> host = make_keys<Key>(at, d, seed + static_cast<std::uint64_t>(d));
    for (std::int64_t k : {std::int64_t{1}, std::int64_t{50}, std::int64_t{1024}, std::int64_t{5000}})
      for (top_k_select which : {top_k_select::largest, top_k_select::smallest})
        for (top_k_output output : {top_k_output::sorted, top_k_output::unsorted}) {
          if (output == top_k_output::sorted && k > 1024) continue;
          SCOPED_TRACE(case_name(at, k, d, which, output));
          check_batched(host, begins, ends, k, which, output);
          if (::testing::Test::HasFatalFailure()) return;
        }
  }
}

// Rows of one length, the sampling shape scaled down: 64 rows, k = 50, bf16 keys, against the
// offsets form on the same rows.
TEST(TopKRows, RowsOfLogitsAgreeWithTheOffsetsForm) {
  if (const std::string reason = gpu_unavailable_reason(); !reason.empty()) GTEST_SKIP() << reason;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t rows = 64, row_length = max_test_items(64 * 8192) / 64, k = 50;
  std::vector<__nv_bfloat16> host(static_cast<std::size_t>(rows * row_length));
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = __float2bfloat16(random_value<float>(seed, i, -1.0f, 1.0f));
  std::vector<std::int64_t> begins, ends;
  for (std::int64_t r = 0; r < rows; ++r) {
    begins.push_back(r * row_length);
    ends.push_back((r + 1) * row_length);
  }
  check_batched(host, begins, ends, k, top_k_select::largest, top_k_output::sorted);
  if (HasFatalFailure()) return;
  const device_buffer<__nv_bfloat16> keys(host);
  device_buffer<__nv_bfloat16> by_rows(rows * k), by_offsets(rows * k);
  const device_buffer<std::int64_t> d_begins(begins), d_ends(ends);
  upsweep::top_k_rows_keys(keys.data(), by_rows.data(), rows, row_length, k);
  upsweep::batched_top_k_keys(keys.data(), by_offsets.data(), rows, d_begins.data(), d_ends.data(), k);
  CUDA_OK(cudaDeviceSynchronize());
  const auto a = by_rows.download(), b = by_offsets.download();
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_TRUE(same_bits(a[i], b[i])) << i;
}

// More segments than the GPU has SMs: one block a segment, no cluster sharing the read (on a
// 132-SM H100 or H200 the two tests above run clusters of 8 and of 2 blocks).
TEST(TopKRows, SegmentsThatFillTheGpuRunABlockEach) {
  if (const std::string reason = gpu_unavailable_reason(); !reason.empty()) GTEST_SKIP() << reason;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  int device = 0, sms = 0;
  CUDA_OK(cudaGetDevice(&device));
  CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::int64_t segments = sms + 1, length = 10001;  // a sampled length: over 2 x 4096
  const std::vector<float> host = make_keys<float>(segments * length, distribution::uniform, seed);
  std::vector<std::int64_t> begins, ends;
  for (std::int64_t s = 0; s < segments; ++s) {
    begins.push_back(s * length);
    ends.push_back((s + 1) * length);
  }
  for (top_k_output output : {top_k_output::sorted, top_k_output::unsorted}) {
    check_batched(host, begins, ends, 50, top_k_select::largest, output);
    if (HasFatalFailure()) return;
  }
}

// Rows whose best key is repeated t times at random positions, t on both sides of k and of the
// count the batched kernel ranks by index in one step (256): the lowest positions win. Rows long
// enough for the sample's shortcut and rows without it.
TEST(TopKRows, TiedBestKeysAreWonByTheLowestPositions) {
  if (const std::string reason = gpu_unavailable_reason(); !reason.empty()) GTEST_SKIP() << reason;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t ties[] = {1, 49, 50, 51, 128, 255, 256, 257, 1000};
  const auto rows = static_cast<std::int64_t>(std::size(ties));
  for (std::int64_t length : {std::int64_t{3001}, max_test_items(20000)}) {
    for (top_k_select which : {top_k_select::largest, top_k_select::smallest}) {
      const float best = which == top_k_select::largest ? 2.0f : -2.0f;
      std::vector<__nv_bfloat16> host(static_cast<std::size_t>(rows * length));
      for (std::size_t i = 0; i < host.size(); ++i)
        host[i] = __float2bfloat16(random_value<float>(seed, i, -1.0f, 1.0f));
      std::vector<std::int64_t> begins, ends, positions(static_cast<std::size_t>(length));
      for (std::int64_t r = 0; r < rows; ++r) {
        begins.push_back(r * length);
        ends.push_back((r + 1) * length);
        std::iota(positions.begin(), positions.end(), std::int64_t{0});  // distinct tied positions
        std::shuffle(positions.begin(), positions.end(), std::mt19937_64(seed ^ static_cast<std::uint64_t>(r)));
        for (std::int64_t t = 0; t < std::min(ties[r], length); ++t)
          host[static_cast<std::size_t>(r * length + positions[static_cast<std::size_t>(t)])] = __float2bfloat16(best);
      }
      for (std::int64_t k : {std::int64_t{1}, std::int64_t{50}, std::int64_t{300}})
        for (top_k_output output : {top_k_output::sorted, top_k_output::unsorted}) {
          SCOPED_TRACE(case_name(length, k, distribution::uniform, which, output));
          check_batched(host, begins, ends, k, which, output);
          if (HasFatalFailure()) return;
        }
    }
  }
}

TEST(TopKApi, BatchedBadArgumentsAreRefused) {
  if (const std::string reason = gpu_unavailable_reason(); !reason.empty()) GTEST_SKIP() << reason;
  const device_buffer<float> keys(std::vector<float>(10, 1.0f));
  device_buffer<float> out(2048);
  std::size_t bytes = 0;
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::top_k_rows_keys(nullptr, bytes, keys.data(), out.data(), 1, 10, 1025));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::top_k_rows_keys(nullptr, bytes, keys.data(), out.data(), -1, 10, 5));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::top_k_rows_keys(nullptr, bytes, keys.data(), out.data(), 1, -10, 5));
  CUDA_OK(upsweep::top_k_rows_keys(nullptr, bytes, keys.data(), out.data(), 1, 10, 1025, top_k_select::largest,
                                   top_k_output::unsorted));
}

// Past 2^32 items (64-bit positions): u8 keys below 201 with 700 planted keys above, some planted
// past 2^32; the top 600 are the planted ones in (key descending, position) order.
TEST(TopKLarge, Large_u8_keys_past_two_to_the_32) {
  if (const std::string reason = gpu_unavailable_reason(); !reason.empty()) GTEST_SKIP() << reason;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = (std::int64_t{1} << 32) + 4099;
  device_buffer<std::uint8_t> keys(n);
  CUDA_OK(fill_random<std::uint8_t>(keys.data(), n, seed, 0, 200));
  std::vector<std::pair<std::uint8_t, std::int64_t>> planted;
  for (int i = 0; i < 700; ++i) {
    const std::int64_t at = i < 100 ? n - 1 - i * 7 : static_cast<std::int64_t>(mix64(seed + i) % static_cast<std::uint64_t>(n));
    if (std::any_of(planted.begin(), planted.end(), [&](const auto& p) { return p.second == at; })) continue;
    const auto key = static_cast<std::uint8_t>(201 + mix64(seed ^ i) % 55);
    CUDA_OK(cudaMemcpy(keys.data() + at, &key, 1, cudaMemcpyHostToDevice));
    planted.emplace_back(key, at);
  }
  std::sort(planted.begin(), planted.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  const std::int64_t k = 600;
  device_buffer<std::uint8_t> keys_out(k);
  device_buffer<std::uint64_t> positions(k);
  upsweep::top_k_pairs(keys.data(), keys_out.data(), thrust::counting_iterator<std::uint64_t>(0), positions.data(), n,
                       k);
  CUDA_OK(cudaDeviceSynchronize());
  const std::vector<std::uint8_t> got_keys = keys_out.download();
  const std::vector<std::uint64_t> got = positions.download();
  for (std::int64_t i = 0; i < k; ++i) {
    ASSERT_EQ(got_keys[static_cast<std::size_t>(i)], planted[static_cast<std::size_t>(i)].first) << i;
    ASSERT_EQ(got[static_cast<std::size_t>(i)], static_cast<std::uint64_t>(planted[static_cast<std::size_t>(i)].second)) << i;
  }
}

}  // namespace
