// Sort across ranks, the seam to the transport: the two collectives the sort needs, enqueued on a
// stream in stream order (NCCL's semantics). Production runs over NCCL (<upsweep/sort_nccl.hpp>);
// the tests and the benchmark run P logical ranks on one GPU through the loopback
// (detail/dist_loopback.cuh), because NCCL does not run two ranks of one communicator on one GPU.
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
  // Collectives enqueued between group_start() and group_end() may run as one (NCCL: one group,
  // one kernel); a started group always ends, also after a failed collective.
  virtual cudaError_t group_start() { return cudaSuccess; }
  virtual cudaError_t group_end() { return cudaSuccess; }
  // Whether a transfer runs beside the kernels without taking their memory bandwidth (true across
  // GPUs); the sort splits its exchange into rounds by default only then.
  virtual bool transfers_overlap_kernels() const { return true; }
  // Page-locked host memory of at least `bytes` that a kernel of the sort writes its plan into
  // (once a sort), owned by the exchange: the device must be able to write it through this
  // pointer (cudaHostAlloc or cudaMallocHost memory, which unified addressing maps). nullptr: the
  // sort reads into pageable memory, which takes longer.
  virtual void* host_staging(std::size_t /*bytes*/) { return nullptr; }
};

}  // namespace upsweep

namespace upsweep {

// An exchange that hands every call on to another and shows a subclass each all-to-all first:
// the seam for counting the bytes a rank sends, and for tests and benchmarks that look at them.
class dist_exchange_watcher : public dist_exchange {
 public:
  explicit dist_exchange_watcher(dist_exchange& inner) : inner_(inner) {}
  int rank() const override { return inner_.rank(); }
  int size() const override { return inner_.size(); }
  cudaError_t all_gather(const void* d_send, void* d_recv, std::size_t bytes, cudaStream_t stream) override {
    saw_all_gather();
    return inner_.all_gather(d_send, d_recv, bytes, stream);
  }
  cudaError_t all_to_all_v(const void* d_send, const std::size_t* send_bytes, const std::size_t* send_offsets,
                           void* d_recv, const std::size_t* recv_bytes, const std::size_t* recv_offsets,
                           cudaStream_t stream) override {
    saw_all_to_all(d_send, send_bytes, send_offsets, d_recv, recv_bytes, recv_offsets);
    return inner_.all_to_all_v(d_send, send_bytes, send_offsets, d_recv, recv_bytes, recv_offsets, stream);
  }
  std::string last_failure() const override { return inner_.last_failure(); }
  cudaError_t group_start() override { return inner_.group_start(); }
  cudaError_t group_end() override { return inner_.group_end(); }
  bool transfers_overlap_kernels() const override { return inner_.transfers_overlap_kernels(); }
  void* host_staging(std::size_t bytes) override { return inner_.host_staging(bytes); }

 protected:
  virtual void saw_all_gather() {}
  virtual void saw_all_to_all(const void* d_send, const std::size_t* send_bytes, const std::size_t* send_offsets,
                              void* d_recv, const std::size_t* recv_bytes, const std::size_t* recv_offsets) = 0;

 private:
  dist_exchange& inner_;
};

}  // namespace upsweep
