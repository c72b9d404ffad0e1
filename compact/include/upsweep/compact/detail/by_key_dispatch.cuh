// Host dispatch of the by-key kernel (reduce_by_key, the scans by key, unique_by_key): its policy,
// temporary storage (the tile state), the argument checks and the launch. No allocation, no
// synchronisation.
#pragma once

#include <upsweep/compact/detail/by_key_kernels.cuh>
#include <upsweep/compact/detail/by_key_reduce_ahead_kernel.cuh>
#include <upsweep/scan/detail/scan_tuning.cuh>
#include <upsweep/scan/pair_tile_state.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/arguments.hpp>
#include <upsweep/util/chained_launch.cuh>
#include <upsweep/util/error.hpp>
#include <upsweep/util/one_wave.hpp>
#include <upsweep/util/temp_storage.hpp>

#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace upsweep {

namespace detail {

// About 12 4-byte keys and values a thread; wider items fewer, each thread's run still whole
// 16-byte vectors.
template <class Key, class Value>
constexpr std::size_t widest_of() {
  return sizeof(Key) > sizeof(Value) ? sizeof(Key) : sizeof(Value);
}

template <class Key, class Value>
constexpr int by_key_items_per_thread() {
  return widest_of<Key, Value>() <= 4 ? 12 : (widest_of<Key, Value>() <= 8 ? 8 : 4);
}

// 4-byte keys beside 8-byte values, for reduce_by_key and the scans by key (measured below).
using narrow_key_wide_value_by_key_policy = scan_policy<128, 16, tile_io::transpose, 1, default_look_back_delay_ns,
                                                        false, tile_schedule::block_per_tile, 5, 600>;

}  // namespace detail

// A block per tile loading its keys and values straight into registers, a 600 ns pause before
// looking back; items of up to 8 bytes at four resident blocks. Through shared memory
// (tile_io::transpose) every tile paid two more barriers (46 % of the cycles between issues at
// 10^8 items in ncu). A/B harness (H200, 2026-11-29, runs of 16, CUB 3.0 counting in int, ms):
//   10^9 int32 keys and values: scan by key 256 x 12 at 4 blocks 4.33, at 3 4.73, 256 x 16 at 3
//     4.47 (CUB 3.89); unique_by_key 3.46 / 3.47 / 3.42 (CUB 3.17). Pauses of 0 / 350 ns between
//     polls and of 300 / 600 / 1000 ns before looking back: within 3 %.
//   3 x 10^8 int64: 256 x 8 at 4 blocks against 3: scan by key 2.59 / 2.78 (CUB 1.88), unique 1.82
//     / 2.06 (1.54), reduce 2.06 / 2.25 (1.64).
template <class Key, class Value>
using default_by_key_policy =
    scan_policy<256, detail::by_key_items_per_thread<Key, Value>(), tile_io::direct, 1, default_look_back_delay_ns,
                false, tile_schedule::block_per_tile, detail::widest_of<Key, Value>() <= 8 ? 4 : 3, 600>;

// The scans by key: 4-byte keys and values on resident blocks reducing ahead, 128 x 16 at six
// blocks (both tile buffers fill the 48 KB of static shared memory); 8-byte items through
// warp-transposed tiles, a block per tile. A/B harness (H200, 2026-11-29, runs of 16, CUB 3.0
// counting in int, ms):
//   10^9 int32 inclusive: reducing ahead 128 x 16 at 6 blocks 4.00 (direct stores 4.15; at 5 blocks
//     4.35, 128 x 12 at 8 and 256 x 8 at 5, which spill, 4.90 and 4.67), a block per tile 256 x 12
//     at 4 4.34, transposed 4.44 (CUB 3.89). reduce_by_key reducing ahead: 4.13 against 3.67.
//   3 x 10^8 int64 inclusive: a block per tile 256 x 8, transposed 2.20 (direct 2.59), reducing
//     ahead 128 x 8 at 6 2.34, at 8 2.36 (CUB 1.87).
// int32 keys with int64 values: 128 x 16 transposed at five blocks (A/B harness, H100, 2026-12-07,
// against CUB 3.0, runs of 1.5 / 16 / 1000: 10^6 1.07x / 1.04x / 1.02x -> 1.07x / 1.09x / 1.08x,
// 10^8 0.84x / 0.83x / 0.83x -> 0.85x / 0.85x / 0.85x against 256 x 8 transposed at four).
template <class Key, class Value>
using default_scan_by_key_policy = cuda::std::conditional_t<
    sizeof(Key) == 4 && sizeof(Value) == 4,
    scan_policy<128, 16, tile_io::transpose, 1, default_look_back_delay_ns, false, tile_schedule::reduce_ahead, 6,
                600>,
    cuda::std::conditional_t<
        detail::widest_of<Key, Value>() == 8 && sizeof(Key) == 4,
        detail::narrow_key_wide_value_by_key_policy,
        cuda::std::conditional_t<detail::widest_of<Key, Value>() == 8,
                                 scan_policy<256, detail::by_key_items_per_thread<Key, Value>(), tile_io::transpose,
                                             1, default_look_back_delay_ns, false, tile_schedule::block_per_tile, 4,
                                             600>,
                                 default_by_key_policy<Key, Value>>>>;

// reduce_by_key: 4-byte keys and values at 256 x 20 through warp-transposed tiles at three blocks;
// 8-byte values transposed too, at 128 x 16 and five blocks beside 4-byte keys, 192 x 12 and four
// beside 8-byte keys. A/B harness against CUB 3.0 (H100, 2026-12-07, one call, runs of 1.5 / 16 /
// 1000, the L2 flushed before each call):
//   int32, 10^9: 256 x 20 transposed 0.94x / 0.91x / 0.91x; 256 x 16 direct (keys in registers
//     through the tile's scan, the earlier default) 0.93x / 0.86x / 0.83x, 256 x 20 direct 0.94x /
//     0.89x / 0.90x. At 10^8 0.94x / 0.92x / 1.02x against 0.92x / 0.87x / 0.88x.
//   int32 keys, int64 values, 10^8: 128 x 16 transposed at 5 blocks 0.92x / 0.92x / 0.90x; 256 x 8
//     direct at 4 (default_by_key_policy) 0.93x / 0.86x / 0.81x.
//   int64, 10^8: 192 x 12 transposed at 4 0.93x / 0.89x / 0.85x; 256 x 8 direct 0.92x / 0.85x /
//     0.83x, 128 x 16 direct 0.80x / 0.74x / 0.74x.
template <class Key, class Value>
using default_reduce_by_key_policy = cuda::std::conditional_t<
    detail::widest_of<Key, Value>() <= 4,
    scan_policy<256, 20, tile_io::transpose, 1, default_look_back_delay_ns, false, tile_schedule::block_per_tile, 3,
                600>,
    cuda::std::conditional_t<
        detail::widest_of<Key, Value>() == 8 && sizeof(Key) == 4,
        detail::narrow_key_wide_value_by_key_policy,
        cuda::std::conditional_t<detail::widest_of<Key, Value>() == 8,
                                 scan_policy<192, 12, tile_io::transpose, 1, default_look_back_delay_ns, false,
                                             tile_schedule::block_per_tile, 4, 600>,
                                 default_by_key_policy<Key, Value>>>>;

// unique_by_key: 4-byte keys and values at 384 x 14 and three blocks from unique_large_tiles_from
// items (below, default_by_key_policy's tiles), closer to CUB's 512 x 14
// (H200, 2026-12-02, runs of 16, ms at 10^8 / 10^9, the tune rows): 256 x 12 at 4 blocks 0.364 /
// 3.53, 256 x 16 at 3 0.362 / 3.50, 384 x 14 at 3 0.350 / 3.35 (at 2, 4.05), 448 x 12 and 512 x 11
// at 2 3.61 and 3.93 (CUB 3.21 in the full run of 1888f0b). 8-byte items: 256 x 8 at 4 stays
// (1.84 ms at 3 x 10^8; 384 x 6 at 3 1.91, 256 x 10 at 3 1.99).
template <class Key, class Value>
using default_unique_by_key_policy =
    cuda::std::conditional_t<detail::widest_of<Key, Value>() <= 4,
                             scan_policy<384, 14, tile_io::direct, 1, default_look_back_delay_ns, false,
                                         tile_schedule::block_per_tile, 3, 600>,
                             default_by_key_policy<Key, Value>>;

namespace detail {

// Whether the output holds one item per run (reduce, unique) rather than one per input item.
constexpr bool writes_runs(by_key_output output) {
  return output == by_key_output::reduce || output == by_key_output::unique;
}

template <by_key_output Output, class Acc>
std::size_t by_key_state_bytes(std::int64_t num_items, std::int64_t tile_items) {
  if (num_items <= 0) return 0;
  const std::int64_t num_tiles = ceil_div<std::int64_t>(num_items, tile_items);
  if constexpr (Output == by_key_output::unique) return count_tile_state::bytes(num_tiles);
  else return counted_tile_state_t<run_sum<Acc>>::bytes(num_tiles);
}

// The block per tile for inputs too small to reduce ahead: the default scans' reduce-ahead policy
// hands them to default_by_key_policy (H200, 2026-11-29, 10^2 int32 items: 6.45 us at 256 x 12
// loaded straight into registers, 7.45 at 128 x 16 transposed); any other policy runs its own tile.
template <class Policy, class Key, class Acc>
using by_key_block_policy =
    cuda::std::conditional_t<cuda::std::is_same_v<Policy, default_scan_by_key_policy<Key, Acc>> &&
                                 Policy::schedule == tile_schedule::reduce_ahead,
                             default_by_key_policy<Key, Acc>, Policy>;

// unique_by_key's default takes its large tiles only for inputs of many waves of them; smaller
// inputs keep default_by_key_policy's tiles (H200, 2026-12-02, int32 runs of 16, against CUB:
// 384 x 14 at 10^7 items, 4.7 waves, 0.89x where 256 x 12 ran 0.94x; at 10^8 0.95x against 0.91x).
// Any other policy runs its own tile at every size.
inline constexpr std::int64_t unique_large_tiles_from = std::int64_t{1} << 25;

template <class Policy, class Key, class Value>
using unique_few_tiles_policy =
    cuda::std::conditional_t<cuda::std::is_same_v<Policy, default_unique_by_key_policy<Key, Value>>,
                             default_by_key_policy<Key, Value>, Policy>;

// unique_by_key on a block per tile of Policy.
template <class Policy, class KeyIt, class ValueIt, class KeyOutIt, class ValueOutIt, class Eq>
cudaError_t launch_unique_by_key(cudaStream_t stream, KeyIt d_keys, ValueIt d_values, KeyOutIt d_keys_out,
                                 ValueOutIt d_values_out, std::int64_t* d_num_runs, std::int64_t num_items, Eq eq,
                                 void* state_storage) {
  using value_t = it_value_t<ValueIt>;
  const std::int64_t num_tiles = ceil_div<std::int64_t>(num_items, Policy::tile_items);
  UPSWEEP_CUDA_RETURN(count_tile_state::initialize(state_storage, num_tiles, stream));
  constexpr auto kernel = by_key_kernel<Policy, by_key_output::unique, KeyIt, ValueIt, KeyOutIt, ValueOutIt, value_t,
                                        Eq, cuda::std::plus<>, count_tile_state>;
  return launch_chained(kernel, dim3(claiming_grid(num_tiles)), dim3(Policy::block_threads), stream, d_keys, d_values,
                        d_keys_out, d_values_out, d_num_runs, static_cast<long long>(num_items),
                        static_cast<long long>(num_tiles), eq, cuda::std::plus<>{}, maybe<value_t>{value_t{}, false},
                        count_tile_state(state_storage, false));
}

// Null pointers and overlaps, on a real call with items. The keys are read across tile edges, so
// no output may overlap them; the scans' values may go in place.
template <by_key_output Output, class KeyIt, class ValueIt, class KeyOutIt, class ValueOutIt>
bool by_key_arguments_bad(KeyIt d_keys, ValueIt d_values, KeyOutIt d_keys_out, ValueOutIt d_values_out,
                          std::int64_t* d_num_runs, std::int64_t num_items) {
  if (writes_runs(Output) && d_num_runs == nullptr) return true;
  if (num_items == 0) return false;
  if (is_null(d_keys) || is_null(d_values) || is_null(d_values_out)) return true;
  if (ranges_overlap(d_keys, d_values_out, num_items)) return true;
  if constexpr (writes_runs(Output)) {
    // The outputs hold one item per run, a count not known here: their overlap with each other
    // goes unchecked.
    return is_null(d_keys_out) || ranges_overlap(d_keys, d_keys_out, num_items) ||
           ranges_overlap(d_values, d_keys_out, num_items) || ranges_overlap(d_values, d_values_out, num_items);
  } else {
    return ranges_overlap_partly(d_values, d_values_out, num_items);
  }
}

// Whether reduce-ahead can take the call: reduce or a scan, its policy asking for it, from
// pointers whose tiles copy as whole 16-byte vectors, with both tile buffers in the 48 KB of
// static shared memory.
template <class Policy, by_key_output Output, class KeyIt, class ValueIt, class Acc>
constexpr bool reduces_ahead() {
  if constexpr (Policy::schedule == tile_schedule::reduce_ahead && Output != by_key_output::unique &&
                cuda::std::is_pointer_v<KeyIt> && cuda::std::is_pointer_v<ValueIt>) {
    using key_t = it_value_t<KeyIt>;
    using value_t = it_value_t<ValueIt>;
    using storage_t = by_key_reduce_ahead_storage<Policy, key_t, value_t, Acc, by_key_out_t<Output, value_t, Acc>>;
    return prefetchable_v<key_t, Policy::items_per_thread> && prefetchable_v<value_t, Policy::items_per_thread> &&
           sizeof(storage_t) <= 48 * 1024;
  } else {
    return false;
  }
}

// The resident blocks that reduce ahead, or 0 where a block per tile takes the call: reduce-ahead
// needs 16-byte aligned keys and values, and more tiles than resident blocks.
template <class Policy, by_key_output Output, class KeyIt, class ValueIt, class KeyOutIt, class ValueOutIt, class Acc,
          class Eq, class Op>
cudaError_t blocks_reducing_ahead(KeyIt d_keys, ValueIt d_values, std::int64_t num_items, int& blocks) {
  blocks = 0;
  if constexpr (reduces_ahead<Policy, Output, KeyIt, ValueIt, Acc>()) {
    if (!is_aligned_16(d_keys) || !is_aligned_16(d_values)) return cudaSuccess;
    int resident = 0;
    UPSWEEP_CUDA_RETURN((persistent_grid<by_key_reduce_ahead_kernel<Policy, Output, it_value_t<KeyIt>,
                                                                    it_value_t<ValueIt>, KeyOutIt, ValueOutIt, Acc, Eq,
                                                                    Op, counted_tile_state_t<run_sum<Acc>>>,
                                         Policy::block_threads>(Policy::persistent_grid_limit, resident)));
    if (ceil_div<std::int64_t>(num_items, Policy::tile_items) > resident) blocks = resident;
  }
  return cudaSuccess;
}

// The scans by key of 4-byte keys and values under the default policy, for inputs that fit one
// wave of larger tiles than BlockPolicy's (one_wave_tiles): 256 x 16 transposed at three blocks
// (A/B harness, H200, 2026-12-04, inclusive, runs of 16, against CUB 3.0 in one run: 10^6 items
// 0.98x -> 1.05x, 1.6 x 10^6 0.93x -> 1.01x; at 3 x 10^5, below an SM a tile, 1.16x -> 1.11x;
// 256 x 16 direct 0.99x at 10^6, 384 x 12 1.00x, 256 x 20 0.96x). Else void.
template <class Policy, by_key_output Output, class Key, class Acc>
using one_wave_by_key_policy =
    cuda::std::conditional_t<cuda::std::is_same_v<Policy, default_scan_by_key_policy<Key, Acc>> &&
                                 !writes_runs(Output) && sizeof(Key) == 4 && sizeof(Acc) == 4,
                             scan_policy<256, 16, tile_io::transpose, 1, default_look_back_delay_ns, false,
                                         tile_schedule::block_per_tile, 3, 600>,
                             void>;

// reduce and the scans: `ahead_blocks` resident blocks reducing ahead on Policy's tiles, else a
// block per tile of one_wave_by_key_policy within its wave, else of BlockPolicy (each claims one).
template <class Policy, class BlockPolicy, by_key_output Output, class KeyIt, class ValueIt, class KeyOutIt,
          class ValueOutIt, class Acc, class Eq, class Op>
cudaError_t launch_scans_by_key(cudaStream_t stream, int ahead_blocks, KeyIt d_keys, ValueIt d_values,
                                KeyOutIt d_keys_out, ValueOutIt d_values_out, std::int64_t* d_num_runs,
                                std::int64_t num_items, Eq eq, Op op, maybe<Acc> init, void* state_storage) {
  using state_t = counted_tile_state_t<run_sum<Acc>>;
  using wave_policy = one_wave_by_key_policy<Policy, Output, it_value_t<KeyIt>, Acc>;
  std::int64_t wave_tiles = 0;
  if constexpr (!cuda::std::is_void_v<wave_policy>) {
    static_assert(wave_policy::tile_items >= Policy::tile_items, "no more tiles than the tile state holds");
    constexpr auto kernel =
        by_key_kernel<wave_policy, Output, KeyIt, ValueIt, KeyOutIt, ValueOutIt, Acc, Eq, Op, state_t>;
    if (ahead_blocks == 0)
      UPSWEEP_CUDA_RETURN((one_wave_tiles<kernel, wave_policy::block_threads>(num_items, BlockPolicy::tile_items,
                                                                               wave_policy::tile_items, wave_tiles)));
  }
  const std::int64_t tile_items = ahead_blocks > 0 ? Policy::tile_items : BlockPolicy::tile_items;
  const std::int64_t num_tiles = wave_tiles > 0 ? wave_tiles : ceil_div<std::int64_t>(num_items, tile_items);
  UPSWEEP_CUDA_RETURN(state_t::initialize(state_storage, num_tiles, stream));
  const state_t state = make_counted_tile_state<run_sum<Acc>>(state_storage, num_tiles);
  if constexpr (!cuda::std::is_void_v<wave_policy>) {
    if (wave_tiles > 0)
      return launch_chained(
          by_key_kernel<wave_policy, Output, KeyIt, ValueIt, KeyOutIt, ValueOutIt, Acc, Eq, Op, state_t>,
          dim3(static_cast<unsigned>(wave_tiles)), dim3(wave_policy::block_threads), stream, d_keys, d_values,
          d_keys_out, d_values_out, d_num_runs, static_cast<long long>(num_items), static_cast<long long>(wave_tiles),
          eq, op, init, state);
  }
  if constexpr (reduces_ahead<Policy, Output, KeyIt, ValueIt, Acc>()) {
    if (ahead_blocks > 0) {
      constexpr auto kernel = by_key_reduce_ahead_kernel<Policy, Output, it_value_t<KeyIt>, it_value_t<ValueIt>,
                                                         KeyOutIt, ValueOutIt, Acc, Eq, Op, state_t>;
      return launch_chained(kernel, dim3(ahead_blocks), dim3(Policy::block_threads), stream,
                            static_cast<const it_value_t<KeyIt>*>(d_keys),
                            static_cast<const it_value_t<ValueIt>*>(d_values), d_keys_out, d_values_out, d_num_runs,
                            static_cast<long long>(num_items), static_cast<long long>(num_tiles), eq, op, init, state);
    }
  }
  constexpr auto kernel =
      by_key_kernel<BlockPolicy, Output, KeyIt, ValueIt, KeyOutIt, ValueOutIt, Acc, Eq, Op, state_t>;
  return launch_chained(kernel, dim3(claiming_grid(num_tiles)), dim3(BlockPolicy::block_threads), stream, d_keys,
                        d_values, d_keys_out, d_values_out, d_num_runs, static_cast<long long>(num_items),
                        static_cast<long long>(num_tiles), eq, op, init, state);
}

template <class Policy, by_key_output Output, class KeyIt, class ValueIt, class KeyOutIt, class ValueOutIt, class Acc,
          class Eq, class Op>
cudaError_t dispatch_by_key(void* d_temp_storage, std::size_t& temp_storage_bytes, KeyIt d_keys, ValueIt d_values,
                            KeyOutIt d_keys_out, ValueOutIt d_values_out, std::int64_t* d_num_runs,
                            std::int64_t num_items, Eq eq, Op op, maybe<Acc> init, cudaStream_t stream) {
  static_assert(!cuda::std::is_convertible_v<Eq, cudaStream_t>,
                "the equality comes before the stream: pass both, (..., eq, stream)");
  static_assert(cuda::std::is_trivially_copyable_v<it_value_t<KeyIt>> &&
                    cuda::std::is_trivially_copyable_v<it_value_t<ValueIt>> &&
                    cuda::std::is_trivially_copyable_v<Acc>,
                "keys, values and results must be trivially copyable");
  if (num_items < 0 || num_items > count_tile_state::max_count) return cudaErrorInvalidValue;
  using block_policy = by_key_block_policy<Policy, it_value_t<KeyIt>, Acc>;
  using few_tiles_policy = unique_few_tiles_policy<Policy, it_value_t<KeyIt>, it_value_t<ValueIt>>;
  constexpr int few_tile = Output == by_key_output::unique ? few_tiles_policy::tile_items : Policy::tile_items;
  constexpr int block_tile = block_policy::tile_items < few_tile ? block_policy::tile_items : few_tile;
  constexpr std::int64_t smaller_tile = Policy::tile_items < block_tile ? Policy::tile_items : block_tile;
  void* allocations[1] = {};
  const std::size_t sizes[1] = {by_key_state_bytes<Output, Acc>(num_items, smaller_tile)};
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  if (d_temp_storage == nullptr) return cudaSuccess;
  if (by_key_arguments_bad<Output>(d_keys, d_values, d_keys_out, d_values_out, d_num_runs, num_items))
    return cudaErrorInvalidValue;
  if (num_items == 0) {
    // No tile writes the count when there is none; the memset keeps n = 0 graph-capturable too.
    if constexpr (writes_runs(Output)) return cudaMemsetAsync(d_num_runs, 0, sizeof(std::int64_t), stream);
    return cudaSuccess;
  }
  if constexpr (Output == by_key_output::unique) {
    if (num_items < unique_large_tiles_from)
      return launch_unique_by_key<few_tiles_policy>(stream, d_keys, d_values, d_keys_out, d_values_out, d_num_runs,
                                                    num_items, eq, allocations[0]);
    return launch_unique_by_key<block_policy>(stream, d_keys, d_values, d_keys_out, d_values_out, d_num_runs,
                                              num_items, eq, allocations[0]);
  } else {
    int ahead_blocks = 0;
    UPSWEEP_CUDA_RETURN((blocks_reducing_ahead<Policy, Output, KeyIt, ValueIt, KeyOutIt, ValueOutIt, Acc, Eq, Op>(
        d_keys, d_values, num_items, ahead_blocks)));
    return launch_scans_by_key<Policy, block_policy, Output>(stream, ahead_blocks, d_keys, d_values, d_keys_out,
                                                             d_values_out, d_num_runs, num_items, eq, op, init,
                                                             allocations[0]);
  }
}

}  // namespace detail
}  // namespace upsweep
