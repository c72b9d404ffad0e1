// Tuning of select, count and partition: one policy per element size. Policies are data; the
// benchmark can pass its own as a template argument.
#pragma once

#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/detail/scan_tuning.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/arch.cuh>

#include <cuda/std/type_traits>

namespace upsweep {

template <int BlockThreads, int ItemsPerThread, tile_io Io = tile_io::transpose,
          int LookBackDelayNs = default_look_back_delay_ns, int MinBlocksPerSm = 1, int LookBackSettleNs = 0,
          tile_schedule Schedule = tile_schedule::block_per_tile, int PersistentGridLimit = 0>
struct select_policy {
  static constexpr int block_threads = BlockThreads;
  static constexpr int items_per_thread = ItemsPerThread;
  static constexpr int tile_items = BlockThreads * ItemsPerThread;
  static constexpr tile_io io = Io;
  static constexpr int look_back_delay_ns = LookBackDelayNs;
  // __launch_bounds__ occupancy hint. Left to itself ptxas gives the 256 x 16 int32 tile 128 to 138
  // registers, one or two blocks of 256 per SM: too few tiles in flight to hide the look-back.
  static constexpr int min_blocks_per_sm = MinBlocksPerSm;
  // Pause after publishing a tile's count, before looking back (detail::settle_before_look_back).
  static constexpr int look_back_settle_ns = LookBackSettleNs;
  // Persistent blocks publishing a claimed tile's count before writing the tile claimed one
  // iteration earlier (select_reduce_ahead_kernel), as the scan does; needs a 16-byte aligned
  // pointer input and blocks that take several tiles, else a block per tile. A policy deriving
  // from this one may add `static constexpr int tiles_copied_ahead = 1` to start each tile's copy
  // an iteration before reducing it (copying_ahead_tiles, three buffers; no default does).
  static constexpr tile_schedule schedule = Schedule;
  // Reduce-ahead's grid: the resident blocks, or at most this many when positive (tests); the
  // same cap decides whether a partition's tiles fit in one wave (partition_fits_one_wave).
  static constexpr int persistent_grid_limit = PersistentGridLimit;
  static_assert(BlockThreads % detail::warp_threads == 0, "whole warps only");
  static_assert(BlockThreads <= 1024, "at most 1024 threads per block");
  static_assert(ItemsPerThread >= 1, "at least one item per thread");
};

namespace detail {

// Wide items get fewer per thread, to keep a thread's registers near those of 16 4-byte items.
// Every choice keeps a thread's run a whole number of 16-byte vectors for 1, 2, 4, 8, 16 bytes.
template <class T>
constexpr int default_select_items_per_thread() {
  return sizeof(T) <= 4 ? 16 : (sizeof(T) <= 8 ? 8 : 4);
}

// Resident blocks asked of ptxas. 4-byte items: 6 (40 registers, a few spilled bytes), measured
// best (H200 2026-11-21, select_if int32 50 % at 10^9: 2.88 ms at 6, 3.02 at 5, 3.37 at 3 or 4,
// 64 registers). Other sizes, not measured: the most without spills (sm_90, CUDA 13), 4 for 8- and
// 16-byte items, 3 for 1- and 2-byte items, which spill at 4 in select_flagged. (Select's own
// 8-byte shape is below; run-length encoding takes these.)
template <class T>
constexpr int default_select_min_blocks() {
  return sizeof(T) == 4 ? 6 : (sizeof(T) > 4 ? 4 : 3);
}

}  // namespace detail

// 256 x 16 for 4-byte items, as the scan. H200 2026-11-22 (select_if int32 50 % at 10^9, CUB
// 2.22 ms): a 1200 ns pause between publishing a tile's count and looking back took 2.93 ms to
// 2.53 (600 and 2000 ns: the same); 256 x 32 at 3 blocks with the pause 2.35. Reduce-ahead for
// 4-byte items, as for the scan (where it measured 1.11x CUB): 2.41 ms; with fewer instructions
// per item (10a72c8: 32-bit in-tile bounds, the unrolled staged write) 2.22 ms, 1.00x CUB.
// 8-byte items (H200 2026-11-29, int64 at 10^8, ratios to CUB 3.0 in one run, select_if 1 % / 50
// %, unique, partition): 256 x 8 at 4 blocks, a block per tile, 0.64x / 0.75x / 0.65x / 0.88x;
// reduce-ahead 128 x 16 at 8 blocks 0.82x / 0.95x / 0.85x / 1.06x (256 x 8 at 6: 0.78x / 0.92x /
// 0.88x / 0.99x; 128 x 20 and 192 x 12 in between). Up to 10^5 items the 128-thread block per tile
// lost to 256 x 8 (partition at 10^3: 0.93x against 1.08x), so that shape stays for few tiles.
struct wide_select_policy
    : select_policy<128, 16, tile_io::transpose, default_look_back_delay_ns, 8, 1200, tile_schedule::reduce_ahead> {
  using few_tiles = select_policy<256, 8, tile_io::transpose, default_look_back_delay_ns, 4, 1200>;
  // The stable partition's two passes (no look-back) load directly: H200, 2026-12-02, int64 50 %
  // at 10^8, 0.589 ms against 0.636 transposed (256 x 8 at six 0.595, 128 x 16 at six 0.596).
  using two_passes = select_policy<256, 8, tile_io::direct, default_look_back_delay_ns, 4, 1200>;
  using one_wave = select_policy<384, 10, tile_io::transpose, default_look_back_delay_ns, 3, 1200>;  // below
};

// Inputs of at most one wave of tiles, and more of the policy's tiles than SMs (one_wave_tiles),
// run a block per tile (`one_wave`, where a policy names one) with larger tiles than the
// reduce-ahead grid's: its tiles all start and publish together, and fewer of them measured
// faster (H200, 2026-12-04, select_if 50 % unless said, against CUB 3.0 in one run). int32
// 512 x 16 at two blocks against 256 x 16 at six: 10^6 items 0.97x -> 1.04x, 1.6 x 10^6
// 0.94x -> 0.98x (past its wave, 2.2 x 10^6, 0.91x -> 0.92x); int64 against 256 x 8 at four,
// first 256 x 16 at three: 10^6 50 % 0.88x -> 0.93x, 1.6 x 10^6 (where 256 x 8 ran one and a half
// waves) 0.77x -> 0.91x; then 384 x 10 at three against that, 1 % / 50 % / 99 %: 5 x 10^5 1.01x /
// 0.99x / 0.89x -> 1.02x / 0.98x / 1.01x, 10^6 0.95x / 0.93x / 0.78x -> 0.95x / 0.94x / 0.95x,
// 1.5 x 10^6 0.92x / 0.91x / 0.73x -> 0.93x / 0.90x / 0.92x. 384 x 16, 384 x 24, 512 x 20, 640 x 16,
// direct loads (int32), 256 x 16 at two and three, 256 x 20, 320 x 12, 320 x 16, 384 x 12 and 14,
// 448 x 10, 512 x 8 and 10 (int64) measured no better.
struct four_byte_select_policy : select_policy<256, 16, tile_io::transpose, default_look_back_delay_ns,
                                               detail::default_select_min_blocks<int>(), 1200,
                                               tile_schedule::reduce_ahead> {
  using one_wave = select_policy<512, 16, tile_io::transpose, default_look_back_delay_ns, 2, 1200>;
};

template <class T>
using default_select_policy = cuda::std::conditional_t<
    sizeof(T) == 8, wide_select_policy,
    cuda::std::conditional_t<sizeof(T) == 4, four_byte_select_policy,
                             select_policy<256, detail::default_select_items_per_thread<T>(), tile_io::transpose,
                                           default_look_back_delay_ns, detail::default_select_min_blocks<T>(), 1200>>>;

namespace detail {

// The block per tile of a reduce-ahead policy: what runs where reducing ahead does not (inputs of
// no more tiles than resident blocks, iterators, unaligned pointers) and the partition's one-wave
// pass. The policy itself, unless it names one as `few_tiles`, with the same tile (so the same
// tile state).
template <class Policy, class = void>
struct few_tiles_policy {
  using type = Policy;
};
template <class Policy>
struct few_tiles_policy<Policy, cuda::std::void_t<typename Policy::few_tiles>> {
  using type = typename Policy::few_tiles;
  static_assert(type::tile_items == Policy::tile_items, "one tile state for both schedules");
  static_assert(type::persistent_grid_limit == Policy::persistent_grid_limit, "one cap for both schedules");
};
template <class Policy>
using few_tiles_policy_t = typename few_tiles_policy<Policy>::type;

// The stable partition's two passes: the policy's `two_passes` if it names one, else its block
// per tile; the same tile as that block per tile, whose one pass shares their storage.
template <class Policy, class = void>
struct two_pass_policy {
  using type = few_tiles_policy_t<Policy>;
};
template <class Policy>
struct two_pass_policy<Policy, cuda::std::void_t<typename Policy::two_passes>> {
  using type = typename Policy::two_passes;
  static_assert(type::tile_items == few_tiles_policy_t<Policy>::tile_items, "one storage for the one and two passes");
};
template <class Policy>
using two_pass_policy_t = typename two_pass_policy<Policy>::type;

// The block per tile for inputs of at most one wave of its tiles: the policy's `one_wave` if it
// names one (tiles of its own, no smaller than the policy's, so the tile state has room), else void.
template <class Policy, class = void>
struct one_wave_policy {
  using type = void;
};
template <class Policy>
struct one_wave_policy<Policy, cuda::std::void_t<typename Policy::one_wave>> {
  using type = typename Policy::one_wave;
  static_assert(type::tile_items >= Policy::tile_items, "no more tiles than the tile state holds");
  static_assert(type::schedule == tile_schedule::block_per_tile, "a block per tile");
};
template <class Policy>
using one_wave_policy_t = typename one_wave_policy<Policy>::type;

}  // namespace detail

}  // namespace upsweep
