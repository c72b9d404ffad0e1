// Host dispatch of select, count and partition's first pass: temporary storage sizing (the
// tile state), clearing it, and the launch. No allocation, no synchronisation.
#pragma once

#include <upsweep/compact/detail/select_kernels.cuh>
#include <upsweep/compact/detail/select_reduce_ahead_kernel.cuh>
#include <upsweep/compact/detail/select_tuning.cuh>
#include <upsweep/scan/cluster_tile_state.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/arguments.hpp>
#include <upsweep/util/chained_launch.cuh>
#include <upsweep/util/error.hpp>
#include <upsweep/util/occupancy.hpp>
#include <upsweep/util/one_wave.hpp>
#include <upsweep/util/temp_storage.hpp>

#include <cuda/std/iterator>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

#include <climits>
#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

template <class Policy, class InputIt>
using select_policy_t =
    cuda::std::conditional_t<cuda::std::is_void_v<Policy>,
                             default_select_policy<typename cuda::std::iterator_traits<InputIt>::value_type>, Policy>;

// Whether the tiles' writes may land on input that earlier tiles read (in place): then the tile
// state orders memory (count_tile_state's ordered mode). Iterators other than plain pointers
// cannot be compared, so they count as sharing memory.
template <class InputIt, class OutputIt>
bool output_may_alias_input(InputIt d_in, OutputIt d_out, std::int64_t num_items) {
  if constexpr (cuda::std::is_pointer_v<InputIt> && cuda::std::is_pointer_v<OutputIt>) {
    return ranges_overlap(d_in, d_out, num_items);
  } else {
    return true;
  }
}

template <class Policy>
constexpr std::size_t select_state_bytes(std::int64_t num_items) {
  if (num_items <= 0) return 0;
  return count_tile_state::bytes(ceil_div<std::int64_t>(num_items, Policy::tile_items));
}

// The checks of a real call's pointers, before any CUDA call.
template <select_output Output, class InputIt, class OutputIt>
cudaError_t check_select_arguments(InputIt d_in, OutputIt d_out, const std::int64_t* d_num_selected,
                                   std::int64_t num_items) {
  if (d_num_selected == nullptr) return cudaErrorInvalidValue;
  if (num_items > 0 && is_null(d_in)) return cudaErrorInvalidValue;
  if constexpr (Output != select_output::count_only) {
    if (num_items > 0 && is_null(d_out)) return cudaErrorInvalidValue;
    // Survivors may go in place (each lands at or before its own index); partition's rejected
    // tail lands past it, so its output may not touch the input at all.
    const bool bad_overlap = is_partition(Output) ? ranges_overlap(d_in, d_out, num_items)
                                                  : ranges_overlap_partly(d_in, d_out, num_items);
    if (bad_overlap) return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

// The size query (d_temp_storage == nullptr writes temp_storage_bytes alone) and the checks of a
// real call's arguments, all before any CUDA call; `state_storage` gets the tile state's bytes.
template <class Policy, select_output Output, class InputIt, class OutputIt>
cudaError_t prepare_select(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                           std::int64_t* d_num_selected, std::int64_t num_items, void*& state_storage) {
  using item_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  static_assert(cuda::std::is_trivially_copyable_v<item_t>, "items must be trivially copyable");
  static_assert(sizeof(item_t) >= 1 && sizeof(item_t) <= 16, "items of 1 to 16 bytes");
  // Counts share a word with their status (count_tile_state): 62 bits, far past any allocation.
  if (num_items < 0 || num_items > count_tile_state::max_count) return cudaErrorInvalidValue;
  void* allocations[1] = {};
  const std::size_t sizes[1] = {select_state_bytes<Policy>(num_items)};
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  state_storage = allocations[0];
  if (d_temp_storage == nullptr) return cudaSuccess;
  return check_select_arguments<Output>(d_in, d_out, d_num_selected, num_items);
}

// Whether a policy's one-wave tiles apply: it names some, and the tile has no stencil flags to
// stage beside its items (they would not fit the 48 KB of static shared memory).
template <class OneWave, class Source>
constexpr bool one_wave_fits() {
  if constexpr (cuda::std::is_void_v<OneWave>) {
    return false;
  } else {
    using buffer_t = typename flag_value<Source, OneWave::block_threads, OneWave::items_per_thread>::buffer;
    return cuda::std::is_same_v<buffer_t, no_flag_buffer>;
  }
}

template <class Policy, select_output Output, class InputIt, class OutputIt, class Source>
cudaError_t dispatch_select(void* d_temp_storage, std::size_t& temp_storage_bytes, InputIt d_in, OutputIt d_out,
                            std::int64_t* d_num_selected, std::int64_t num_items, Source source,
                            cudaStream_t stream) {
  using item_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  void* state_storage = nullptr;
  UPSWEEP_CUDA_RETURN((prepare_select<Policy, Output>(d_temp_storage, temp_storage_bytes, d_in, d_out, d_num_selected,
                                                      num_items, state_storage)));
  if (d_temp_storage == nullptr) return cudaSuccess;
  // No tile writes the count when there is none; the memset keeps n = 0 graph-capturable too.
  if (num_items == 0) return cudaMemsetAsync(d_num_selected, 0, sizeof(std::int64_t), stream);

  const std::int64_t num_tiles = ceil_div<std::int64_t>(num_items, Policy::tile_items);
  // Blocks claim tiles in a loop, so the grid needs no more blocks than tiles (nor than a grid may have).
  const unsigned grid = static_cast<unsigned>(num_tiles < INT_MAX ? num_tiles : INT_MAX);
  using block_per_tile = few_tiles_policy_t<Policy>;
  bool one_cluster = false;
  UPSWEEP_CUDA_RETURN(fits_one_portable_cluster<Policy>(num_tiles, one_cluster));
  if (one_cluster) {
    using state_t = cluster_tile_state<count_tile_state::value_type>;
    return launch_tile_kernel<state_t>(select_kernel<block_per_tile, Output, InputIt, OutputIt, Source, state_t>,
                                       num_tiles, dim3(block_per_tile::block_threads), stream, d_in, d_out,
                                       d_num_selected, static_cast<long long>(num_items),
                                       static_cast<long long>(num_tiles), source, state_t{});
  }
  bool ordered = false;
  if constexpr (Output == select_output::survivors) ordered = output_may_alias_input(d_in, d_out, num_items);
  using one_wave = one_wave_policy_t<Policy>;
  if constexpr (one_wave_fits<one_wave, Source>()) {
    constexpr auto kernel = select_kernel<one_wave, Output, InputIt, OutputIt, Source, count_tile_state>;
    std::int64_t wave_tiles = 0;
    UPSWEEP_CUDA_RETURN((one_wave_tiles<kernel, one_wave::block_threads>(num_items, block_per_tile::tile_items,
                                                                          one_wave::tile_items, wave_tiles)));
    if (wave_tiles > 0) {
      UPSWEEP_CUDA_RETURN(count_tile_state::initialize(state_storage, wave_tiles, stream));
      return launch_chained(kernel, dim3(static_cast<unsigned>(wave_tiles)), dim3(one_wave::block_threads), stream,
                            d_in, d_out, d_num_selected, static_cast<long long>(num_items),
                            static_cast<long long>(wave_tiles), source, count_tile_state(state_storage, ordered));
    }
  }
  UPSWEEP_CUDA_RETURN(count_tile_state::initialize(state_storage, num_tiles, stream));
  const count_tile_state state(state_storage, ordered);
  if constexpr (Policy::schedule == tile_schedule::reduce_ahead && cuda::std::is_pointer_v<InputIt>) {
    // Stencil flags would need a third tile buffer: those keep a block per tile.
    using flag_buffer_t = typename flag_value<Source, Policy::block_threads, Policy::items_per_thread>::buffer;
    if constexpr (prefetchable_v<item_t, Policy::items_per_thread> &&
                  cuda::std::is_same_v<flag_buffer_t, no_flag_buffer>) {
      constexpr auto kernel = select_reduce_ahead_kernel<Policy, Output, item_t, OutputIt, Source, count_tile_state>;
      constexpr std::size_t dynamic = dynamic_shared_bytes_v<select_reduce_ahead_storage_t<Policy, item_t, Source>>;
      int resident = 0;
      UPSWEEP_CUDA_RETURN(
          (persistent_grid<kernel, Policy::block_threads, dynamic>(Policy::persistent_grid_limit, resident)));
      // Worth it once blocks take several tiles (as for the scan).
      if (num_tiles > resident && is_aligned_16(d_in))
        return launch_chained_shared(kernel, dim3(resident), dim3(Policy::block_threads), dynamic, stream, d_in, d_out,
                                     d_num_selected, static_cast<long long>(num_items),
                                     static_cast<long long>(num_tiles), source, state);
    }
  }
  return launch_chained(select_kernel<block_per_tile, Output, InputIt, OutputIt, Source, count_tile_state>, dim3(grid),
                        dim3(block_per_tile::block_threads), stream, d_in, d_out, d_num_selected,
                        static_cast<long long>(num_items), static_cast<long long>(num_tiles), source, state);
}

}  // namespace upsweep::detail
