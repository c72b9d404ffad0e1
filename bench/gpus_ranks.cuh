// upsweep-bench-gpus' machinery: the GPUs 0..G-1 of this process as ranks (an NCCL communicator,
// a stream and a host thread each), a start gate that every rank's stream waits on so that the
// GPUs begin within microseconds of each other, and events read as milliseconds from that start.
#pragma once

#include "bench_support.cuh"
#include "rank_threads.hpp"

#include <upsweep/sort/dist_radix_sort.cuh>
#include <upsweep/sort/nccl_exchange.hpp>

#include <atomic>
#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace upsweep::bench {

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

inline void check_nccl(ncclResult_t status, const char* what) {
  if (status != ncclSuccess) throw std::runtime_error(std::string(what) + ": " + ncclGetErrorString(status));
}
#define BENCH_NCCL(call) ::upsweep::bench::check_nccl((call), #call)

__global__ void wait_for_gate(const volatile int* open) {
  while (*open == 0) __nanosleep(500);
}

// A flag in mapped host memory. Closed, every stream that waits on it stalls; opened by a helper
// thread once every rank has enqueued what it can before its first host wait, so the launches of
// the host threads are not timed.
class start_gate {
 public:
  start_gate() {
    BENCH_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&flag_), sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable));
    *flag_ = 0;
  }
  ~start_gate() { cudaFreeHost(flag_); }
  start_gate(const start_gate&) = delete;
  start_gate& operator=(const start_gate&) = delete;

  // Enqueues the wait on `stream` (of the current device), then `start`.
  void hold(cudaStream_t stream, cudaEvent_t start) {
    int* device_flag = nullptr;
    BENCH_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_flag), flag_, 0));
    wait_for_gate<<<1, 1, 0, stream>>>(device_flag);
    BENCH_CUDA(cudaGetLastError());
    BENCH_CUDA(cudaEventRecord(start, stream));
    ++held_;
  }
  // Closes the gate and starts a thread that opens it once `ranks` streams wait on it, plus a pause
  // for their first launches.
  void arm(int ranks) {
    set(0);
    held_ = 0;
    opener_ = std::thread([this, ranks] {
      while (held_.load() < ranks) std::this_thread::yield();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      set(1);
    });
  }
  void join() {
    if (opener_.joinable()) opener_.join();
  }

 private:
  void set(int value) { *static_cast<volatile int*>(flag_) = value; }
  int* flag_ = nullptr;
  std::atomic<int> held_{0};
  std::thread opener_;
};

// One rank: its device, stream and events (start, the sort's four phases, end).
struct gpu_rank {
  int device;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, end = nullptr;
  dist_sort_phases phases;

  explicit gpu_rank(int d) : device(d) {
    BENCH_CUDA(cudaSetDevice(d));
    BENCH_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (cudaEvent_t* e : events()) BENCH_CUDA(cudaEventCreate(e));
  }
  ~gpu_rank() {
    cudaSetDevice(device);
    for (cudaEvent_t* e : events()) cudaEventDestroy(*e);
    cudaStreamDestroy(stream);
  }
  gpu_rank(const gpu_rank&) = delete;
  gpu_rank& operator=(const gpu_rank&) = delete;

  double ms_to(cudaEvent_t e) const {
    float ms = 0;
    BENCH_CUDA(cudaEventElapsedTime(&ms, start, e));
    return ms;
  }

 private:
  std::vector<cudaEvent_t*> events() {
    return {&start, &end, &phases.sorted, &phases.planned, &phases.exchanged, &phases.merged};
  }
};

// G ranks on the GPUs 0..G-1: communicators (ncclCommInitAll), ranks and their threads.
class gpu_ranks {
 public:
  explicit gpu_ranks(int g) : threads_(g) {
    std::vector<int> devices;
    for (int d = 0; d < g; ++d) devices.push_back(d);
    comms_ = nccl_comms_for_devices(devices);
    for (int d = 0; d < g; ++d) ranks_.push_back(std::make_unique<gpu_rank>(d));
  }
  ~gpu_ranks() {
    for (ncclComm_t comm : comms_) ncclCommDestroy(comm);
  }
  gpu_ranks(const gpu_ranks&) = delete;
  gpu_ranks& operator=(const gpu_ranks&) = delete;

  int size() const { return static_cast<int>(ranks_.size()); }
  gpu_rank& operator[](int r) { return *ranks_[static_cast<std::size_t>(r)]; }
  ncclComm_t comm(int r) const { return comms_[static_cast<std::size_t>(r)]; }

  // One timed run: every rank's thread sets its device, waits at the gate, runs body(r) and
  // records its end; returns when every stream is done.
  void run(const std::function<void(int)>& body) {
    gate_.arm(size());
    const std::function<void(int)> on_rank = [&](int r) {
      gpu_rank& rank = (*this)[r];
      BENCH_CUDA(cudaSetDevice(rank.device));
      gate_.hold(rank.stream, rank.start);
      body(r);
      BENCH_CUDA(cudaEventRecord(rank.end, rank.stream));
      BENCH_CUDA(cudaEventSynchronize(rank.end));
    };
    try {
      threads_.run(on_rank);
    } catch (...) {
      gate_.join();
      throw;
    }
    gate_.join();
  }
  // The latest of the ranks' `event`s, in ms from the common start.
  double latest(cudaEvent_t gpu_rank::*event) {
    double at = 0;
    for (auto& rank : ranks_) at = std::max(at, rank->ms_to((*rank).*event));
    return at;
  }
  double latest(cudaEvent_t dist_sort_phases::*phase) {
    double at = 0;
    for (auto& rank : ranks_) at = std::max(at, rank->ms_to(rank->phases.*phase));
    return at;
  }
  start_gate& gate() { return gate_; }

 private:
  std::vector<ncclComm_t> comms_;
  std::vector<std::unique_ptr<gpu_rank>> ranks_;
  rank_threads threads_;
  start_gate gate_;
};

}  // namespace upsweep::bench
