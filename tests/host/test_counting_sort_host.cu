// The counting sort's host-checkable pieces, without a GPU: its bins are a bijection of the key
// bits in the radix sort's order with -0.0 and +0.0 side by side, its chunks cover the input in
// aligned pieces, and its storage grows with n.
#include <upsweep/sort/detail/counting_sort_dispatch.cuh>

#include <gtest/gtest.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using namespace upsweep::detail;

template <class Key, bool Descending>
void expect_bins_in_sort_order() {
  using traits = upsweep::radix_traits<Key>;
  constexpr unsigned bins = counting_sort_traits<Key>::bins;
  std::vector<bool> seen(bins, false);
  std::uint64_t previous = 0;
  for (unsigned bin = 0; bin < bins; ++bin) {
    const auto bits = key_bits_of_bin<Key, Descending>(bin);
    ASSERT_EQ((counting_bin<Key, Descending>(bits)), bin) << "bin " << bin << " does not round-trip";
    ASSERT_FALSE(seen[bits]) << "two bins hold bits " << bits;
    seen[bits] = true;
    const std::uint64_t sort_bits = traits::template to_sort_bits<Descending>(traits::from_bits(bits));
    ASSERT_LE(previous, sort_bits) << "bin " << bin << " is out of the radix sort's order";
    previous = sort_bits;
  }
  if constexpr (counting_sort_traits<Key>::has_two_zeros) {
    const unsigned zero = first_zero_bin<Key, Descending>();
    const unsigned a = key_bits_of_bin<Key, Descending>(zero);
    const unsigned b = key_bits_of_bin<Key, Descending>(zero + 1);
    EXPECT_EQ(a | b, static_cast<unsigned>(traits::sign_bit)) << "the zeros' bins are not side by side";
    EXPECT_EQ((a & b), 0u);
  }
}

TEST(CountingSortBins, EveryKeyTypeInBothDirections) {
  expect_bins_in_sort_order<std::uint8_t, false>();
  expect_bins_in_sort_order<std::int8_t, true>();
  expect_bins_in_sort_order<std::uint16_t, true>();
  expect_bins_in_sort_order<std::int16_t, false>();
  expect_bins_in_sort_order<__half, false>();
  expect_bins_in_sort_order<__half, true>();
  expect_bins_in_sort_order<__nv_bfloat16, false>();
  expect_bins_in_sort_order<__nv_bfloat16, true>();
}

template <class Key>
void expect_chunks_cover(long long n, std::uintptr_t address, int sms) {
  const auto* d_keys = reinterpret_cast<const Key*>(address);
  const counting_layout layout = make_counting_layout(d_keys, n, sms);
  const counting_chunks& c = layout.chunks;
  SCOPED_TRACE("n " + std::to_string(n) + ", address % 16 = " + std::to_string(address % 16));
  ASSERT_GE(layout.histogram_blocks, 1);
  ASSERT_LE(layout.histogram_blocks, c.count);
  ASSERT_LE(c.count, counting_max_chunks);
  EXPECT_EQ(c.first(0), 0);
  EXPECT_EQ(c.first(c.count), n);
  for (int i = 1; i < c.count; ++i) {
    ASSERT_LT(c.first(i - 1), c.first(i)) << "chunk " << i - 1 << " is empty";
    ASSERT_EQ((address + static_cast<std::uintptr_t>(c.first(i)) * sizeof(Key)) % 16, 0u) << "chunk " << i;
  }
  if constexpr (sizeof(Key) == 2) EXPECT_LE(layout.histogram_blocks, counting_rows<Key>(n)) << "more blocks than rows";
  if constexpr (sizeof(Key) == 1)
    EXPECT_LT(ceil_div<long long>(n, layout.histogram_blocks), counting_keys_per_block_limit_8bit);
}

TEST(CountingSortChunks, CoverTheInputInAlignedPiecesForAnySizeAndAlignment) {
  for (const long long n : {1ll, 7ll, 8ll, 9ll, 65536ll, (1ll << 19) + 3, (1ll << 22) + 1, 1ll << 28, 5ll << 31}) {
    for (const std::uintptr_t misalignment : {0u, 1u, 2u, 6u, 14u}) {
      expect_chunks_cover<std::uint8_t>(n, 4096 + misalignment, 132);
      if (misalignment % 2 == 0) expect_chunks_cover<__half>(n, 4096 + misalignment, 132);
    }
    expect_chunks_cover<std::uint16_t>(n, 4096, 1);
  }
}

TEST(CountingSortStorage, GrowsWithTheNumberOfKeys) {
  std::size_t previous = 0;
  for (long long n = 1; n <= (1ll << 30); n = n * 3 + 1) {
    const std::size_t bytes = counting_sort_storage_bytes<__half>(n, true);
    EXPECT_LE(previous, bytes) << "n " << n;
    EXPECT_GE(bytes, static_cast<std::size_t>(n) * sizeof(__half)) << "scratch for the zeros in place";
    previous = bytes;
  }
  EXPECT_LT(counting_sort_storage_bytes<std::uint8_t>(1ll << 30, true), std::size_t{1} << 20) << "8-bit keys need no rows";
}

}  // namespace
