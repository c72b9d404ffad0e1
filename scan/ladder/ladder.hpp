// The seed algorithm ladder: the scans and reductions of the seed posts (shared/seeds/), one
// correct rung per step, for any n, so the benchmark can show what each step buys on the way to
// the production decoupled look-back. Core-layer calling convention: caller temporary storage,
// d_temp_storage == nullptr is a pure size query, never allocates or synchronises, asynchronous
// on `stream`, returns the first CUDA error. Sums only; n == 0 writes nothing (scans) or 0 (reduce).
// Compiled for T in int32_t, uint32_t, float (scans) and int32_t, float (reduce): link upsweep_ladder.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace upsweep {

enum class scan_variant {
  fenwick,                     // seed 000: Fenwick-tree build, O(log n) query per item
  blelloch_bcao,               // seed 000: work-efficient up/down sweep, bank-conflict-free padding
  scan_then_fan,               // seed 002: scan tiles, scan tile totals recursively, add bases
  reduce_then_scan_recursive,  // seed 002: sum tiles, scan sums recursively, scan tiles with bases
  reduce_then_scan_two_pass,   // seed 002: one part per block, no recursion
  warp_kogge_stone_smem,       // seed 002 warp scans, each in the scan-then-fan driver ...
  warp_kogge_stone_padded,
  warp_shfl_up,
  warp_shfl_ptx,
  decoupled_look_back,         // production upsweep::inclusive_sum / exclusive_sum: the reference row
};

enum class reduce_variant {
  reduce0_interleaved_modulo,  // seed 001 / 004 ladder ...
  reduce1_strided_index,
  reduce2_sequential,
  reduce3_first_add_on_load,
  reduce4_last_warp_shuffle,
  reduce5_unrolled,
  reduce6_multi_element,
  tree_add_mask,                // seed 003
  unrolled_last_warp_volatile,  // seed 004
};

inline constexpr scan_variant all_scan_variants[] = {
    scan_variant::fenwick,
    scan_variant::blelloch_bcao,
    scan_variant::scan_then_fan,
    scan_variant::reduce_then_scan_recursive,
    scan_variant::reduce_then_scan_two_pass,
    scan_variant::warp_kogge_stone_smem,
    scan_variant::warp_kogge_stone_padded,
    scan_variant::warp_shfl_up,
    scan_variant::warp_shfl_ptx,
    scan_variant::decoupled_look_back,
};

inline constexpr reduce_variant all_reduce_variants[] = {
    reduce_variant::reduce0_interleaved_modulo,
    reduce_variant::reduce1_strided_index,
    reduce_variant::reduce2_sequential,
    reduce_variant::reduce3_first_add_on_load,
    reduce_variant::reduce4_last_warp_shuffle,
    reduce_variant::reduce5_unrolled,
    reduce_variant::reduce6_multi_element,
    reduce_variant::tree_add_mask,
    reduce_variant::unrolled_last_warp_volatile,
};

// The enumerator's name, as the benchmark rows spell it.
constexpr const char* name(scan_variant v) {
  switch (v) {
    case scan_variant::fenwick: return "fenwick";
    case scan_variant::blelloch_bcao: return "blelloch_bcao";
    case scan_variant::scan_then_fan: return "scan_then_fan";
    case scan_variant::reduce_then_scan_recursive: return "reduce_then_scan_recursive";
    case scan_variant::reduce_then_scan_two_pass: return "reduce_then_scan_two_pass";
    case scan_variant::warp_kogge_stone_smem: return "warp_kogge_stone_smem";
    case scan_variant::warp_kogge_stone_padded: return "warp_kogge_stone_padded";
    case scan_variant::warp_shfl_up: return "warp_shfl_up";
    case scan_variant::warp_shfl_ptx: return "warp_shfl_ptx";
    case scan_variant::decoupled_look_back: return "decoupled_look_back";
  }
  return "unknown";
}

constexpr const char* name(reduce_variant v) {
  switch (v) {
    case reduce_variant::reduce0_interleaved_modulo: return "reduce0_interleaved_modulo";
    case reduce_variant::reduce1_strided_index: return "reduce1_strided_index";
    case reduce_variant::reduce2_sequential: return "reduce2_sequential";
    case reduce_variant::reduce3_first_add_on_load: return "reduce3_first_add_on_load";
    case reduce_variant::reduce4_last_warp_shuffle: return "reduce4_last_warp_shuffle";
    case reduce_variant::reduce5_unrolled: return "reduce5_unrolled";
    case reduce_variant::reduce6_multi_element: return "reduce6_multi_element";
    case reduce_variant::tree_add_mask: return "tree_add_mask";
    case reduce_variant::unrolled_last_warp_volatile: return "unrolled_last_warp_volatile";
  }
  return "unknown";
}

// out[i] = in[0] + ... + in[i]. In place (d_out == d_in) is allowed.
template <class T>
cudaError_t ladder_inclusive_scan(scan_variant variant, void* d_temp_storage, std::size_t& temp_storage_bytes,
                                  const T* d_in, T* d_out, std::int64_t num_items, cudaStream_t stream = 0);

// out[0] = 0, out[i] = in[0] + ... + in[i - 1]. In place (d_out == d_in) is allowed.
template <class T>
cudaError_t ladder_exclusive_scan(scan_variant variant, void* d_temp_storage, std::size_t& temp_storage_bytes,
                                  const T* d_in, T* d_out, std::int64_t num_items, cudaStream_t stream = 0);

// *d_out = in[0] + ... + in[n - 1] (0 for n == 0), in device memory.
template <class T>
cudaError_t ladder_reduce_sum(reduce_variant variant, void* d_temp_storage, std::size_t& temp_storage_bytes,
                              const T* d_in, T* d_out, std::int64_t num_items, cudaStream_t stream = 0);

#define UPSWEEP_LADDER_DECLARE_SCAN(T)                                                                          \
  extern template cudaError_t ladder_inclusive_scan<T>(scan_variant, void*, std::size_t&, const T*, T*,        \
                                                       std::int64_t, cudaStream_t);                            \
  extern template cudaError_t ladder_exclusive_scan<T>(scan_variant, void*, std::size_t&, const T*, T*,        \
                                                       std::int64_t, cudaStream_t);
#define UPSWEEP_LADDER_DECLARE_REDUCE(T) \
  extern template cudaError_t ladder_reduce_sum<T>(reduce_variant, void*, std::size_t&, const T*, T*, std::int64_t, cudaStream_t);

UPSWEEP_LADDER_DECLARE_SCAN(std::int32_t)
UPSWEEP_LADDER_DECLARE_SCAN(std::uint32_t)
UPSWEEP_LADDER_DECLARE_SCAN(float)
UPSWEEP_LADDER_DECLARE_REDUCE(std::int32_t)
UPSWEEP_LADDER_DECLARE_REDUCE(float)

#undef UPSWEEP_LADDER_DECLARE_SCAN
#undef UPSWEEP_LADDER_DECLARE_REDUCE

}  // namespace upsweep
