// Which path a sort takes and the counting sort's host-checkable pieces, without a GPU: the tile
// shape by input size (small tiles, one launch, sized, large), the counting sort's thresholds; its
// bins are a bijection of the key bits in the radix sort's order with -0.0 and +0.0 side by side,
// its chunks cover the input in aligned pieces, and its storage grows with n.
#include <upsweep/sort/detail/counting_sort_dispatch.cuh>
#include <upsweep/sort/detail/radix_sort_dispatch.cuh>

#include <gtest/gtest.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using namespace upsweep::detail;

// The tile of the policy that sorts n items (following the large-input chain), and whether it
// sorts them in one launch.
template <class Policy>
int tile_for(long long n, bool& one_launch) {
  if constexpr (!std::is_void_v<typename Policy::large_input_policy>) {
    if (takes_large_input_policy<Policy>(n)) return tile_for<typename Policy::large_input_policy>(n, one_launch);
  }
  one_launch = sorts_in_one_tile<Policy>(n);
  return Policy::tile_items;
}

template <class Key, class Value>
void expect_tiles(long long n, int tile, bool one_launch) {
  bool got_one_launch = false;
  using policy = upsweep::default_radix_sort_policy<Key, Value>;
  EXPECT_EQ(tile_for<policy>(n, got_one_launch), tile) << "n " << n;
  EXPECT_EQ(got_one_launch, one_launch) << "n " << n;
}

TEST(SortDispatch, TilesGrowWithTheInputAndOneSizedTileSortsInOneLaunch) {
  expect_tiles<std::uint32_t, no_values>(100, 384 * 20, true);
  expect_tiles<std::uint32_t, no_values>(384 * 20, 384 * 20, true);
  expect_tiles<std::uint32_t, no_values>(384 * 20 + 1, 256 * 8, false);
  expect_tiles<std::uint32_t, no_values>((1 << 19) - 1, 256 * 8, false);
  expect_tiles<std::uint32_t, no_values>(1 << 19, 384 * 20, false);
  expect_tiles<std::uint32_t, no_values>(1 << 20, 384 * 32, false);
  expect_tiles<std::uint64_t, std::uint32_t>(1 << 16, 256 * 8, false);
  expect_tiles<std::uint64_t, std::uint32_t>(1 << 19, 384 * 14, false);
  expect_tiles<std::uint64_t, std::uint32_t>(1 << 20, 512 * 16, false);
  expect_tiles<std::uint32_t, std::uint32_t>((1 << 22) - 1, 384 * 23, false);
  expect_tiles<std::uint32_t, std::uint32_t>(1 << 22, 512 * 20, false);
  expect_tiles<std::uint64_t, std::uint64_t>((1 << 24) - 1, 384 * 14, false);
  expect_tiles<std::uint64_t, std::uint64_t>(1 << 24, 512 * 12, false);
  struct sixteen_bytes {
    std::uint64_t low, high;
  };
  expect_tiles<std::uint32_t, sixteen_bytes>(1 << 24, 384 * 12, false);
  expect_tiles<std::uint16_t, no_values>(1 << 16, default_radix_tile_shape<std::uint16_t, no_values>().threads *
                                                      default_radix_tile_shape<std::uint16_t, no_values>().items,
                                          false);  // narrow keys have no small shape
}

TEST(SortDispatch, KeysOfEightAndSixteenBitsCountFromTheirThresholds) {
  EXPECT_FALSE((takes_counting_sort<std::uint8_t, no_values, radix_key_codec<std::uint8_t>>((1 << 19) - 1, 0, 8)));
  EXPECT_TRUE((takes_counting_sort<std::uint8_t, no_values, radix_key_codec<std::uint8_t>>(1 << 19, 0, 8)));
  EXPECT_FALSE((takes_counting_sort<std::uint8_t, no_values, radix_key_codec<std::uint8_t>>(1 << 20, 0, 7)))
      << "a bit window keeps the passes";
  EXPECT_TRUE((takes_counting_sort<std::int16_t, no_values, radix_key_codec<std::int16_t>>(1 << 21, 0, 16)));
  EXPECT_FALSE((takes_counting_sort<__half, no_values, radix_key_codec<__half>>(1 << 21, 0, 16)));
  EXPECT_TRUE((takes_counting_sort<__half, no_values, radix_key_codec<__half>>(1 << 22, 0, 16)));
  EXPECT_FALSE((takes_counting_sort<std::uint16_t, std::uint32_t, radix_key_codec<std::uint16_t>>(1 << 24, 0, 16)))
      << "pairs keep the passes";
  EXPECT_FALSE((takes_counting_sort<std::uint32_t, no_values, radix_key_codec<std::uint32_t>>(1 << 24, 0, 32)));
}

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
