// Sort across ranks, the seam to the transport: the two collectives the sort needs, enqueued on a
// stream in stream order (NCCL's semantics). Production runs over NCCL (<upsweep/sort_nccl.hpp>);
// the tests and the benchmark run P logical ranks on one GPU through the loopback
// (detail/dist_loopback.hpp), because NCCL does not run two ranks of one communicator on one GPU.
// A user with another transport may implement it too.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

namespace upsweep {

class dist_exchange {
 public:
  virtual ~dist_exchange() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Every rank's `bytes` at d_send land at d_recv + q * bytes, for every rank q.
  virtual cudaError_t all_gather(const void* d_send, void* d_recv, std::size_t bytes, cudaStream_t stream) = 0;
  // send_bytes[t] bytes at d_send + send_offsets[t] go to rank t, and rank q's bytes for this rank
  // land at d_recv + recv_offsets[q] (recv_bytes[q] of them). The arrays are host memory of size().
  virtual cudaError_t all_to_all_v(const void* d_send, const std::size_t* send_bytes, const std::size_t* send_offsets,
                                   void* d_recv, const std::size_t* recv_bytes, const std::size_t* recv_offsets,
                                   cudaStream_t stream) = 0;
  // The transport's own account of its last failure (an NCCL call and its message), or empty;
  // the collectives return cudaErrorUnknown for a failure that is not CUDA's.
  virtual std::string last_failure() const { return {}; }
};

}  // namespace upsweep
