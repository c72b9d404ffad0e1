// Stream compaction against std::copy_if, std::remove_copy_if, std::count_if and CUB: element
// sizes 1 to 16 bytes (odd sizes too), every selection pattern at sizes around warp and tile
// boundaries, in place, flags of a non-bool type, device lambdas, both API layers, a CUDA graph,
// and past 2^31 items with more than 2^31 selected.
#include <upsweep/compact/device_select.cuh>
#include <upsweep/compact/device_unique.cuh>

#include "compact_test_support.cuh"

#include <cub/device/device_select.cuh>

#include <algorithm>
#include <iterator>

namespace upsweep::test {
namespace {

template <class T>
auto select_marked() {
  return [](void* t, std::size_t& b, const T* in, T* out, std::int64_t* c, std::int64_t n, cudaStream_t s) {
    return upsweep::select_if(t, b, in, out, c, n, is_marked{}, s);
  };
}

template <class T>
class DeviceSelectTyped : public gpu_test {};
using select_types = ::testing::Types<std::uint8_t, std::uint16_t, rgb3, std::int32_t, std::uint64_t, vec12, vec16>;
TYPED_TEST_SUITE(DeviceSelectTyped, select_types);

TYPED_TEST(DeviceSelectTyped, SelectIfMatchesCopyIfAtEverySize) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : compact_sizes(tile_of<T>())) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto in = marked_items<T>(n, pattern::half, seed + n);
    run_compact<T>(in, select_marked<T>(), copy_marked(in));
  }
}

TYPED_TEST(DeviceSelectTyped, EverySelectionPatternMatchesCopyIf) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t sizes[] = {1, 2, 33, tile_of<T>() + 1, max_test_items(999983)};
  for_each_marked_input<T>(sizes, every_pattern(), seed, [](const std::vector<T>& in) {
    run_compact<T>(in, select_marked<T>(), copy_marked(in));
  });
}

TYPED_TEST(DeviceSelectTyped, SelectIfWorksInPlace) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t sizes[] = {100, 3 * tile_of<T>() + 5, max_test_items(999983)};
  const pattern patterns[] = {pattern::half, pattern::all, pattern::alternating, pattern::one_per_mille,
                              pattern::only_last};
  for_each_marked_input<T>(sizes, patterns, seed, [](const std::vector<T>& in) {
    run_compact<T>(in, select_marked<T>(), copy_marked(in), true);
  });
}

// Flags of type int: any non-zero value selects, negative ones included.
TYPED_TEST(DeviceSelectTyped, SelectFlaggedTakesTheItemsWhoseFlagIsNonZero) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{33}, tile_of<T>() + 1, max_test_items(999983)}) {
    for (const pattern p : {pattern::half, pattern::one_per_mille, pattern::only_first}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", " + name_of(p));
      const auto in = marked_items<T>(n, pattern::half, seed + n);  // marks unrelated to the flags
      std::vector<int> flags(static_cast<std::size_t>(n));
      std::vector<T> expected;
      for (std::int64_t i = 0; i < n; ++i) {
        flags[i] = selected_at(p, i, n, seed) ? ((static_cast<int>(mix64(seed + i) % 2000) - 1000) | 1) : 0;
        if (flags[i] != 0) expected.push_back(in[i]);
      }
      device_buffer<int> d_flags(flags);
      const int* f = d_flags.data();
      run_compact<T>(in, [f](void* t, std::size_t& b, const T* i, T* o, std::int64_t* c, std::int64_t m, cudaStream_t s) {
        return upsweep::select_flagged(t, b, i, f, o, c, m, s);
      }, expected);
    }
  }
}

TYPED_TEST(DeviceSelectTyped, RemoveIfKeepsTheOthersInOrder) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{32}, tile_of<T>(), max_test_items(999983)}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto in = marked_items<T>(n, pattern::one_per_mille, seed + n);
    std::vector<T> expected;
    std::remove_copy_if(in.begin(), in.end(), std::back_inserter(expected), is_marked{});
    run_compact<T>(in, [](void* t, std::size_t& b, const T* i, T* o, std::int64_t* c, std::int64_t m, cudaStream_t s) {
      return upsweep::remove_if(t, b, i, o, c, m, is_marked{}, s);
    }, expected);
  }
}

TYPED_TEST(DeviceSelectTyped, CountIfMatchesTheHostCount) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{0}, std::int64_t{1}, tile_of<T>() + 1, max_test_items(10'000'001)}) {
    for (const pattern p : {pattern::none, pattern::half, pattern::all}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", " + name_of(p));
      const auto in = marked_items<T>(n, p, seed + n);
      device_buffer<T> d_in(in);
      EXPECT_EQ(upsweep::count_if(static_cast<const T*>(d_in.data()), n, is_marked{}),
                std::count_if(in.begin(), in.end(), is_marked{}));
    }
  }
}

class DeviceSelect : public gpu_test {};

// The reduce-ahead schedule on two persistent blocks, so that each takes many tiles even at the
// sanitizers' capped sizes.
using two_block_reduce_ahead = select_policy<256, 16, tile_io::transpose, default_look_back_delay_ns, 6, 0,
                                             tile_schedule::reduce_ahead, 2>;

TEST_F(DeviceSelect, ReduceAheadOnTwoBlocksMatchesCopyIfInAndOutOfPlace) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const auto select = [](void* t, std::size_t& b, const int* in, int* out, std::int64_t* c, std::int64_t n,
                         cudaStream_t s) {
    return upsweep::select_if<two_block_reduce_ahead>(t, b, in, out, c, n, is_marked{}, s);
  };
  const std::int64_t sizes[] = {3 * 4096 + 5, 16 * 4096, max_test_items(999983)};
  for_each_marked_input<int>(sizes, every_pattern(), seed, [&](const std::vector<int>& in) {
    run_compact<int>(in, select, copy_marked(in));
    run_compact<int>(in, select, copy_marked(in), true);
  });
}

// Copying a tile ahead (three buffers in turn) on two persistent blocks, in and out of place, and
// unique on it.
template <class Policy>
void expect_copying_ahead_like_copy_if() {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const auto select = [](void* t, std::size_t& b, const int* in, int* out, std::int64_t* c, std::int64_t n,
                         cudaStream_t s) { return upsweep::select_if<Policy>(t, b, in, out, c, n, is_marked{}, s); };
  const auto unique = [](void* t, std::size_t& b, const int* in, int* out, std::int64_t* c, std::int64_t n,
                         cudaStream_t s) { return upsweep::unique<Policy>(t, b, in, out, c, n, s); };
  constexpr std::int64_t tile = Policy::tile_items;
  const std::int64_t sizes[] = {tile, 2 * tile + 1, 3 * tile + 5, 16 * tile, max_test_items(999983)};
  for_each_marked_input<int>(sizes, every_pattern(), seed, [&](const std::vector<int>& in) {
    run_compact<int>(in, select, copy_marked(in));
    run_compact<int>(in, select, copy_marked(in), true);
    std::vector<int> heads;
    std::unique_copy(in.begin(), in.end(), std::back_inserter(heads));
    run_compact<int>(in, unique, heads);
  });
}

TEST_F(DeviceSelect, CopyingAheadOnTwoBlocksMatchesCopyIfInAndOutOfPlace) {
  expect_copying_ahead_like_copy_if<two_block_copying_ahead>();
}

TEST_F(DeviceSelect, CopyingAheadInDynamicSharedMemoryMatchesCopyIfInAndOutOfPlace) {
  expect_copying_ahead_like_copy_if<two_block_copying_ahead_dynamic>();
}

// The same for 8-byte items on the 8-byte default's shapes, and unique on them.
TEST_F(DeviceSelect, WideReduceAheadOnTwoBlocksMatchesTheHostInAndOutOfPlace) {
  using T = std::uint64_t;
  using policy = two_block_wide_reduce_ahead;
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const auto select = [](void* t, std::size_t& b, const T* in, T* out, std::int64_t* c, std::int64_t n,
                         cudaStream_t s) { return upsweep::select_if<policy>(t, b, in, out, c, n, is_marked{}, s); };
  const auto unique = [](void* t, std::size_t& b, const T* in, T* out, std::int64_t* c, std::int64_t n,
                         cudaStream_t s) { return upsweep::unique<policy>(t, b, in, out, c, n, s); };
  const std::int64_t sizes[] = {2048, 3 * 2048 + 5, 16 * 2048, max_test_items(999983)};
  for_each_marked_input<T>(sizes, every_pattern(), seed, [&](const std::vector<T>& in) {
    run_compact<T>(in, select, copy_marked(in));
    run_compact<T>(in, select, copy_marked(in), true);
    // Runs where the marks say so: a marked item repeats the one before it.
    std::vector<T> runs(in);
    for (std::size_t i = 1; i < runs.size(); ++i)
      if (is_marked{}(in[i])) runs[i] = runs[i - 1];
    std::vector<T> heads;
    std::unique_copy(runs.begin(), runs.end(), std::back_inserter(heads));
    run_compact<T>(runs, unique, heads);
  });
}

TEST_F(DeviceSelect, EveryPatternAtEverySizeMatchesCopyIf) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : compact_sizes(tile_of<int>())) {
    for (const pattern p : every_pattern()) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", " + name_of(p));
      const auto in = marked_items<int>(n, p, seed + n);
      run_compact<int>(in, select_marked<int>(), copy_marked(in));
    }
  }
}

TEST_F(DeviceSelect, BoolFlagsSelectLikeTheirStencil) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = 3 * tile_of<int>() + 7;
  const auto in = marked_items<int>(n, pattern::half, seed);
  std::vector<unsigned char> flag_bytes(static_cast<std::size_t>(n));
  std::vector<int> expected;
  for (std::int64_t i = 0; i < n; ++i) {
    flag_bytes[i] = selected_at(pattern::alternating, i, n, seed) ? 1 : 0;
    if (flag_bytes[i]) expected.push_back(in[i]);
  }
  device_buffer<bool> d_flags(n);
  CUDA_OK(cudaMemcpy(d_flags.data(), flag_bytes.data(), flag_bytes.size(), cudaMemcpyHostToDevice));
  const bool* f = d_flags.data();
  run_compact<int>(in, [f](void* t, std::size_t& b, const int* i, int* o, std::int64_t* c, std::int64_t m, cudaStream_t s) {
    return upsweep::select_flagged(t, b, i, f, o, c, m, s);
  }, expected);
}

// Extended device lambdas cannot live inside a test body (a private member function).
cudaError_t select_multiples_of_three(void* t, std::size_t& b, const int* in, int* out, std::int64_t* c,
                                      std::int64_t n, cudaStream_t s) {
  return upsweep::select_if(t, b, in, out, c, n, [] __device__(int x) { return x % 3 == 0; }, s);
}

TEST_F(DeviceSelect, DeviceLambdaPredicateSelectsLikeTheHost) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{5}, std::int64_t{123457}}) {
    const auto in = random_host<int>(n, seed + n, -1000, 1000);
    std::vector<int> expected;
    std::copy_if(in.begin(), in.end(), std::back_inserter(expected), [](int x) { return x % 3 == 0; });
    run_compact<int>(in, select_multiples_of_three, expected);
  }
}

TEST_F(DeviceSelect, RunsOnANonBlockingStream) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const auto in = marked_items<std::uint64_t>(2'000'003, pattern::half, seed);
  run_compact<std::uint64_t>(in, select_marked<std::uint64_t>(), copy_marked(in), false, -1, stream);
  CUDA_OK(cudaStreamDestroy(stream));
}

TEST_F(DeviceSelect, CoreCallIsCapturedInACudaGraphAndReplays) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = 1'234'567;
  const auto host_in = marked_items<int>(n, pattern::half, seed);
  const auto expected = copy_marked(host_in);
  device_buffer<int> in(host_in), out(n);
  device_buffer<std::int64_t> count(1);
  std::size_t bytes = 0;
  CUDA_OK(upsweep::select_if(nullptr, bytes, static_cast<const int*>(in.data()), out.data(), count.data(), n, is_marked{}));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  expect_graph_replays(
      [&](cudaStream_t stream) {
        return upsweep::select_if(temp.data(), bytes, static_cast<const int*>(in.data()), out.data(), count.data(), n,
                                  is_marked{}, stream);
      },
      [&](cudaStream_t stream) {
        CUDA_OK(poison(out.data(), n, -1, stream));
        CUDA_OK(poison<std::int64_t>(count.data(), 1, -1, stream));
      },
      [&] {
        ASSERT_EQ(count.download()[0], static_cast<std::int64_t>(expected.size()));
        expect_same_bytes(out.download(count.download()[0]).data(), expected.data(), count.download()[0], "replay");
      },
      cudaStreamCaptureModeGlobal);
}

TEST_F(DeviceSelect, ConvenienceFormsReturnTheCountAndThrowOnBadArguments) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = 300'001;
  const auto host_in = marked_items<int>(n, pattern::half, seed);
  const auto expected = copy_marked(host_in);
  const auto want = static_cast<std::int64_t>(expected.size());
  device_buffer<int> in(host_in), out(n);
  const int* d_in = in.data();

  ASSERT_EQ(upsweep::select_if(d_in, out.data(), n, is_marked{}), want);
  expect_same_bytes(out.download(want).data(), expected.data(), want, "select_if");
  EXPECT_EQ(upsweep::remove_if(d_in, out.data(), n, is_marked{}), n - want);
  EXPECT_EQ(upsweep::count_if(d_in, n, is_marked{}), want);
  EXPECT_EQ(upsweep::select_if(d_in, out.data(), 0, is_marked{}), 0);

  device_buffer<std::int64_t> count(1);
  upsweep::select_if(d_in, out.data(), count.data(), n, is_marked{});
  CUDA_OK(cudaDeviceSynchronize());
  EXPECT_EQ(count.download()[0], want);

  EXPECT_THROW(upsweep::select_if(d_in, out.data(), -3, is_marked{}), upsweep::cuda_error);
  EXPECT_THROW(upsweep::count_if(d_in, -1, is_marked{}), upsweep::cuda_error);
  std::size_t bytes = 0;
  EXPECT_EQ(upsweep::select_if(nullptr, bytes, d_in, out.data(), count.data(), -1, is_marked{}), cudaErrorInvalidValue);
}

TEST_F(DeviceSelect, AgreesWithCubSelectIf) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (const std::int64_t n : {std::int64_t{1000}, std::int64_t{65537}, max_test_items(std::int64_t{100'000'000})}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto r = compare_with_cub(
        n, seed + n,
        [n](const int* in, int* out, std::int64_t* count) { upsweep::select_if(in, out, count, n, is_marked{}); },
        [n](void* t, std::size_t& b, const int* in, int* out, std::int64_t* count) {
          return cub::DeviceSelect::If(t, b, in, out, count, n, is_marked{});
        });
    ASSERT_EQ(r.ours_count, r.theirs_count);
    expect_same_bytes(r.ours.data(), r.theirs.data(), r.ours_count, "against CUB");
  }
}

struct is_nonzero {
  __host__ __device__ bool operator()(std::uint8_t x) const { return x != 0; }
};

// Past 2^31 items with more than 2^31 selected: counts, tile ids, offsets and the look-back sums
// are all 64-bit. The whole output and the guard after it are checked against a host scan.
TEST_F(DeviceSelect, LargeSelectPast2To31ItemsKeepsMoreThan2To31InOrder) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = (std::int64_t{1} << 31) + (std::int64_t{1} << 24);
  device_buffer<std::uint8_t> in(n), out(n, guard_items);
  device_buffer<std::int64_t> count(1);
  CUDA_OK(fill_random<std::uint8_t>(in.data(), n, seed, 0, 255));  // about 1 in 256 rejected
  CUDA_OK(poison<std::uint8_t>(out.data(), n + guard_items, poison_byte));
  upsweep::select_if(static_cast<const std::uint8_t*>(in.data()), out.data(), count.data(), n, is_nonzero{});
  CUDA_OK(cudaDeviceSynchronize());
  const std::int64_t selected = count.download()[0];
  EXPECT_GT(selected, std::int64_t{1} << 31);
  const auto host_in = in.download();
  const auto host_out = out.download(n + guard_items);
  std::int64_t next = 0, mismatch = -1;
  for (std::int64_t i = 0; i < n; ++i) {
    if (host_in[i] == 0) continue;
    if (mismatch < 0 && (next >= selected || host_out[next] != host_in[i])) mismatch = next;
    ++next;
  }
  ASSERT_EQ(mismatch, -1) << "first mismatch at output index " << mismatch;
  ASSERT_EQ(next, selected);
  for (std::int64_t j = selected; j < n + guard_items; ++j)
    ASSERT_EQ(host_out[j], poison_byte) << "written past the count at " << j;
}

}  // namespace
}  // namespace upsweep::test
