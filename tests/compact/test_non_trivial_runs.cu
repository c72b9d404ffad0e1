// non_trivial_runs and run_length_encode with a custom equality, against host loops and CUB's
// NonTrivialRuns: runs of every shape, sizes around warp and tile edges, small tiles, 32-bit
// offsets and lengths, an equality on part of an item (which item of a run is kept), bad
// arguments. Outputs and counts are poisoned; guards follow every output.
#include <upsweep/compact/device_run_length_encode.cuh>
#include <upsweep/util/stream_allocation.hpp>

#include "by_key_test_support.cuh"

#include <cub/device/device_run_length_encode.cuh>

namespace upsweep::test {
namespace {

struct long_runs_of {
  std::vector<std::int64_t> offsets, lengths;
};

template <class T, class Eq>
long_runs_of long_runs_on_host(const std::vector<T>& items, Eq eq) {
  long_runs_of r;
  const auto head = heads_on_host(items, eq);
  const auto n = static_cast<std::int64_t>(items.size());
  for (std::int64_t i = 0; i < n;) {
    std::int64_t end = i + 1;
    while (end < n && !head[end]) ++end;
    if (end - i > 1) {
      r.offsets.push_back(i);
      r.lengths.push_back(end - i);
    }
    i = end;
  }
  return r;
}

// Runs non_trivial_runs<Policy> with OffsetT/LengthT outputs; checks count, both outputs, the
// poison after them, and that the input is unchanged.
template <class Policy, class OffsetT, class LengthT, class T, class Eq>
void expect_long_runs_like_the_host(const std::vector<T>& items, Eq eq) {
  const auto n = static_cast<std::int64_t>(items.size());
  const auto want = long_runs_on_host(items, eq);
  device_buffer<T> in(items);
  device_buffer<OffsetT> offsets(n, guard_items);
  device_buffer<LengthT> lengths(n, guard_items);
  device_buffer<std::int64_t> count(1);
  poison(offsets);
  poison(lengths);
  check(cudaMemset(count.data(), poison_byte, sizeof(std::int64_t)), "cudaMemset");
  std::size_t bytes = 0;
  const auto call = [&](void* temp) {
    return upsweep::non_trivial_runs<Policy>(temp, bytes, static_cast<const T*>(in.data()), offsets.data(),
                                             lengths.data(), count.data(), n, eq);
  };
  CUDA_OK(call(nullptr));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  CUDA_OK(call(temp.data()));
  CUDA_OK(cudaDeviceSynchronize());
  ASSERT_EQ(count.download()[0], static_cast<std::int64_t>(want.offsets.size())) << "number of long runs";
  expect_output_then_poison(offsets.download(n + guard_items),
                            std::vector<OffsetT>(want.offsets.begin(), want.offsets.end()), "offsets");
  expect_output_then_poison(lengths.download(n + guard_items),
                            std::vector<LengthT>(want.lengths.begin(), want.lengths.end()), "lengths");
  expect_same_bytes(in.download(n).data(), items.data(), n, "input changed");
}

template <class T, class Eq>
void expect_every_shape_like_the_host(Eq eq) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  constexpr std::int64_t tile = default_non_trivial_runs_policy<T>::tile_items;
  using small_tiles = select_policy<32, 2, tile_io::transpose, 0, 1>;
  // Reduce-ahead (where the items allow it) on two resident blocks, so even small inputs take it.
  using small_tiles_ahead = select_policy<32, 4, tile_io::transpose, 0, 1, 0, tile_schedule::reduce_ahead, 2>;
  using two_blocks_ahead = select_policy<256, detail::default_select_items_per_thread<T>(), tile_io::transpose,
                                         default_look_back_delay_ns, 1, 1200, tile_schedule::reduce_ahead, 2>;
  for (const std::int64_t n : by_key_sizes(tile)) {
    for (const run_shape shape : every_run_shape()) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", " + name_of(shape));
      const auto items = keys_of_shape<T>(n, shape, tile, seed + n);
      expect_long_runs_like_the_host<void, std::int64_t, std::int64_t>(items, eq);
      expect_long_runs_like_the_host<small_tiles, std::int32_t, std::uint32_t>(items, eq);
      expect_long_runs_like_the_host<small_tiles_ahead, std::int64_t, std::int32_t>(items, eq);
      expect_long_runs_like_the_host<two_blocks_ahead, std::uint64_t, std::int64_t>(items, eq);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

class NonTrivialRuns : public gpu_test {};

TEST_F(NonTrivialRuns, IntsMatchTheHostAtEverySizeAndRunShape) {
  expect_every_shape_like_the_host<std::int32_t>(plain_equal{});
}

TEST_F(NonTrivialRuns, BytesAndWideItemsMatchTheHost) {
  expect_every_shape_like_the_host<std::uint8_t>(plain_equal{});
  expect_every_shape_like_the_host<std::uint64_t>(plain_equal{});
}

TEST_F(NonTrivialRuns, EqualityOnPartOfAnItemDecidesTheRuns) {
  expect_every_shape_like_the_host<tagged>(same_key{});
}

TEST_F(NonTrivialRuns, FloatsJoinSignedZerosAndSplitNaNs) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  expect_long_runs_like_the_host<void, std::int64_t, std::int64_t>(float_keys(max_test_items(300'007), seed),
                                                                  plain_equal{});
}

TEST_F(NonTrivialRuns, MatchesCub) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{33}, std::int64_t{100'000}, max_test_items(std::int64_t{5'000'011})}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    device_buffer<int> in(keys_of_shape<int>(n, run_shape::short_runs, 4096, seed + n));
    device_buffer<std::int64_t> ours_offsets(n), ours_lengths(n), counts(2);
    device_buffer<std::int64_t> cub_offsets(n), cub_lengths(n);
    std::size_t bytes = 0;
    CUDA_OK(upsweep::non_trivial_runs(nullptr, bytes, static_cast<const int*>(in.data()), ours_offsets.data(),
                                      ours_lengths.data(), counts.data(), n));
    device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
    CUDA_OK(upsweep::non_trivial_runs(temp.data(), bytes, static_cast<const int*>(in.data()), ours_offsets.data(),
                                      ours_lengths.data(), counts.data(), n));
    std::size_t cub_bytes = 0;
    CUDA_OK(cub::DeviceRunLengthEncode::NonTrivialRuns(nullptr, cub_bytes, in.data(), cub_offsets.data(),
                                                       cub_lengths.data(), counts.data() + 1, n));
    device_buffer<unsigned char> cub_temp(static_cast<std::int64_t>(cub_bytes));
    CUDA_OK(cub::DeviceRunLengthEncode::NonTrivialRuns(cub_temp.data(), cub_bytes, in.data(), cub_offsets.data(),
                                                       cub_lengths.data(), counts.data() + 1, n));
    CUDA_OK(cudaDeviceSynchronize());
    const auto c = counts.download();
    ASSERT_EQ(c[0], c[1]);
    expect_same_bytes(ours_offsets.download(c[0]).data(), cub_offsets.download(c[0]).data(), c[0], "offsets");
    expect_same_bytes(ours_lengths.download(c[0]).data(), cub_lengths.download(c[0]).data(), c[0], "lengths");
  }
}

TEST_F(NonTrivialRuns, RefusesBadArguments) {
  device_buffer<int> in(100);
  device_buffer<std::int64_t> offsets(100), lengths(100), count(1);
  device_buffer<std::int8_t> narrow(200);
  std::size_t bytes = 0;
  const int* d_in = in.data();
  CUDA_OK(upsweep::non_trivial_runs(nullptr, bytes, d_in, offsets.data(), lengths.data(), count.data(), 100));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  EXPECT_EQ(cudaErrorInvalidValue,
            upsweep::non_trivial_runs(temp.data(), bytes, d_in, offsets.data(), lengths.data(), nullptr, 100));
  EXPECT_EQ(cudaErrorInvalidValue,
            upsweep::non_trivial_runs(temp.data(), bytes, d_in, offsets.data(), lengths.data(), count.data(), -1));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::non_trivial_runs(temp.data(), bytes, d_in, narrow.data(), lengths.data(),
                                                             count.data(), std::int64_t{200}));
  EXPECT_EQ(cudaErrorInvalidValue,
            upsweep::non_trivial_runs(temp.data(), bytes, d_in, reinterpret_cast<std::int64_t*>(in.data()),
                                      lengths.data(), count.data(), 100));
  CUDA_OK(cudaDeviceSynchronize());
}

// Past 2^31 items (the general tile state), with one run longer than 2^31 (its length written by
// the head that closes it, many tiles later) among random bytes, on Policy's schedule.
template <class Policy>
void expect_long_runs_past_2_to_31_items_like_a_host_pass() {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = (std::int64_t{1} << 31) + (std::int64_t{1} << 24);
  const std::int64_t long_first = (std::int64_t{1} << 20) + 3, long_end = long_first + (std::int64_t{1} << 31) + 5;
  device_buffer<std::uint8_t> in(n);
  device_buffer<std::int64_t> offsets(n, guard_items), lengths(n, guard_items), count(1);
  CUDA_OK(fill_random<std::uint8_t>(in.data(), n, seed, 0, 7));  // a run continues 1 time in 8
  CUDA_OK(cudaMemset(in.data() + long_first, 9, static_cast<std::size_t>(long_end - long_first)));
  poison(offsets);
  poison(lengths);
  std::size_t bytes = 0;
  const auto* d_in = static_cast<const std::uint8_t*>(in.data());
  CUDA_OK(upsweep::non_trivial_runs<Policy>(nullptr, bytes, d_in, offsets.data(), lengths.data(), count.data(), n));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  CUDA_OK(upsweep::non_trivial_runs<Policy>(temp.data(), bytes, d_in, offsets.data(), lengths.data(), count.data(), n));
  CUDA_OK(cudaDeviceSynchronize());
  const std::int64_t runs = count.download()[0];
  const auto host_in = in.download();
  const auto got_offsets = offsets.download(runs + guard_items);
  const auto got_lengths = lengths.download(runs + guard_items);
  std::int64_t run = 0, mismatch = -1;
  for (std::int64_t i = 0; i < n && mismatch < 0;) {
    std::int64_t end = i + 1;
    while (end < n && host_in[end] == host_in[i]) ++end;
    if (end - i > 1) {
      if (run >= runs || got_offsets[run] != i || got_lengths[run] != end - i) mismatch = run;
      ++run;
    }
    i = end;
  }
  ASSERT_EQ(mismatch, -1) << "first mismatch at long run " << mismatch;
  ASSERT_EQ(run, runs);
  std::int64_t poisoned = 0;
  std::memset(&poisoned, poison_byte, sizeof(poisoned));
  for (std::int64_t j = runs; j < runs + guard_items; ++j) {
    ASSERT_EQ(got_offsets[j], poisoned) << "offset written past the count at " << j;
    ASSERT_EQ(got_lengths[j], poisoned) << "length written past the count at " << j;
  }
}

// Bytes: a block per tile.
TEST_F(NonTrivialRuns, LargeRunsPast2To31ItemsWithARunLongerThan2To31) {
  expect_long_runs_past_2_to_31_items_like_a_host_pass<default_non_trivial_runs_policy<std::uint8_t>>();
}

// Reduce-ahead on every resident block.
TEST_F(NonTrivialRuns, LargeRunsReducingAheadPast2To31ItemsWithARunLongerThan2To31) {
  expect_long_runs_past_2_to_31_items_like_a_host_pass<
      select_policy<256, 16, tile_io::transpose, default_look_back_delay_ns, 3, 1200, tile_schedule::reduce_ahead>>();
}

// run_length_encode with an equality on part of an item: the first item of each run is kept.
TEST_F(NonTrivialRuns, RunLengthEncodeTakesAnyEqualityAndKeepsTheFirst) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{1}, std::int64_t{4097}, max_test_items(std::int64_t{1'000'003})}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto items = keys_of_shape<tagged>(n, run_shape::short_runs, 2048, seed + n);
    const auto head = heads_on_host(items, same_key{});
    std::vector<tagged> want_values;
    std::vector<std::int64_t> want_lengths;
    for (std::int64_t i = 0; i < n; ++i) {
      if (head[i]) {
        want_values.push_back(items[i]);
        want_lengths.push_back(0);
      }
      ++want_lengths.back();
    }
    device_buffer<tagged> in(items), values(n, guard_items);
    device_buffer<std::int64_t> lengths(n, guard_items), count(1);
    poison(values);
    poison(lengths);
    upsweep::detail::with_temp_storage("test", 0, [&](void* t, std::size_t& b) {
      return upsweep::run_length_encode(t, b, static_cast<const tagged*>(in.data()), values.data(), lengths.data(),
                                        count.data(), n, same_key{});
    });
    CUDA_OK(cudaDeviceSynchronize());
    ASSERT_EQ(count.download()[0], static_cast<std::int64_t>(want_values.size()));
    expect_output_then_poison(values.download(n + guard_items), want_values, "run values");
    expect_output_then_poison(lengths.download(n + guard_items), want_lengths, "run lengths");
  }
}

}  // namespace
}  // namespace upsweep::test
