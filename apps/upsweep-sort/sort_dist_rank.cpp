// One rank's part of upsweep-sort across ranks (sort_dist_rank.hpp). Host code over the CUDA
// runtime; the sort is instantiated by nvcc (sort_with_dist.cuh). Device memory is plain
// cudaMalloc: the tool's tracked buffers count for one thread, and --gpus runs a thread a rank.
#include "sort_dist_rank.hpp"

#include "sort_dist_backend.hpp"

#include <upsweep/apps/device_support.hpp>
#include <upsweep/apps/report.hpp>
#include <upsweep/sort/nccl_exchange.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <memory>
#include <type_traits>
#include <unistd.h>

namespace upsweep::apps {
namespace {

// The exchange over NCCL, counting the bytes that leave this rank for another rank (what a rank
// sends itself stays on its GPU) over one sort, keys and values (an all-to-all each): the
// numerator of the report's exchange GB/s.
class counting_exchange final : public upsweep::dist_exchange_watcher {
 public:
  using dist_exchange_watcher::dist_exchange_watcher;
  std::uint64_t sent_to_others() const { return sent_to_others_; }
  void start_counting() { sent_to_others_ = 0; }  // before each sort

 private:
  void saw_all_to_all(const void*, const std::size_t* send_bytes, const std::size_t*, void*, const std::size_t*,
                      const std::size_t*) override {
    for (int t = 0; t < size(); ++t)
      if (t != rank()) sent_to_others_ += send_bytes[t];
  }
  std::uint64_t sent_to_others_ = 0;
};

template <class T>
class rank_array {
 public:
  explicit rank_array(std::size_t n) : bytes_(n * sizeof(T)) {
    if (bytes_ > 0) check(cudaMalloc(&ptr_, bytes_), ("cudaMalloc of " + std::to_string(bytes_) + " bytes").c_str());
  }
  ~rank_array() {
    if (ptr_) cudaFree(ptr_);
  }
  rank_array(const rank_array&) = delete;
  rank_array& operator=(const rank_array&) = delete;
  T* get() const { return static_cast<T*>(ptr_); }
  std::size_t bytes() const { return bytes_; }

 private:
  void* ptr_ = nullptr;
  std::size_t bytes_;
};

// The rank's stream and the events that time its phases.
class rank_timing {
 public:
  rank_timing() {
    check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    for (cudaEvent_t* e : {&start_, &phases_.sorted, &phases_.planned, &phases_.exchanged, &phases_.merged})
      check(cudaEventCreate(e), "cudaEventCreate");
  }
  ~rank_timing() {
    for (cudaEvent_t e : {start_, phases_.sorted, phases_.planned, phases_.exchanged, phases_.merged})
      if (e) cudaEventDestroy(e);
    if (stream_) cudaStreamDestroy(stream_);
  }
  rank_timing(const rank_timing&) = delete;
  rank_timing& operator=(const rank_timing&) = delete;
  cudaStream_t stream() const { return stream_; }
  const dist_phase_events& phases() const { return phases_; }
  void start() { check(cudaEventRecord(start_, stream_), "cudaEventRecord"); }
  // The phases of the run that just ended (the stream has been synchronised).
  void read(rank_report& r) const {
    r.local_sort_ms = elapsed(start_, phases_.sorted);
    r.plan_ms = elapsed(phases_.sorted, phases_.planned);
    r.exchange_ms = elapsed(phases_.planned, phases_.exchanged);
    r.merge_ms = elapsed(phases_.exchanged, phases_.merged);
  }

 private:
  static double elapsed(cudaEvent_t from, cudaEvent_t to) {
    float ms = 0;
    check(cudaEventElapsedTime(&ms, from, to), "cudaEventElapsedTime");
    return ms;
  }
  cudaStream_t stream_ = nullptr;
  cudaEvent_t start_ = nullptr;
  dist_phase_events phases_;
};

// A failed collective names the transport's call when the exchange knows it.
void check_dist(cudaError_t status, const upsweep::dist_exchange& exchange) {
  if (status == cudaErrorUnknown && !exchange.last_failure().empty())
    throw gpu_error("upsweep::dist_sort failed: " + exchange.last_failure());
  check(status, "upsweep::dist_sort");
}

template <class Key, class Value>
class rank_sort {
  static constexpr bool pairs = !std::is_same_v<Value, no_index>;
  using stored_value = std::conditional_t<pairs, Value, unsigned char>;  // no index arrays without pairs

 public:
  rank_sort(ncclComm_t comm, const rank_slice& slice, const dist_job& job)
      : nccl_(comm), exchange_(nccl_), slice_(slice), job_(job),
        capacity_(dist_receive_capacity(slice.total, exchange_.size())),
        keys_in_(static_cast<std::size_t>(slice.count)), keys_out_(static_cast<std::size_t>(capacity_)),
        values_in_(pairs ? static_cast<std::size_t>(slice.count) : 0),
        values_out_(pairs ? static_cast<std::size_t>(capacity_) : 0) {}

  int rank() const { return exchange_.rank(); }

  // Temporary storage, the keys copied in, the global input indices filled.
  void set_up(rank_report& r) {
    std::size_t temp_bytes = 0;
    check_dist(dist_sort_with_upsweep(nullptr, temp_bytes, exchange_, call()), exchange_);
    temp_ = std::make_unique<rank_array<unsigned char>>(std::max<std::size_t>(temp_bytes, 1));  // null: a size query
    r.device_gib = static_cast<double>(keys_in_.bytes() + keys_out_.bytes() + values_in_.bytes() +
                                       values_out_.bytes() + temp_bytes) / bytes_per_gib;
    const auto bytes = static_cast<std::size_t>(slice_.count) * sizeof(Key);
    check(cudaMemcpyAsync(keys_in_.get(), slice_.keys, bytes, cudaMemcpyHostToDevice, timing_.stream()),
          "copying the keys in");
    if constexpr (pairs)
      check(fill_indices(values_in_.get(), slice_.count, slice_.first, timing_.stream()), "filling the indices");
    check(cudaStreamSynchronize(timing_.stream()), "copying the keys in");
  }

  // Run -1 loads the kernels, untimed; the report keeps the fastest of the job's runs.
  void run(const agree_fn& all_ready, rank_report& r) {
    r.wall_ms = std::numeric_limits<double>::infinity();
    for (int k = -1; k < std::max(job_.repeat, 1); ++k) {
      if (!all_ready(true)) throw peer_failure("another rank failed during the sort (its message says why)");
      const auto t0 = std::chrono::steady_clock::now();
      timing_.start();
      exchange_.start_counting();
      check_dist(dist_sort_with_upsweep(temp_->get(), temp_bytes(), exchange_, call()), exchange_);
      check(cudaStreamSynchronize(timing_.stream()), "upsweep::dist_sort");
      const double wall = ms_since(t0);
      if (k < 0 || wall >= r.wall_ms) continue;
      r.wall_ms = wall;
      timing_.read(r);
      r.bytes_sent = exchange_.sent_to_others();
    }
    r.items_out = num_out_;
  }

  void copy_out(rank_result& result) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<Key> keys(static_cast<std::size_t>(num_out_));
    check(cudaMemcpy(keys.data(), keys_out_.get(), keys.size() * sizeof(Key), cudaMemcpyDeviceToHost),
          "copying the keys back");
    result.keys = std::move(keys);
    if constexpr (pairs) {
      std::vector<Value> indices(static_cast<std::size_t>(num_out_));
      check(cudaMemcpy(indices.data(), values_out_.get(), indices.size() * sizeof(Value), cudaMemcpyDeviceToHost),
            "copying the indices back");
      result.indices = std::move(indices);
    }
    result.report.copy_out_ms = ms_since(t0);
  }

 private:
  dist_sort_call<Key, Value> call() {
    const int end_bit = job_.order.end_bit < 0 ? static_cast<int>(sizeof(Key) * 8) : job_.order.end_bit;
    dist_sort_call<Key, Value> c{{keys_in_.get(), keys_out_.get(), nullptr, nullptr, slice_.count,
                                  job_.order.begin_bit, end_bit, job_.order.descending},
                                 capacity_, &num_out_, timing_.phases(), timing_.stream()};
    if constexpr (pairs) {
      c.slice.values_in = values_in_.get();
      c.slice.values_out = values_out_.get();
    }
    return c;
  }
  std::size_t& temp_bytes() {
    temp_bytes_ = temp_->bytes();
    return temp_bytes_;
  }

  upsweep::nccl_exchange nccl_;
  counting_exchange exchange_;
  rank_slice slice_;
  const dist_job& job_;
  std::int64_t capacity_;
  std::int64_t num_out_ = 0;
  std::size_t temp_bytes_ = 0;
  rank_timing timing_;
  rank_array<Key> keys_in_, keys_out_;
  rank_array<stored_value> values_in_, values_out_;
  std::unique_ptr<rank_array<unsigned char>> temp_;
};

template <class Key, class Value>
rank_result sort_rank_as(ncclComm_t comm, int device, const rank_slice& slice, const dist_job& job,
                         const rank_meeting& meet) {
  rank_result result;
  rank_report& r = result.report;
  r.device = device;
  r.items_in = slice.count;
  std::unique_ptr<rank_sort<Key, Value>> sort;
  try {
    const auto t0 = std::chrono::steady_clock::now();
    check(cudaSetDevice(device), "cudaSetDevice");
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    std::snprintf(r.device_name, sizeof r.device_name, "%s", prop.name);
    gethostname(r.host, sizeof r.host - 1);  // for the report only: a failure leaves it empty
    sort = std::make_unique<rank_sort<Key, Value>>(comm, slice, job);
    r.rank = sort->rank();
    sort->set_up(r);
    r.setup_ms = ms_since(t0);
  } catch (...) {
    meet.all_ready(false);  // the other ranks must not wait for this one in the sort
    throw;
  }
  if (!meet.all_ready(true)) throw peer_failure("another rank failed before the sort (its message says why)");
  try {
    sort->run(meet.all_ready, r);
  } catch (const peer_failure&) {
    throw;
  } catch (...) {
    if (meet.failed) meet.failed();
    throw;
  }
  sort->copy_out(result);
  return result;
}

}  // namespace

rank_result sort_rank(ncclComm_t comm, int device, element_type type, const rank_slice& slice, const dist_job& job,
                      const rank_meeting& meet) {
  return with_element_type(type, [&](auto key) {
    using Key = decltype(key);
    if (!job.pairs) return sort_rank_as<Key, no_index>(comm, device, slice, job, meet);
    if (slice.total <= static_cast<std::int64_t>(std::numeric_limits<std::uint32_t>::max()))
      return sort_rank_as<Key, std::uint32_t>(comm, device, slice, job, meet);
    return sort_rank_as<Key, std::uint64_t>(comm, device, slice, job, meet);
  });
}

}  // namespace upsweep::apps
