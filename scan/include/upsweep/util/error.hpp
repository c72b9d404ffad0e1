// Errors for both API layers: the core returns cudaError_t, the convenience layer throws
// upsweep::cuda_error naming the failed call and the CUDA error. Host-only; g++ can include it.
#pragma once

#include <upsweep/export.hpp>

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace upsweep {

class UPSWEEP_EXCEPTION cuda_error : public std::runtime_error {
 public:
  cuda_error(cudaError_t code, const std::string& call, const char* file, int line)
      : std::runtime_error(describe(code, call, file, line)), code_(code) {}
  cudaError_t code() const noexcept { return code_; }

 private:
  static std::string describe(cudaError_t code, const std::string& call, const char* file, int line) {
    return call + " failed: " + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ") at " +
           file + ":" + std::to_string(line);
  }
  cudaError_t code_;
};

namespace detail {

inline void throw_if_failed(cudaError_t code, const char* call, const char* file, int line) {
  if (code != cudaSuccess) throw cuda_error(code, call, file, line);
}

}  // namespace detail
}  // namespace upsweep

// Convenience layer: throw upsweep::cuda_error naming `call` when it fails.
#define UPSWEEP_CUDA_THROW(call) ::upsweep::detail::throw_if_failed((call), #call, __FILE__, __LINE__)

// Core layer: hand the first failure back to the caller.
#define UPSWEEP_CUDA_RETURN(call)                         \
  do {                                                    \
    const cudaError_t upsweep_status_ = (call);           \
    if (upsweep_status_ != cudaSuccess) return upsweep_status_; \
  } while (0)
