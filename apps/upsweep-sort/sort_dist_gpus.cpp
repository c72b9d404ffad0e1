// --gpus N (sort_dist.hpp): the GPUs 0..N-1 of this process, one NCCL communicator each
// (ncclCommInitAll), each driven by a host thread of its own (the collective call blocks its
// caller until the small all-gathers are done, so one thread cannot drive two ranks). The input
// is split into N equal slices; the ranks' shares come back in rank order.
#include "sort_dist.hpp"
#include "sort_dist_rank.hpp"

#include <upsweep/apps/device_support.hpp>
#include <upsweep/apps/report.hpp>
#include <upsweep/apps/side_thread.hpp>
#include <upsweep/sort/nccl_exchange.hpp>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <numeric>
#include <variant>

namespace upsweep::apps {
namespace {

// The threads meet here (C++17 has no std::barrier); each learns whether all arrived ready.
// After fail() every meeting answers false at once: a rank that failed will not arrive.
class rank_barrier {
 public:
  explicit rank_barrier(int count) : count_(count) {}
  bool arrive_and_wait(bool ready) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (failed_) return false;
    const std::uint64_t generation = generation_;
    all_ready_ = all_ready_ && ready;
    if (++arrived_ == count_) {
      result_ = all_ready_;  // stays until every waiter of this generation has read it: they arrive next
      arrived_ = 0;
      all_ready_ = true;
      ++generation_;
      changed_.notify_all();
      return result_;
    }
    changed_.wait(lock, [&] { return generation_ != generation || failed_; });
    return result_ && !failed_;
  }
  void fail() {
    const std::lock_guard<std::mutex> lock(mutex_);
    failed_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int count_, arrived_ = 0;
  std::uint64_t generation_ = 0;
  bool all_ready_ = true, result_ = true, failed_ = false;
};

// The communicators of this process, destroyed on every path (checked on the normal one).
class communicators {
 public:
  explicit communicators(const std::vector<int>& devices) : comms_(upsweep::nccl_comms_for_devices(devices)) {}
  ~communicators() {  // an exception is on its way: abort, since a destroy waits for peers' work
    for (ncclComm_t comm : comms_) ncclCommAbort(comm);
  }
  communicators(const communicators&) = delete;
  communicators& operator=(const communicators&) = delete;
  ncclComm_t operator[](std::size_t r) const { return comms_[r]; }
  void destroy() {
    std::vector<ncclComm_t> comms = std::move(comms_);
    comms_.clear();
    for (ncclComm_t comm : comms) upsweep::detail::throw_if_nccl_failed(ncclCommDestroy(comm), "ncclCommDestroy");
  }

 private:
  std::vector<ncclComm_t> comms_;
};

void check_device_count(int gpus) {
  probe_device();  // "no CUDA device available", as the single-GPU sort says it
  int count = 0;
  check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  if (gpus > count)
    throw usage_error("--gpus " + std::to_string(gpus) + ": this machine has " + std::to_string(count) +
                      (count == 1 ? " CUDA device" : " CUDA devices"));
}

// Waits for every thread; rethrows the first real error, before any peer_failure it caused.
void join_ranks(std::vector<std::unique_ptr<side_thread>>& threads) {
  std::exception_ptr error, peer;
  for (auto& t : threads) {
    try {
      t->join_and_rethrow();
    } catch (const peer_failure&) {
      if (!peer) peer = std::current_exception();
    } catch (...) {
      if (!error) error = std::current_exception();
    }
  }
  if (error) std::rethrow_exception(error);
  if (peer) std::rethrow_exception(peer);
}

// `parts` appended in order into one array of their type.
number_array concatenate(const std::vector<const number_array*>& parts) {
  number_array all = *parts.front();
  std::visit(
      [&](auto& to) {
        using vector_t = std::decay_t<decltype(to)>;
        for (std::size_t r = 1; r < parts.size(); ++r) {
          const auto& from = std::get<vector_t>(*parts[r]);
          to.insert(to.end(), from.begin(), from.end());
        }
      },
      all);
  return all;
}

}  // namespace

std::vector<rank_report> sort_on_gpus(int gpus, const number_array& keys, const dist_job& job, number_array& sorted,
                                      number_array& indices, double& setup_ms, double& gather_ms) {
  check_device_count(gpus);
  const auto t_setup = std::chrono::steady_clock::now();
  std::vector<int> devices(static_cast<std::size_t>(gpus));
  std::iota(devices.begin(), devices.end(), 0);
  communicators comms(devices);
  check(cudaSetDevice(0), "cudaSetDevice");  // this thread's later work (--verify) goes to device 0
  setup_ms += ms_since(t_setup);

  const std::int64_t n = size_of(keys);
  const element_type type = type_of(keys);
  const auto* bytes = std::visit([](const auto& v) { return reinterpret_cast<const unsigned char*>(v.data()); }, keys);
  std::vector<rank_result> results(devices.size());
  rank_barrier barrier(gpus);
  const rank_meeting meet{[&barrier](bool mine) { return barrier.arrive_and_wait(mine); }, [&barrier] { barrier.fail(); }};
  std::vector<std::unique_ptr<side_thread>> threads;
  for (int r = 0; r < gpus; ++r) {
    const std::int64_t first = part_begin(n, gpus, r);
    const rank_slice slice{bytes + first * type_size(type), part_begin(n, gpus, r + 1) - first, first, n};
    const auto at = static_cast<std::size_t>(r);
    threads.push_back(std::make_unique<side_thread>(
        [&, r, at, slice] { results[at] = sort_rank(comms[at], r, type, slice, job, meet); }));
  }
  join_ranks(threads);
  comms.destroy();

  const auto t_gather = std::chrono::steady_clock::now();
  std::vector<const number_array*> key_parts, index_parts;
  std::vector<rank_report> reports;
  for (const rank_result& r : results) {
    key_parts.push_back(&r.keys);
    index_parts.push_back(&r.indices);
    reports.push_back(r.report);
  }
  sorted = concatenate(key_parts);
  if (job.pairs) indices = concatenate(index_parts);
  if (size_of(sorted) != n)
    throw gpu_error("the ranks returned " + std::to_string(size_of(sorted)) + " of " + std::to_string(n) + " items");
  gather_ms += ms_since(t_gather);
  return reports;
}

}  // namespace upsweep::apps
