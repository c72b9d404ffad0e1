// Tile layer alone, without a scan around it: blocks claim tile ids, publish random aggregates
// and look back; every tile's exclusive prefix must equal the CPU's, for every layout (packed
// word, split arrays, 62-bit counts relaxed and ordered) and for a non-commutative operator.
#include <upsweep/scan/tile_state.cuh>

#include "scan_test_support.cuh"

#include <cuda/std/functional>
#include <cuda/std/type_traits>

namespace upsweep::test {
namespace {

// One warp per block; the block's tile comes from the counter, not from blockIdx (a lone tile
// from claim_first_tile alone: initialize leaves its counter as it was).
template <bool Pipelined, class T, class State, class Op>
__global__ void look_back_kernel(State state, const T* aggregates, T* prefixes, maybe<T> seed, Op op) {
  __shared__ long long tile_idx;
  if (threadIdx.x == 0) tile_idx = detail::claim_first_tile(state, gridDim.x);
  __syncwarp();
  const long long tile = tile_idx;
  look_back_prefix<T, State, Op, default_look_back_delay_ns, Pipelined> prefix_of{state, tile, op, seed};
  const maybe<T> prefix = prefix_of(aggregates[tile]);
  if (threadIdx.x == 0 && prefix.valid) prefixes[tile] = prefix.value;
}

// The tile state of make_tile_state<T> over `storage`.
template <class T>
struct default_state {
  static std::size_t bytes(std::int64_t tiles) { return tile_state<T>::bytes(tiles); }
  static cudaError_t initialize(void* storage, std::int64_t tiles) { return tile_state<T>::initialize(storage, tiles, 0); }
  static auto make(void* storage, std::int64_t tiles) { return make_tile_state<T>(storage, tiles); }
};

// count_tile_state over `storage`, relaxed or ordered.
template <bool Ordered>
struct count_state {
  static std::size_t bytes(std::int64_t tiles) { return count_tile_state::bytes(tiles); }
  static cudaError_t initialize(void* storage, std::int64_t tiles) {
    return count_tile_state::initialize(storage, tiles, 0);
  }
  static count_tile_state make(void* storage, std::int64_t) { return count_tile_state(storage, Ordered); }
};

template <bool Pipelined, class StateMaker, class T, class Op>
void check_look_back_form(const std::vector<T>& aggregates, maybe<T> seed, Op op) {
  SCOPED_TRACE(Pipelined ? "pipelined look-back" : "plain look-back");
  const auto tiles = static_cast<std::int64_t>(aggregates.size());
  device_buffer<T> d_aggregates(aggregates), d_prefixes(tiles);
  CUDA_OK(cudaMemset(d_prefixes.data(), poison_byte, tiles * sizeof(T)));
  device_buffer<unsigned char> storage(static_cast<std::int64_t>(StateMaker::bytes(tiles)));
  CUDA_OK(StateMaker::initialize(storage.data(), tiles));
  const auto state = StateMaker::make(storage.data(), tiles);
  look_back_kernel<Pipelined><<<static_cast<unsigned>(tiles), 32>>>(state, d_aggregates.data(), d_prefixes.data(), seed, op);
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaDeviceSynchronize());
  const auto got = d_prefixes.download();
  std::vector<T> want;
  if (seed.valid) {
    want = reference_exclusive_scan<T>(aggregates, seed.value, op);
  } else {
    want = reference_inclusive_scan<T>(aggregates, op);
    want.insert(want.begin(), T{});
    want.pop_back();
  }
  for (std::int64_t t = seed.valid ? 0 : 1; t < tiles; ++t)
    ASSERT_EQ(0, std::memcmp(&got[t], &want[t], sizeof(T))) << "tile " << t << " of " << tiles;
}

// Both look-back forms (plain and pipelined) must give every tile its exact prefix.
template <class StateMaker = void, class T, class Op>
void check_look_back(const std::vector<T>& aggregates, maybe<T> seed, Op op) {
  using maker = cuda::std::conditional_t<cuda::std::is_void_v<StateMaker>, default_state<T>, StateMaker>;
  check_look_back_form<false, maker>(aggregates, seed, op);
  check_look_back_form<true, maker>(aggregates, seed, op);
}

class TileState : public gpu_test {};

TEST_F(TileState, PackedWordLookBackGivesEveryTileItsPrefix) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (std::int64_t tiles : {1, 2, 33, 100'000}) {
    const auto aggregates = random_small_ints<std::uint32_t>(tiles, seed + tiles, 0, 1000);
    check_look_back(aggregates, maybe<std::uint32_t>{5u, true}, cuda::std::plus<std::uint32_t>{});
    check_look_back(aggregates, maybe<std::uint32_t>{0u, false}, cuda::std::plus<std::uint32_t>{});
  }
}

TEST_F(TileState, SplitLayoutLookBackGivesEveryTileItsPrefix) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (std::int64_t tiles : {1, 31, 65, 50'000}) {
    const auto aggregates = random_small_ints<double>(tiles, seed + tiles, -1000, 1000);
    check_look_back(aggregates, maybe<double>{0.5, true}, cuda::std::plus<double>{});
  }
}

// Counts past 2^32 in the 62-bit word, both modes: prefixes reach about 2^40 * tiles.
TEST_F(TileState, CountWordLookBackGivesEveryTileItsPrefix) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  for (std::int64_t tiles : {1, 2, 33, 100'000}) {
    const auto aggregates = random_small_ints<std::int64_t>(tiles, seed + tiles, 0, std::int64_t{1} << 40);
    check_look_back<count_state<false>>(aggregates, maybe<std::int64_t>{7, true}, cuda::std::plus<std::int64_t>{});
    check_look_back<count_state<true>>(aggregates, maybe<std::int64_t>{0, true}, cuda::std::plus<std::int64_t>{});
  }
}

TEST_F(TileState, LookBackCombinesPredecessorsInOrder) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  std::vector<affine16> maps(70'001);
  for (std::size_t i = 0; i < maps.size(); ++i)
    maps[i] = {static_cast<std::uint16_t>(mix64(seed + i) | 1), static_cast<std::uint16_t>(mix64(seed ^ i))};
  check_look_back(maps, maybe<affine16>{{3, 7}, true}, then_affine{});
  std::vector<mat2> mats(20'000);
  for (std::size_t i = 0; i < mats.size(); ++i)
    for (int k = 0; k < 4; ++k) mats[i].m[k] = static_cast<std::uint32_t>(mix64(seed + 4 * i + k));
  check_look_back(mats, maybe<mat2>{{{1, 0, 0, 1}}, false}, mat_mul{});
}

}  // namespace
}  // namespace upsweep::test
