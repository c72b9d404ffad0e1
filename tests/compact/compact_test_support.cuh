// Shared pieces of the compaction GPU tests: element types of 1 to 16 bytes whose lowest bit
// says whether they are selected (one predicate serves every pattern and the host reference),
// the selection patterns, and a runner that poisons the output and guards what follows it.
#pragma once

#include "../scan/scan_test_support.cuh"
#include "../support/graph_replay.hpp"

#include <upsweep/compact/detail/select_tuning.cuh>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace upsweep::test {

struct rgb3 {  // odd size, byte aligned: never vectorised
  std::uint8_t c[3];
};
struct vec12 {
  std::uint32_t x, y, z;
};
struct vec16 {
  std::uint32_t x, y, z, w;
};

// The first byte in memory is the low byte of an integer on every CUDA platform.
template <class T>
__host__ __device__ inline bool low_bit_of(const T& item) {
  unsigned char first;
  memcpy(&first, &item, 1);
  return (first & 1u) != 0;
}

// Items in one select tile of the default policy for T.
template <class T>
constexpr std::int64_t tile_of() {
  return default_select_policy<T>::tile_items;
}

// The 8-byte default's shapes (reduce-ahead 128 x 16, a block per tile of 256 x 8 for few tiles)
// on two persistent blocks, so that small inputs reduce ahead too.
struct two_block_wide_reduce_ahead
    : select_policy<128, 16, tile_io::transpose, default_look_back_delay_ns, 8, 0, tile_schedule::reduce_ahead, 2> {
  using few_tiles = select_policy<256, 8, tile_io::transpose, default_look_back_delay_ns, 4, 1200,
                                  tile_schedule::block_per_tile, 2>;
};

// Select's reduce-ahead with the next tile's copy in flight (three buffers in turn) on two
// persistent blocks: buffers in static shared memory, and past 48 KB in dynamic.
template <int Threads, int MinBlocksPerSm>
struct two_block_copying_ahead_of
    : select_policy<Threads, 16, tile_io::transpose, default_look_back_delay_ns, MinBlocksPerSm, 0,
                    tile_schedule::reduce_ahead, 2> {
  static constexpr int tiles_copied_ahead = 1;
};
using two_block_copying_ahead = two_block_copying_ahead_of<128, 8>;
using two_block_copying_ahead_dynamic = two_block_copying_ahead_of<256, 4>;

struct is_marked {
  template <class T>
  __host__ __device__ bool operator()(const T& item) const {
    return low_bit_of(item);
  }
};

template <class T>
T make_item(std::uint64_t seed, std::int64_t i, bool marked) {
  unsigned char bytes[16];
  const std::uint64_t words[2] = {mix64(seed ^ mix64(2 * i)), mix64(seed ^ mix64(2 * i + 1))};
  std::memcpy(bytes, words, sizeof(bytes));
  bytes[0] = static_cast<unsigned char>((bytes[0] & ~1u) | (marked ? 1u : 0u));
  T item;
  std::memcpy(&item, bytes, sizeof(T));
  return item;
}

enum class pattern { none, one_per_mille, half, all_but_one_per_mille, all, only_first, only_last, alternating };

inline const std::vector<pattern>& every_pattern() {
  static const std::vector<pattern> all = {pattern::none, pattern::one_per_mille, pattern::half,
                                           pattern::all_but_one_per_mille, pattern::all, pattern::only_first,
                                           pattern::only_last, pattern::alternating};
  return all;
}

inline std::string name_of(pattern p) {
  switch (p) {
    case pattern::none: return "none selected";
    case pattern::one_per_mille: return "0.1% selected";
    case pattern::half: return "50% selected";
    case pattern::all_but_one_per_mille: return "99.9% selected";
    case pattern::all: return "all selected";
    case pattern::only_first: return "only the first selected";
    case pattern::only_last: return "only the last selected";
    case pattern::alternating: return "every other selected";
  }
  return "?";
}

inline bool selected_at(pattern p, std::int64_t i, std::int64_t n, std::uint64_t seed) {
  const std::uint64_t draw = mix64(seed + 0x51ed270b27ull * static_cast<std::uint64_t>(i)) % 1000;
  switch (p) {
    case pattern::none: return false;
    case pattern::one_per_mille: return draw == 0;
    case pattern::half: return draw < 500;
    case pattern::all_but_one_per_mille: return draw != 0;
    case pattern::all: return true;
    case pattern::only_first: return i == 0;
    case pattern::only_last: return i == n - 1;
    case pattern::alternating: return i % 2 == 1;
  }
  return false;
}

template <class T>
std::vector<T> marked_items(std::int64_t n, pattern p, std::uint64_t seed) {
  std::vector<T> items(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) items[i] = make_item<T>(seed, i, selected_at(p, i, n, seed));
  return items;
}

// The host reference of select_if with is_marked.
template <class T>
std::vector<T> copy_marked(const std::vector<T>& in) {
  std::vector<T> out;
  for (const T& item : in)
    if (is_marked{}(item)) out.push_back(item);
  return out;
}

// Calls check(items) for marked items of every size and pattern given, each under a trace
// naming both (the seed's trace is the caller's).
template <class T, class Sizes, class Patterns, class Check>
void for_each_marked_input(const Sizes& sizes, const Patterns& patterns, std::uint64_t seed, Check check) {
  for (const std::int64_t n : sizes) {
    for (const pattern p : patterns) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", " + name_of(p));
      check(marked_items<T>(n, p, seed + n));
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// Sizes around warp and tile boundaries, a prime past many tiles, and the largest routine size.
inline std::vector<std::int64_t> compact_sizes(std::int64_t tile) {
  // Ten tiles and one: past one portable cluster, a block per tile. 999983 items hold more tiles
  // than SMs, so select, the scans by key and run-length encoding take their one-wave tiles there.
  return {0, 1, 2, 31, 32, 33, tile - 1, tile, tile + 1, 10 * tile + 1, max_test_items(999983),
          max_test_items(10'000'001)};
}

template <class T>
void expect_same_bytes(const T* got, const T* expected, std::int64_t count, const char* what) {
  for (std::int64_t i = 0; i < count; ++i)
    ASSERT_EQ(0, std::memcmp(got + i, expected + i, sizeof(T))) << what << ": first mismatch at index " << i
                                                                << " of " << count;
}

// Runs a core-layer call `call(d_temp, bytes, d_in, d_out, d_count, n, stream)` on a copy of
// `host_in`. Checks the count (`expected_count`, or expected.size() when negative) and the first
// `expected.size()` outputs against `expected`, that everything after them (the rest of the
// output and a guard) still holds the poison (in place: the original input), and that the input
// is unchanged when not in place.
template <class T, class Call>
void run_compact(const std::vector<T>& host_in, Call call, const std::vector<T>& expected, bool in_place = false,
                 std::int64_t expected_count = -1, cudaStream_t stream = 0) {
  const auto n = static_cast<std::int64_t>(host_in.size());
  const auto want = static_cast<std::int64_t>(expected.size());
  if (expected_count < 0) expected_count = want;
  device_buffer<T> in(n + guard_items), out(n + guard_items);
  device_buffer<std::int64_t> count(1);
  CUDA_OK(cudaMemset(in.data(), poison_byte, (n + guard_items) * sizeof(T)));
  CUDA_OK(cudaMemset(out.data(), poison_byte, (n + guard_items) * sizeof(T)));
  CUDA_OK(cudaMemset(count.data(), poison_byte, sizeof(std::int64_t)));
  if (n > 0) CUDA_OK(cudaMemcpy(in.data(), host_in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  T* d_out = in_place ? in.data() : out.data();

  std::size_t bytes = 0;
  CUDA_OK(call(nullptr, bytes, static_cast<const T*>(in.data()), d_out, count.data(), n, stream));
  ASSERT_GT(bytes, 0u);
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  CUDA_OK(call(temp.data(), bytes, static_cast<const T*>(in.data()), d_out, count.data(), n, stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  CUDA_OK(cudaGetLastError());

  ASSERT_EQ(count.download()[0], expected_count) << "selected count";
  std::vector<T> got(static_cast<std::size_t>(n + guard_items));
  CUDA_OK(cudaMemcpy(got.data(), d_out, got.size() * sizeof(T), cudaMemcpyDeviceToHost));
  expect_same_bytes(got.data(), expected.data(), want, "output");
  // Past the count: the untouched input in place, the poison otherwise; the guard in both cases.
  std::vector<T> untouched(got.size());
  std::memset(untouched.data(), poison_byte, untouched.size() * sizeof(T));
  if (in_place && n > 0) std::memcpy(untouched.data(), host_in.data(), n * sizeof(T));
  expect_same_bytes(got.data() + want, untouched.data() + want, n + guard_items - want, "written past the count");
  if (!in_place) expect_same_bytes(in.download(n).data(), host_in.data(), n, "input changed");
}

// Upsweep and CUB run on the same random ints: `ours(d_in, d_out, d_count)` and
// `theirs(d_temp, bytes, d_in, d_out, d_count)` (a CUB two-phase call).
struct cub_comparison {
  std::vector<int> ours, theirs;
  std::int64_t ours_count = 0, theirs_count = 0;
};

template <class Ours, class Theirs>
cub_comparison compare_with_cub(std::int64_t n, std::uint64_t seed, Ours ours, Theirs theirs) {
  device_buffer<int> in(n), d_ours(n), d_theirs(n);
  device_buffer<std::int64_t> counts(2);
  check(fill_random(in.data(), n, seed, -1'000'000, 1'000'000), "fill_random");
  // Poisoned: only the selected prefix is written, and the whole buffers are downloaded.
  check(cudaMemset(d_ours.data(), poison_byte, n * sizeof(int)), "cudaMemset");
  check(cudaMemset(d_theirs.data(), poison_byte, n * sizeof(int)), "cudaMemset");
  const int* d_in = in.data();
  ours(d_in, d_ours.data(), counts.data());
  std::size_t bytes = 0;
  check(theirs(nullptr, bytes, d_in, d_theirs.data(), counts.data() + 1), "CUB size query");
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  check(theirs(temp.data(), bytes, d_in, d_theirs.data(), counts.data() + 1), "CUB call");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  const auto c = counts.download();
  return {d_ours.download(), d_theirs.download(), c[0], c[1]};
}

}  // namespace upsweep::test
