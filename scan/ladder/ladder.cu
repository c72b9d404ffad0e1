// Dispatch from the ladder's enums to its rungs, and the compiled instances for the ladder's
// types (see ladder.hpp).
#include "ladder.hpp"

#include "blelloch_bcao_scan.cuh"
#include "fenwick_scan.cuh"
#include "reduce0_interleaved_modulo.cuh"
#include "reduce1_strided_index.cuh"
#include "reduce2_sequential.cuh"
#include "reduce3_first_add_on_load.cuh"
#include "reduce4_last_warp_shuffle.cuh"
#include "reduce5_unrolled.cuh"
#include "reduce6_multi_element.cuh"
#include "reduce_then_scan.cuh"
#include "scan_then_fan.cuh"
#include "tree_add_reduce.cuh"
#include "unrolled_last_warp_reduce.cuh"
#include "warp_scan_variants.cuh"

#include <upsweep/scan/device_scan.cuh>

namespace upsweep {
namespace {

template <bool Exclusive, class T>
cudaError_t dispatch_ladder_scan(scan_variant variant, void* d_temp, std::size_t& bytes, const T* d_in, T* d_out,
                                 std::int64_t n, cudaStream_t stream) {
  using namespace ladder;
  switch (variant) {
    case scan_variant::fenwick:
      return fenwick_scan<Exclusive>(d_temp, bytes, d_in, d_out, n, stream);
    case scan_variant::blelloch_bcao:
      return scan_then_fan<blelloch_bcao_tile<>, Exclusive>(d_temp, bytes, d_in, d_out, n, stream);
    case scan_variant::scan_then_fan:
      return scan_then_fan<scan_then_fan_tile, Exclusive>(d_temp, bytes, d_in, d_out, n, stream);
    case scan_variant::reduce_then_scan_recursive:
      return reduce_then_scan_recursive<Exclusive>(d_temp, bytes, d_in, d_out, n, stream);
    case scan_variant::reduce_then_scan_two_pass:
      return reduce_then_scan_two_pass<Exclusive>(d_temp, bytes, d_in, d_out, n, stream);
    case scan_variant::warp_kogge_stone_smem:
      return scan_then_fan<warp_organised_tile<kogge_stone_smem>, Exclusive>(d_temp, bytes, d_in, d_out, n, stream);
    case scan_variant::warp_kogge_stone_padded:
      return scan_then_fan<warp_organised_tile<kogge_stone_padded>, Exclusive>(d_temp, bytes, d_in, d_out, n, stream);
    case scan_variant::warp_shfl_up:
      return scan_then_fan<warp_organised_tile<shfl_up_warp_scan>, Exclusive>(d_temp, bytes, d_in, d_out, n, stream);
    case scan_variant::warp_shfl_ptx:
      return scan_then_fan<warp_organised_tile<shfl_ptx_warp_scan>, Exclusive>(d_temp, bytes, d_in, d_out, n, stream);
    case scan_variant::decoupled_look_back:
      if constexpr (Exclusive) return exclusive_sum(d_temp, bytes, d_in, d_out, n, stream);
      else return inclusive_sum(d_temp, bytes, d_in, d_out, n, stream);
  }
  return cudaErrorInvalidValue;
}

}  // namespace

template <class T>
cudaError_t ladder_inclusive_scan(scan_variant variant, void* d_temp_storage, std::size_t& temp_storage_bytes,
                                  const T* d_in, T* d_out, std::int64_t num_items, cudaStream_t stream) {
  return dispatch_ladder_scan<false>(variant, d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, stream);
}

template <class T>
cudaError_t ladder_exclusive_scan(scan_variant variant, void* d_temp_storage, std::size_t& temp_storage_bytes,
                                  const T* d_in, T* d_out, std::int64_t num_items, cudaStream_t stream) {
  return dispatch_ladder_scan<true>(variant, d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, stream);
}

template <class T>
cudaError_t ladder_reduce_sum(reduce_variant variant, void* d_temp_storage, std::size_t& temp_storage_bytes,
                              const T* d_in, T* d_out, std::int64_t num_items, cudaStream_t stream) {
  using namespace ladder;
  void* const d_temp = d_temp_storage;
  std::size_t& bytes = temp_storage_bytes;
  switch (variant) {
    case reduce_variant::reduce0_interleaved_modulo:
      return reduce_ladder<reduce0_interleaved_modulo>(d_temp, bytes, d_in, d_out, num_items, stream);
    case reduce_variant::reduce1_strided_index:
      return reduce_ladder<reduce1_strided_index>(d_temp, bytes, d_in, d_out, num_items, stream);
    case reduce_variant::reduce2_sequential:
      return reduce_ladder<reduce2_sequential>(d_temp, bytes, d_in, d_out, num_items, stream);
    case reduce_variant::reduce3_first_add_on_load:
      return reduce_ladder<reduce3_first_add_on_load>(d_temp, bytes, d_in, d_out, num_items, stream);
    case reduce_variant::reduce4_last_warp_shuffle:
      return reduce_ladder<reduce4_last_warp_shuffle>(d_temp, bytes, d_in, d_out, num_items, stream);
    case reduce_variant::reduce5_unrolled:
      return reduce_ladder<reduce5_unrolled<256>>(d_temp, bytes, d_in, d_out, num_items, stream);
    case reduce_variant::reduce6_multi_element:
      return reduce_ladder<reduce6_multi_element>(d_temp, bytes, d_in, d_out, num_items, stream);
    case reduce_variant::tree_add_mask:
      return reduce_ladder<tree_add_mask>(d_temp, bytes, d_in, d_out, num_items, stream);
    case reduce_variant::unrolled_last_warp_volatile:
      return reduce_ladder<unrolled_last_warp_volatile>(d_temp, bytes, d_in, d_out, num_items, stream);
  }
  return cudaErrorInvalidValue;
}

#define UPSWEEP_LADDER_DEFINE_SCAN(T)                                                                         \
  template cudaError_t ladder_inclusive_scan<T>(scan_variant, void*, std::size_t&, const T*, T*, std::int64_t, \
                                                cudaStream_t);                                                 \
  template cudaError_t ladder_exclusive_scan<T>(scan_variant, void*, std::size_t&, const T*, T*, std::int64_t, \
                                                cudaStream_t);
#define UPSWEEP_LADDER_DEFINE_REDUCE(T) \
  template cudaError_t ladder_reduce_sum<T>(reduce_variant, void*, std::size_t&, const T*, T*, std::int64_t, cudaStream_t);

UPSWEEP_LADDER_DEFINE_SCAN(std::int32_t)
UPSWEEP_LADDER_DEFINE_SCAN(std::uint32_t)
UPSWEEP_LADDER_DEFINE_SCAN(float)
UPSWEEP_LADDER_DEFINE_REDUCE(std::int32_t)
UPSWEEP_LADDER_DEFINE_REDUCE(float)

}  // namespace upsweep
