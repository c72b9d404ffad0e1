// Explicit instances of the compiled core-layer API (see <upsweep/scan.hpp>).
#include <upsweep/scan.hpp>
#include <upsweep/scan/device_reduce.cuh>
#include <upsweep/scan/device_scan.cuh>

namespace upsweep {

#define UPSWEEP_DEFINE_CORE(name, T)                                                                             \
  cudaError_t name(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out,               \
                   std::int64_t num_items, cudaStream_t stream) {                                                \
    return name<void>(d_temp_storage, temp_storage_bytes, d_in, d_out, num_items, stream);                       \
  }                                                                                                              \
  void name(const T* d_in, T* d_out, std::int64_t num_items, cudaStream_t stream) {                             \
    detail::with_temp_storage("upsweep::" #name, stream, [&](void* d_temp, std::size_t& bytes) {                 \
      return name<void>(d_temp, bytes, d_in, d_out, num_items, stream);                                          \
    });                                                                                                          \
  }

#define UPSWEEP_DEFINE_SCAN_API(T)     \
  UPSWEEP_DEFINE_CORE(inclusive_sum, T) \
  UPSWEEP_DEFINE_CORE(exclusive_sum, T) \
  UPSWEEP_DEFINE_CORE(reduce_sum, T)    \
  UPSWEEP_DEFINE_CORE(reduce_min, T)    \
  UPSWEEP_DEFINE_CORE(reduce_max, T)

UPSWEEP_DEFINE_SCAN_API(std::int32_t)
UPSWEEP_DEFINE_SCAN_API(std::uint32_t)
UPSWEEP_DEFINE_SCAN_API(std::int64_t)
UPSWEEP_DEFINE_SCAN_API(std::uint64_t)
UPSWEEP_DEFINE_SCAN_API(float)
UPSWEEP_DEFINE_SCAN_API(double)

}  // namespace upsweep
