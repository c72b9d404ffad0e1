// Sort across ranks over NCCL: the exchange on a communicator the caller owns (PyTorch and
// cuPyNumeric users have one), and helpers that make one: every GPU of this process
// (ncclCommInitAll), or one rank per process from a unique id the caller broadcasts (MPI:
// nccl_mpi.hpp). Target Upsweep::sort_nccl, built when CMake finds NCCL.
#pragma once

#include <upsweep/sort/detail/pinned_staging.hpp>
#include <upsweep/sort/dist_exchange.hpp>

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace upsweep {

// An NCCL failure in the convenience helpers: the call and NCCL's message.
class nccl_error : public std::runtime_error {
 public:
  nccl_error(ncclResult_t code, const std::string& call)
      : std::runtime_error(call + " failed: " + ncclGetErrorString(code)), code_(code) {}
  ncclResult_t code() const noexcept { return code_; }

 private:
  ncclResult_t code_;
};

namespace detail {
inline void throw_if_nccl_failed(ncclResult_t code, const char* call) {
  if (code != ncclSuccess) throw nccl_error(code, call);
}
}  // namespace detail

class nccl_exchange final : public dist_exchange {
 public:
  // The communicator stays the caller's; throws nccl_error if NCCL cannot describe it, cuda_error
  // if 64 KiB of page-locked host memory (the sort's plan read back) cannot be had.
  explicit nccl_exchange(ncclComm_t comm) : comm_(comm) {
    detail::throw_if_nccl_failed(ncclCommUserRank(comm, &rank_), "ncclCommUserRank");
    detail::throw_if_nccl_failed(ncclCommCount(comm, &size_), "ncclCommCount");
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }

  cudaError_t all_gather(const void* d_send, void* d_recv, std::size_t bytes, cudaStream_t stream) override {
    return check(ncclAllGather(d_send, d_recv, bytes, ncclChar, comm_, stream), "ncclAllGather");
  }

  cudaError_t all_to_all_v(const void* d_send, const std::size_t* send_bytes, const std::size_t* send_offsets,
                           void* d_recv, const std::size_t* recv_bytes, const std::size_t* recv_offsets,
                           cudaStream_t stream) override {
    cudaError_t status = check(ncclGroupStart(), "ncclGroupStart");
    for (int t = 0; t < size_ && status == cudaSuccess; ++t) {
      if (send_bytes[t] > 0)
        status = check(ncclSend(static_cast<const char*>(d_send) + send_offsets[t], send_bytes[t], ncclChar, t, comm_,
                                stream),
                       "ncclSend");
      if (status == cudaSuccess && recv_bytes[t] > 0)
        status = check(ncclRecv(static_cast<char*>(d_recv) + recv_offsets[t], recv_bytes[t], ncclChar, t, comm_, stream),
                       "ncclRecv");
    }
    const cudaError_t ended = check(ncclGroupEnd(), "ncclGroupEnd");  // a started group always ends
    return status != cudaSuccess ? status : ended;
  }

  std::string last_failure() const override { return failure_; }
  cudaError_t group_start() override { return check(ncclGroupStart(), "ncclGroupStart"); }
  cudaError_t group_end() override { return check(ncclGroupEnd(), "ncclGroupEnd"); }
  void* host_staging(std::size_t bytes) override { return staging_.get(bytes); }

 private:
  cudaError_t check(ncclResult_t code, const char* call) {
    if (code == ncclSuccess) return cudaSuccess;
    failure_ = std::string(call) + ": " + ncclGetErrorString(code);
    if (code == ncclUnhandledCudaError) {
      const cudaError_t cuda = cudaGetLastError();
      if (cuda != cudaSuccess) return cuda;
    }
    return cudaErrorUnknown;
  }

  ncclComm_t comm_;
  int rank_ = 0, size_ = 1;
  detail::pinned_staging staging_{detail::dist_staging_bytes};  // the sort's plan read back
  std::string failure_;
};

// One communicator per listed device of this process (ncclCommInitAll); the caller destroys them
// with ncclCommDestroy.
inline std::vector<ncclComm_t> nccl_comms_for_devices(const std::vector<int>& devices) {
  std::vector<ncclComm_t> comms(devices.size());
  detail::throw_if_nccl_failed(ncclCommInitAll(comms.data(), static_cast<int>(devices.size()), devices.data()),
                               "ncclCommInitAll");
  return comms;
}

}  // namespace upsweep
