// Run-length encoding against a host loop and CUB: element types of 1 to 8 bytes, sizes around
// warp and tile boundaries, runs of every shape (all distinct, short, crossing many tiles, one run,
// runs ending exactly at tile edges), both schedules (a block per tile, resident blocks reducing
// ahead), small tiles so the look-back walks many windows at the sanitizers' sizes, bad
// arguments, a CUDA graph on a non-blocking stream, and past 2^31 items with more than 2^31 runs.
// Outputs and the count are poisoned, and guards follow both outputs.
#include <upsweep/compact.hpp>
#include <upsweep/compact/device_run_length_encode.cuh>

#include "compact_test_support.cuh"
#include "run_shapes.hpp"

#include <cub/device/device_run_length_encode.cuh>

#include <random>

namespace upsweep::test {
namespace {

template <class T>
struct encoded {
  std::vector<T> values;
  std::vector<std::int64_t> lengths;
};

// The host reference: a run starts wherever an item is not == the one before it.
template <class T>
encoded<T> encode_on_host(const std::vector<T>& items) {
  encoded<T> e;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i == 0 || !(items[i] == items[i - 1])) {
      e.values.push_back(items[i]);
      e.lengths.push_back(0);
    }
    ++e.lengths.back();
  }
  return e;
}

// Runs `encode(d_temp, bytes, d_in, d_values, d_lengths, d_count, n, stream)` (a core-layer call)
// on poisoned outputs, then checks the count, both outputs, that nothing after the count was
// written (the rest of each output and a guard), and that the input is unchanged.
template <class T, class LengthT = std::int64_t, class Encode>
void expect_encodes_like_the_host(const std::vector<T>& host_in, Encode encode, cudaStream_t stream = 0) {
  const auto n = static_cast<std::int64_t>(host_in.size());
  const encoded<T> want = encode_on_host(host_in);
  const auto runs = static_cast<std::int64_t>(want.values.size());
  device_buffer<T> in(host_in), values(n, guard_items);
  device_buffer<LengthT> lengths(n, guard_items);
  device_buffer<std::int64_t> count(1);
  CUDA_OK(cudaMemset(values.data(), poison_byte, (n + guard_items) * sizeof(T)));
  CUDA_OK(cudaMemset(lengths.data(), poison_byte, (n + guard_items) * sizeof(LengthT)));
  CUDA_OK(cudaMemset(count.data(), poison_byte, sizeof(std::int64_t)));

  std::size_t bytes = 0;
  CUDA_OK(encode(nullptr, bytes, static_cast<const T*>(in.data()), values.data(), lengths.data(), count.data(), n,
                 stream));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  CUDA_OK(encode(temp.data(), bytes, static_cast<const T*>(in.data()), values.data(), lengths.data(), count.data(),
                 n, stream));
  CUDA_OK(cudaStreamSynchronize(stream));

  ASSERT_EQ(count.download()[0], runs) << "number of runs";
  const auto got_values = values.download(n + guard_items);
  const auto got_lengths = lengths.download(n + guard_items);
  expect_same_bytes(got_values.data(), want.values.data(), runs, "run values");
  const std::vector<LengthT> want_lengths(want.lengths.begin(), want.lengths.end());
  expect_same_bytes(got_lengths.data(), want_lengths.data(), runs, "run lengths");
  std::vector<T> poisoned_values(got_values.size());
  std::vector<LengthT> poisoned_lengths(got_lengths.size());
  std::memset(poisoned_values.data(), poison_byte, poisoned_values.size() * sizeof(T));
  std::memset(poisoned_lengths.data(), poison_byte, poisoned_lengths.size() * sizeof(LengthT));
  expect_same_bytes(got_values.data() + runs, poisoned_values.data() + runs, n + guard_items - runs,
                    "values written past the count");
  expect_same_bytes(got_lengths.data() + runs, poisoned_lengths.data() + runs, n + guard_items - runs,
                    "lengths written past the count");
  expect_same_bytes(in.download(n).data(), host_in.data(), n, "input changed");
}

template <class T>
auto compiled_encode() {
  return [](void* t, std::size_t& b, const T* in, T* values, std::int64_t* lengths, std::int64_t* count,
            std::int64_t n, cudaStream_t s) { return upsweep::run_length_encode(t, b, in, values, lengths, count, n, s); };
}

// The template layer, with a policy (void: the default) and any length type.
template <class Policy, class T, class LengthT = std::int64_t>
auto policy_encode() {
  return [](void* t, std::size_t& b, const T* in, T* values, LengthT* lengths, std::int64_t* count, std::int64_t n,
            cudaStream_t s) { return upsweep::run_length_encode<Policy>(t, b, in, values, lengths, count, n, s); };
}

// T's default tile and resident blocks on either schedule. Reduce-ahead on `Blocks` resident
// blocks (0: all that fit), so that each takes many tiles even at the sanitizers' sizes; the
// dispatch sends inputs of no more tiles than blocks a block per tile.
template <class T, tile_schedule Schedule, int Blocks = 0>
using run_length_schedule =
    select_policy<256, detail::default_select_items_per_thread<T>(), tile_io::transpose, default_look_back_delay_ns,
                  detail::default_run_length_min_blocks<T>(), 1200, Schedule, Blocks>;
template <class T>
using block_per_tile = run_length_schedule<T, tile_schedule::block_per_tile>;
template <class T>
using two_block_reduce_ahead = run_length_schedule<T, tile_schedule::reduce_ahead, 2>;

template <class T>
class RunLengthEncodeTyped : public gpu_test {};
using run_length_types = ::testing::Types<std::uint8_t, std::int16_t, std::int32_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(RunLengthEncodeTyped, run_length_types);

TYPED_TEST(RunLengthEncodeTyped, MatchesAHostLoopAtEverySizeAndRunShape) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  constexpr std::int64_t tile = default_run_length_policy<T>::tile_items;
  auto sizes = compact_sizes(tile);
  sizes.push_back(3 * tile + 5);
  for (const std::int64_t n : sizes) {
    for (const run_shape shape : every_run_shape()) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", " + name_of(shape));
      const auto items = runs_of_shape<T>(n, shape, tile, seed + n);
      expect_encodes_like_the_host(items, compiled_encode<T>());
      // The default's other schedule, and reduce-ahead from 3 tiles on (the default's from
      // more tiles than resident blocks).
      if constexpr (default_run_length_policy<T>::schedule == tile_schedule::reduce_ahead) {
        SCOPED_TRACE("a block per tile");
        expect_encodes_like_the_host(items, policy_encode<block_per_tile<T>, T>());
      }
      {
        SCOPED_TRACE("reduce-ahead on two blocks");
        expect_encodes_like_the_host(items, policy_encode<two_block_reduce_ahead<T>, T>());
      }
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

class DeviceRunLengthEncode : public gpu_test {};

// Small tiles: thousands of them at sizes the sanitizers run, so look-backs cross many windows.
template <class Policy>
void expect_small_tiles_encode_like_the_host() {
  constexpr std::int64_t tile = Policy::tile_items;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, tile - 1, tile, tile + 1, 2 * tile + 1, 3 * tile,
                               std::int64_t{4099}, max_test_items(std::int64_t{200'003})}) {
    for (const run_shape shape : every_run_shape()) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", " + name_of(shape));
      expect_encodes_like_the_host(runs_of_shape<int>(n, shape, tile, seed + n), policy_encode<Policy, int>());
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST_F(DeviceRunLengthEncode, SmallTilesOverManyTilesMatchAHostLoop) {
  expect_small_tiles_encode_like_the_host<select_policy<32, 2, tile_io::transpose, 0, 1, 0>>();
}

// 128-item tiles (the smallest that a warp copies in 16-byte pieces) on two resident blocks.
TEST_F(DeviceRunLengthEncode, SmallTilesReducingAheadOnTwoBlocksMatchAHostLoop) {
  expect_small_tiles_encode_like_the_host<
      select_policy<32, 4, tile_io::transpose, 0, 1, 0, tile_schedule::reduce_ahead, 2>>();
}

// 32-bit lengths, as CUB writes them: the same runs, and inputs too long for them refused.
TEST_F(DeviceRunLengthEncode, ThirtyTwoBitLengthsMatchAHostLoop) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  constexpr std::int64_t tile = default_run_length_policy<int>::tile_items;
  for (const std::int64_t n : {std::int64_t{1}, tile + 1, max_test_items(std::int64_t{1'000'003})}) {
    for (const run_shape shape : every_run_shape()) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", " + name_of(shape));
      const auto items = runs_of_shape<int>(n, shape, tile, seed + n);
      expect_encodes_like_the_host<int, std::int32_t>(items, policy_encode<void, int, std::int32_t>());
      expect_encodes_like_the_host<int, std::uint32_t>(items, policy_encode<void, int, std::uint32_t>());
      expect_encodes_like_the_host<int, std::int32_t>(items,
                                                      policy_encode<two_block_reduce_ahead<int>, int, std::int32_t>());
      expect_encodes_like_the_host<int, std::int32_t>(items, policy_encode<block_per_tile<int>, int, std::int32_t>());
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  device_buffer<std::uint8_t> in(64), values(64);
  device_buffer<std::int32_t> lengths(64);
  device_buffer<std::int64_t> count(1);
  std::size_t bytes = 0;
  const std::int64_t too_long = std::int64_t{1} << 31;  // one run of 2^31 would not fit in int32
  EXPECT_EQ(upsweep::run_length_encode(nullptr, bytes, static_cast<const std::uint8_t*>(in.data()), values.data(),
                                       lengths.data(), count.data(), too_long),
            cudaErrorInvalidValue);
}

TEST_F(DeviceRunLengthEncode, AgreesWithCubEncode) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{1000}, std::int64_t{65537}, max_test_items(std::int64_t{100'000'000})}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    device_buffer<int> in(n), ours(n), theirs(n);
    device_buffer<std::int64_t> our_lengths(n), their_lengths(n), counts(2);
    CUDA_OK(fill_random(in.data(), n, seed + n, 0, 2));  // runs of about 1.5 items
    upsweep::run_length_encode(static_cast<const int*>(in.data()), ours.data(), our_lengths.data(), counts.data(), n);
    std::size_t bytes = 0;
    CUDA_OK(cub::DeviceRunLengthEncode::Encode(nullptr, bytes, in.data(), theirs.data(), their_lengths.data(),
                                               counts.data() + 1, static_cast<int>(n)));
    device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
    CUDA_OK(cub::DeviceRunLengthEncode::Encode(temp.data(), bytes, in.data(), theirs.data(), their_lengths.data(),
                                               counts.data() + 1, static_cast<int>(n)));
    CUDA_OK(cudaDeviceSynchronize());
    const auto c = counts.download();
    ASSERT_EQ(c[0], c[1]) << "number of runs";
    ASSERT_GT(c[0], n / 2);
    expect_same_bytes(ours.download(c[0]).data(), theirs.download(c[0]).data(), c[0], "run values against CUB");
    expect_same_bytes(our_lengths.download(c[0]).data(), their_lengths.download(c[0]).data(), c[0],
                      "run lengths against CUB");
  }
}

TEST_F(DeviceRunLengthEncode, RejectsOverlapsNullsAndNegativeCounts) {
  const std::int64_t n = 1000;
  device_buffer<int> in(2 * n), values(n);
  device_buffer<std::int64_t> lengths(n), count(1);
  std::size_t bytes = 0;
  CUDA_OK(upsweep::run_length_encode(nullptr, bytes, static_cast<const int*>(in.data()), values.data(),
                                     lengths.data(), count.data(), n));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  const auto call = [&](const int* d_in, int* d_values, std::int64_t* d_lengths, std::int64_t* d_count,
                        std::int64_t num) {
    return upsweep::run_length_encode(temp.data(), bytes, d_in, d_values, d_lengths, d_count, num);
  };
  EXPECT_EQ(call(in.data(), in.data() + 1, lengths.data(), count.data(), n), cudaErrorInvalidValue);
  EXPECT_EQ(call(in.data(), in.data(), lengths.data(), count.data(), n), cudaErrorInvalidValue);
  EXPECT_EQ(call(in.data(), values.data(), reinterpret_cast<std::int64_t*>(in.data()), count.data(), n),
            cudaErrorInvalidValue);
  EXPECT_EQ(call(nullptr, values.data(), lengths.data(), count.data(), n), cudaErrorInvalidValue);
  EXPECT_EQ(call(in.data(), values.data(), lengths.data(), nullptr, n), cudaErrorInvalidValue);
  EXPECT_EQ(call(in.data(), values.data(), lengths.data(), count.data(), -1), cudaErrorInvalidValue);
  EXPECT_THROW(upsweep::run_length_encode(static_cast<const int*>(in.data()), in.data(), lengths.data(), n),
               upsweep::cuda_error);
  // n = 0: no run, and the count says so.
  CUDA_OK(cudaMemset(count.data(), poison_byte, sizeof(std::int64_t)));
  CUDA_OK(call(in.data(), values.data(), lengths.data(), count.data(), 0));
  CUDA_OK(cudaDeviceSynchronize());
  EXPECT_EQ(count.download()[0], 0);
}

TEST_F(DeviceRunLengthEncode, CoreCallIsCapturedInACudaGraphOnANonBlockingStreamAndReplays) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = max_test_items(std::int64_t{300'007});
  const auto host_in = runs_of_shape<std::int64_t>(n, run_shape::short_runs, 4096, seed);
  const encoded<std::int64_t> want = encode_on_host(host_in);
  device_buffer<std::int64_t> in(host_in), values(n), lengths(n), count(1);
  std::size_t bytes = 0;
  CUDA_OK(upsweep::run_length_encode(nullptr, bytes, static_cast<const std::int64_t*>(in.data()), values.data(),
                                     lengths.data(), count.data(), n));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  expect_graph_replays(
      [&](cudaStream_t stream) {
        return upsweep::run_length_encode(temp.data(), bytes, static_cast<const std::int64_t*>(in.data()),
                                          values.data(), lengths.data(), count.data(), n, stream);
      },
      [&](cudaStream_t stream) {
        CUDA_OK(cudaMemsetAsync(values.data(), poison_byte, n * sizeof(std::int64_t), stream));
        CUDA_OK(cudaMemsetAsync(lengths.data(), poison_byte, n * sizeof(std::int64_t), stream));
      },
      [&] {
        const auto runs = static_cast<std::int64_t>(want.values.size());
        ASSERT_EQ(count.download()[0], runs);
        EXPECT_EQ(values.download(runs), want.values);
        EXPECT_EQ(lengths.download(runs), want.lengths);
      });
}

// Past 2^31 items with more than 2^31 runs: run numbers, tile ids, head positions and the
// look-back pairs are all 64-bit. Every value and length is checked against a host pass.
// encode(d_in, d_values, d_lengths, d_count, n) runs the encoder to completion.
template <class Encode>
void expect_past_2_to_31_items_encode_like_a_host_pass(Encode encode) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = (std::int64_t{1} << 31) + (std::int64_t{1} << 24);
  device_buffer<std::uint8_t> in(n), values(n, guard_items);
  device_buffer<std::int64_t> lengths(n, guard_items), count(1);
  CUDA_OK(fill_random<std::uint8_t>(in.data(), n, seed, 0, 255));  // a run continues 1 time in 256
  CUDA_OK(poison<std::uint8_t>(values.data(), n + guard_items, poison_byte));
  CUDA_OK(cudaMemset(lengths.data(), poison_byte, (n + guard_items) * sizeof(std::int64_t)));
  encode(static_cast<const std::uint8_t*>(in.data()), values.data(), lengths.data(), count.data(), n);
  if (::testing::Test::HasFatalFailure()) return;
  const std::int64_t runs = count.download()[0];
  EXPECT_GT(runs, std::int64_t{1} << 31);
  const auto host_in = in.download();
  const auto got_values = values.download(n + guard_items);
  const auto got_lengths = lengths.download(n + guard_items);
  std::int64_t run = -1, run_start = 0, mismatch = -1;
  for (std::int64_t i = 0; i <= n && mismatch < 0; ++i) {
    if (i < n && i > 0 && host_in[i] == host_in[i - 1]) continue;
    if (run >= 0 && (run >= runs || got_lengths[run] != i - run_start)) mismatch = run;  // run ends at i
    if (i == n) break;
    ++run;
    run_start = i;
    if (run >= runs || got_values[run] != host_in[i]) mismatch = run;
  }
  ASSERT_EQ(mismatch, -1) << "first mismatch at run " << mismatch;
  ASSERT_EQ(run + 1, runs);
  std::int64_t poisoned_length = 0;
  std::memset(&poisoned_length, poison_byte, sizeof(poisoned_length));
  for (std::int64_t j = runs; j < n + guard_items; ++j) {
    ASSERT_EQ(got_values[j], poison_byte) << "value written past the count at " << j;
    ASSERT_EQ(got_lengths[j], poisoned_length) << "length written past the count at " << j;
  }
}

// The compiled API's convenience call: a block per tile for bytes.
TEST_F(DeviceRunLengthEncode, LargeEncodePast2To31ItemsWithMoreThan2To31Runs) {
  expect_past_2_to_31_items_encode_like_a_host_pass(
      [](const std::uint8_t* in, std::uint8_t* values, std::int64_t* lengths, std::int64_t* count, std::int64_t n) {
        upsweep::run_length_encode(in, values, lengths, count, n);
        CUDA_OK(cudaDeviceSynchronize());
      });
}

// Reduce-ahead on every resident block, through the general tile state past 2^31 items.
TEST_F(DeviceRunLengthEncode, LargeEncodeReducingAheadPast2To31ItemsWithMoreThan2To31Runs) {
  expect_past_2_to_31_items_encode_like_a_host_pass(
      [](const std::uint8_t* in, std::uint8_t* values, std::int64_t* lengths, std::int64_t* count, std::int64_t n) {
        using reduce_ahead = run_length_schedule<std::uint8_t, tile_schedule::reduce_ahead>;
        std::size_t bytes = 0;
        CUDA_OK(upsweep::run_length_encode<reduce_ahead>(nullptr, bytes, in, values, lengths, count, n));
        device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
        CUDA_OK(upsweep::run_length_encode<reduce_ahead>(temp.data(), bytes, in, values, lengths, count, n));
        CUDA_OK(cudaDeviceSynchronize());
      });
}

}  // namespace
}  // namespace upsweep::test
