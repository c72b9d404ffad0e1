// The segmented reduce against a host loop and CUB's DeviceSegmentedReduce: empty segments, of one
// item, of 32 +- 1, of 16384 +- 1 (the edge between a warp and the block), several long ones in
// one block, of 10^8 items, 10^6 segments of random length, offsets as one array and as two,
// overlapping segments, a non-commutative operator (2x2 matrix product), bad arguments.
#include <upsweep/scan/device_segmented_reduce.cuh>

#include "scan_test_support.cuh"

#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/std/functional>

namespace upsweep::test {
namespace {

template <class A, class T, class Op>
std::vector<A> reduce_segments_on_host(const std::vector<T>& in, const std::vector<std::int64_t>& begins,
                                       const std::vector<std::int64_t>& ends, Op op, A init) {
  std::vector<A> out(begins.size());
  for (std::size_t s = 0; s < begins.size(); ++s) {
    A running = init;
    for (std::int64_t i = begins[s]; i < ends[s]; ++i) running = op(running, static_cast<A>(in[i]));
    out[s] = running;
  }
  return out;
}

// Offsets of back-to-back segments with the given lengths.
std::vector<std::int64_t> offsets_of(const std::vector<std::int64_t>& lengths) {
  std::vector<std::int64_t> offsets(lengths.size() + 1, 0);
  for (std::size_t s = 0; s < lengths.size(); ++s) offsets[s + 1] = offsets[s] + lengths[s];
  return offsets;
}

template <class A, class T, class Op>
void expect_reduces_like_the_host(const std::vector<T>& in, const std::vector<std::int64_t>& begins,
                                  const std::vector<std::int64_t>& ends, Op op, A init) {
  const auto segments = static_cast<std::int64_t>(begins.size());
  const auto want = reduce_segments_on_host(in, begins, ends, op, init);
  device_buffer<T> d_in(in);
  device_buffer<std::int64_t> d_begins(begins), d_ends(ends);
  device_buffer<A> d_out(segments, guard_items);
  CUDA_OK(cudaMemset(d_out.data(), poison_byte, (segments + guard_items) * sizeof(A)));
  std::size_t bytes = 0;
  CUDA_OK(segmented_reduce(nullptr, bytes, d_in.data(), d_out.data(), segments, d_begins.data(), d_ends.data(), op,
                           init));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  CUDA_OK(segmented_reduce(temp.data(), bytes, d_in.data(), d_out.data(), segments, d_begins.data(), d_ends.data(),
                           op, init));
  CUDA_OK(cudaDeviceSynchronize());
  const auto got = d_out.download(segments + guard_items);
  for (std::int64_t s = 0; s < segments; ++s)
    ASSERT_EQ(0, std::memcmp(&got[s], &want[s], sizeof(A))) << "segment " << s << " [" << begins[s] << ", " << ends[s]
                                                            << ")";
  std::vector<A> poisoned(guard_items);
  std::memset(poisoned.data(), poison_byte, guard_items * sizeof(A));
  ASSERT_EQ(0, std::memcmp(got.data() + segments, poisoned.data(), guard_items * sizeof(A))) << "written past the end";
}

class SegmentedReduce : public gpu_test {};

TEST_F(SegmentedReduce, EdgeLengthsMatchTheHost) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  // Around a warp, a round of 32 x 8 items, the block's threshold of 16384 items, and past it.
  const std::vector<std::int64_t> lengths = {0,   1,     0,     31,    32, 33, 127,     128,   129,   255,  256,
                                            257, 511,   512,   513,   0,  3,  16383,   16384, 16385, 20000,
                                            20001, 65537, 200'003};
  const auto offsets = offsets_of(lengths);
  const auto in = random_small_ints<std::int64_t>(offsets.back(), seed, -1000, 1000);
  const std::vector<std::int64_t> begins(offsets.begin(), offsets.end() - 1), ends(offsets.begin() + 1, offsets.end());
  expect_reduces_like_the_host(in, begins, ends, cuda::std::plus<>{}, std::int64_t{7});
}

TEST_F(SegmentedReduce, RandomLengthsAndAMatrixProductKeepOrder) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  std::mt19937_64 rng(seed);
  std::vector<std::int64_t> lengths(max_test_items(std::int64_t{100'000}));
  for (auto& length : lengths) length = static_cast<std::int64_t>(rng() % 200);
  lengths[lengths.size() / 2] = 70'001;  // one for the whole block
  const auto offsets = offsets_of(lengths);
  std::vector<mat2> in(static_cast<std::size_t>(offsets.back()));
  for (auto& m : in) m = {{static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()),
                           static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng())}};
  const std::vector<std::int64_t> begins(offsets.begin(), offsets.end() - 1), ends(offsets.begin() + 1, offsets.end());
  expect_reduces_like_the_host(in, begins, ends, mat_mul{}, mat2{{1, 0, 0, 1}});
}

// Segments that overlap, skip items, come in any order, or end before they begin (init).
TEST_F(SegmentedReduce, OverlappingUnorderedAndReversedSegmentsMatchTheHost) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  std::mt19937_64 rng(seed);
  const std::int64_t n = 300'000;
  const auto in = random_small_ints<std::int32_t>(n, seed, -1000, 1000);
  std::vector<std::int64_t> begins(5000), ends(5000);
  for (std::size_t s = 0; s < begins.size(); ++s) {
    begins[s] = static_cast<std::int64_t>(rng() % n);
    ends[s] = s % 10 == 0 ? begins[s] - 1 : std::min<std::int64_t>(n, begins[s] + static_cast<std::int64_t>(rng() % 100'000));
  }
  expect_reduces_like_the_host(in, begins, ends, cuda::std::plus<>{}, std::int64_t{0});
}

TEST_F(SegmentedReduce, MatchesCubOnAMillionSegmentsOfOneOffsetsArray) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  std::mt19937_64 rng(seed);
  std::vector<std::int64_t> lengths(max_test_items(std::int64_t{1'000'000}));
  for (auto& length : lengths) length = static_cast<std::int64_t>(rng() % 201);
  const auto offsets = offsets_of(lengths);
  const auto segments = static_cast<std::int64_t>(lengths.size());
  device_buffer<int> in(offsets.back()), ours(segments), theirs(segments);
  check(fill_random(in.data(), offsets.back(), seed, -1000, 1000), "fill_random");
  device_buffer<std::int64_t> d_offsets(offsets);
  segmented_sum(in.data(), ours.data(), segments, d_offsets.data(), d_offsets.data() + 1);
  std::size_t bytes = 0;
  CUDA_OK(cub::DeviceSegmentedReduce::Sum(nullptr, bytes, in.data(), theirs.data(), segments, d_offsets.data(),
                                          d_offsets.data() + 1));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  CUDA_OK(cub::DeviceSegmentedReduce::Sum(temp.data(), bytes, in.data(), theirs.data(), segments, d_offsets.data(),
                                          d_offsets.data() + 1));
  CUDA_OK(cudaDeviceSynchronize());
  const auto a = ours.download(), b = theirs.download();
  for (std::int64_t s = 0; s < segments; ++s) ASSERT_EQ(a[s], b[s]) << "segment " << s;
}

// Three segments of 10^8 items (one block each) beside small ones, against CUB.
TEST_F(SegmentedReduce, SegmentsOfAHundredMillionItemsMatchCub) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t big = max_test_items(std::int64_t{100'000'000});
  const auto offsets = offsets_of({big, 5, big, 0, big});
  device_buffer<std::int64_t> in(offsets.back()), ours(5), theirs(5);
  check(fill_random<std::int64_t>(in.data(), offsets.back(), seed, -1'000'000, 1'000'000), "fill_random");
  device_buffer<std::int64_t> d_offsets(offsets);
  segmented_sum(in.data(), ours.data(), 5, d_offsets.data(), d_offsets.data() + 1);
  std::size_t bytes = 0;
  CUDA_OK(cub::DeviceSegmentedReduce::Sum(nullptr, bytes, in.data(), theirs.data(), 5, d_offsets.data(),
                                          d_offsets.data() + 1));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  CUDA_OK(cub::DeviceSegmentedReduce::Sum(temp.data(), bytes, in.data(), theirs.data(), 5, d_offsets.data(),
                                          d_offsets.data() + 1));
  CUDA_OK(cudaDeviceSynchronize());
  EXPECT_EQ(ours.download(), theirs.download());
}

TEST_F(SegmentedReduce, RefusesBadArgumentsAndDoesNothingForNoSegments) {
  device_buffer<int> in(10), out(10);
  device_buffer<std::int64_t> offsets(11);
  std::size_t bytes = 0;
  CUDA_OK(segmented_sum(nullptr, bytes, in.data(), out.data(), 10, offsets.data(), offsets.data() + 1));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  EXPECT_EQ(cudaErrorInvalidValue,
            segmented_sum(temp.data(), bytes, in.data(), out.data(), -1, offsets.data(), offsets.data() + 1));
  EXPECT_EQ(cudaErrorInvalidValue, segmented_sum(temp.data(), bytes, static_cast<int*>(nullptr), out.data(), 10,
                                                 offsets.data(), offsets.data() + 1));
  EXPECT_EQ(cudaErrorInvalidValue, segmented_sum(temp.data(), bytes, in.data(), out.data(), 10,
                                                 static_cast<std::int64_t*>(nullptr), offsets.data() + 1));
  EXPECT_EQ(cudaSuccess, segmented_sum(temp.data(), bytes, in.data(), out.data(), 0, offsets.data(), offsets.data()));
  CUDA_OK(cudaDeviceSynchronize());
}

}  // namespace
}  // namespace upsweep::test
