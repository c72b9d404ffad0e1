// Concurrency (issue 9): host threads, each on its own non-blocking stream with its own temporary
// storage, running scans, sorts, compactions and histograms at once; and several calls in flight
// on one stream, each with its own temporary storage. Every result is checked against a CPU
// reference: no call may share hidden state (tile counters, look-back words, pass plans) with
// another. Compiled API, core layer (caller storage) and convenience layer (stream-ordered).
#include <upsweep/compact.hpp>
#include <upsweep/histogram.hpp>
#include <upsweep/scan.hpp>
#include <upsweep/sort.hpp>

#include "tests/support/device_buffer.hpp"
#include "tests/support/gpu_test.hpp"
#include "tests/support/seed.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <mutex>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

using upsweep::predicate;
using upsweep::test::check;

// Failures seen by worker threads, reported by the test's own thread (gtest assertions belong
// there).
class failure_log {
 public:
  void add(const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex_);
    failures_.push_back(what);
  }
  const std::vector<std::string>& all() const { return failures_; }

 private:
  std::mutex mutex_;
  std::vector<std::string> failures_;
};

// A non-blocking stream owned by one worker thread. Declared before the arrays allocated on it, so
// it outlives their stream-ordered frees; destroying it first would hand a dead handle to
// cudaFreeAsync.
class owned_stream {
 public:
  owned_stream() { check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreateWithFlags"); }
  owned_stream(const owned_stream&) = delete;
  owned_stream& operator=(const owned_stream&) = delete;
  ~owned_stream() {
    cudaStreamSynchronize(stream_);  // a destructor cannot report; the tests check the last error
    cudaStreamDestroy(stream_);
  }
  operator cudaStream_t() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// Device memory allocated on one stream, freed on it.
template <class T>
class stream_array {
 public:
  stream_array(std::int64_t n, cudaStream_t stream) : stream_(stream) {
    check(cudaMallocAsync(&ptr_, static_cast<std::size_t>(n > 0 ? n : 1) * sizeof(T), stream), "cudaMallocAsync");
  }
  stream_array(const stream_array&) = delete;
  stream_array& operator=(const stream_array&) = delete;
  ~stream_array() { cudaFreeAsync(ptr_, stream_); }
  T* data() const { return ptr_; }

 private:
  T* ptr_ = nullptr;
  cudaStream_t stream_;
};

template <class T>
void upload(T* d, const std::vector<T>& h, cudaStream_t s) {
  check(cudaMemcpyAsync(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice, s), "cudaMemcpyAsync H2D");
}
template <class T>
std::vector<T> download(const T* d, std::int64_t n, cudaStream_t s) {
  std::vector<T> h(static_cast<std::size_t>(n));
  check(cudaMemcpyAsync(h.data(), d, h.size() * sizeof(T), cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync D2H");
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
  return h;
}

// One worker's round: scan, sort pairs, select and histogram of its own data on its own stream,
// core layer with temporary storage of its own, all enqueued before the first sync.
void run_round(std::uint64_t seed, std::int64_t n, cudaStream_t stream, failure_log& log, const std::string& who) {
  std::mt19937_64 rng(seed);
  std::vector<std::int64_t> values(static_cast<std::size_t>(n));
  std::vector<std::uint32_t> keys(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < keys.size(); ++i) {
    values[i] = static_cast<std::int64_t>(rng() % 2001) - 1000;
    keys[i] = static_cast<std::uint32_t>(rng() >> (rng() % 24));  // varied bit lengths: passes differ per call
  }
  stream_array<std::int64_t> d_values(n, stream), d_prefix(n, stream), d_kept(n, stream), d_count(1, stream);
  stream_array<std::uint32_t> d_keys(n, stream), d_sorted(n, stream), d_ids(n, stream), d_sorted_ids(n, stream);
  stream_array<std::uint32_t> d_bins(64, stream);
  std::vector<std::uint32_t> ids(keys.size());
  std::iota(ids.begin(), ids.end(), 0u);
  upload(d_values.data(), values, stream);
  upload(d_keys.data(), keys, stream);
  upload(d_ids.data(), ids, stream);

  const auto with_temp = [&](auto&& call) {
    std::size_t bytes = 0;
    check(call(nullptr, bytes), "size query");
    stream_array<unsigned char> temp(static_cast<std::int64_t>(bytes), stream);
    check(call(temp.data(), bytes), "core call");
  };
  with_temp([&](void* t, std::size_t& b) { return upsweep::inclusive_sum(t, b, d_values.data(), d_prefix.data(), n, stream); });
  with_temp([&](void* t, std::size_t& b) {
    return upsweep::sort_pairs(t, b, d_keys.data(), d_sorted.data(), d_ids.data(), d_sorted_ids.data(), n, 0, 32, stream);
  });
  with_temp([&](void* t, std::size_t& b) {
    return upsweep::select_if(t, b, d_values.data(), d_kept.data(), d_count.data(), n,
                              predicate<std::int64_t>::greater(0), stream);
  });
  with_temp([&](void* t, std::size_t& b) {
    return upsweep::histogram_even(t, b, d_keys.data(), n, d_bins.data(), 64, 0LL, 1LL << 32,
                                   upsweep::histogram_mode::overwrite, stream);
  });

  std::vector<std::int64_t> prefix(values.size());
  std::partial_sum(values.begin(), values.end(), prefix.begin());
  if (download(d_prefix.data(), n, stream) != prefix) log.add(who + ": inclusive_sum differs from the CPU");

  std::vector<std::uint32_t> order(ids);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  std::vector<std::uint32_t> sorted(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) sorted[i] = keys[order[i]];
  if (download(d_sorted.data(), n, stream) != sorted) log.add(who + ": sort_pairs keys differ from std::stable_sort");
  if (download(d_sorted_ids.data(), n, stream) != order) log.add(who + ": sort_pairs values differ from std::stable_sort");

  std::vector<std::int64_t> kept;
  std::copy_if(values.begin(), values.end(), std::back_inserter(kept), [](std::int64_t x) { return x > 0; });
  const std::int64_t count = download(d_count.data(), 1, stream)[0];
  if (count != static_cast<std::int64_t>(kept.size()) || download(d_kept.data(), count, stream) != kept)
    log.add(who + ": select_if differs from std::copy_if");

  std::vector<std::uint32_t> bins(64, 0);
  for (std::uint32_t k : keys) ++bins[k >> 26];
  if (download(d_bins.data(), 64, stream) != bins) log.add(who + ": histogram_even differs from the CPU");
}

class Concurrency : public upsweep::test::gpu_test {
 protected:
  std::uint64_t seed = upsweep::test::fresh_seed();
};

// Runs body(t, stream, log) on num_threads threads at once, each on its own non-blocking stream;
// what they log or throw is reported by the test's own thread.
template <class Body>
void on_worker_threads(int num_threads, Body body) {
  failure_log log;
  std::vector<std::thread> workers;
  for (int t = 0; t < num_threads; ++t) {
    workers.emplace_back([&, t] {
      try {
        const owned_stream stream;
        body(t, static_cast<cudaStream_t>(stream), log);
      } catch (const std::exception& e) {
        log.add("thread " + std::to_string(t) + ": " + e.what());
      }
    });
  }
  for (auto& w : workers) w.join();
  for (const auto& f : log.all()) ADD_FAILURE() << f;
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST_F(Concurrency, ThreadsOnTheirOwnStreamsGetTheirOwnCorrectResults) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  constexpr int rounds = 6;
  on_worker_threads(8, [&](int t, cudaStream_t stream, failure_log& log) {
    for (int r = 0; r < rounds; ++r) {
      // Sizes from one tile to many, different in every thread and round.
      const std::int64_t n = upsweep::test::max_test_items(1 + static_cast<std::int64_t>((seed >> (t + r)) % 400'000) +
                                                           (t * 7919 + r * 104729) % 50'000);
      run_round(seed + static_cast<std::uint64_t>(t * rounds + r), n, stream, log,
                "thread " + std::to_string(t) + " round " + std::to_string(r) + " n " + std::to_string(n));
    }
  });
}

TEST_F(Concurrency, CallsInFlightOnOneStreamKeepTheirOwnTemporaryStorage) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  constexpr int calls = 12;
  const std::int64_t n = upsweep::test::max_test_items(250'001);
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::uint64_t>> inputs(calls);
  std::vector<std::uint64_t*> d_in(calls), d_scan(calls), d_sorted(calls);
  std::vector<void*> d_temp(calls);
  std::vector<std::int64_t*> d_count(calls);
  std::vector<std::uint64_t*> d_selected(calls);
  // Every call a different size, also when the sanitizer run caps n (9000 items under racecheck).
  const std::int64_t step = std::min<std::int64_t>(1000, n / (2 * calls));
  for (int c = 0; c < calls; ++c) {
    inputs[c].resize(static_cast<std::size_t>(n - c * step));
    for (auto& x : inputs[c]) x = rng() >> (c * 4);
    const std::int64_t m = static_cast<std::int64_t>(inputs[c].size());
    CUDA_OK(cudaMallocAsync(&d_in[c], m * sizeof(std::uint64_t), stream));
    CUDA_OK(cudaMallocAsync(&d_scan[c], m * sizeof(std::uint64_t), stream));
    CUDA_OK(cudaMallocAsync(&d_sorted[c], m * sizeof(std::uint64_t), stream));
    CUDA_OK(cudaMallocAsync(&d_selected[c], m * sizeof(std::uint64_t), stream));
    CUDA_OK(cudaMallocAsync(&d_count[c], sizeof(std::int64_t), stream));
    CUDA_OK(cudaMemcpyAsync(d_in[c], inputs[c].data(), m * sizeof(std::uint64_t), cudaMemcpyHostToDevice, stream));
    // One blob per call, big enough for each of its three primitives, so no call shares temporaries.
    std::size_t scan_bytes = 0, sort_bytes = 0, select_bytes = 0;
    CUDA_OK(upsweep::exclusive_sum(nullptr, scan_bytes, d_in[c], d_scan[c], m));
    CUDA_OK(upsweep::sort_keys_descending(nullptr, sort_bytes, d_in[c], d_sorted[c], m));
    CUDA_OK(upsweep::select_if(nullptr, select_bytes, d_in[c], d_selected[c], d_count[c], m,
                               predicate<std::uint64_t>::even()));
    const std::size_t bytes = std::max({scan_bytes, sort_bytes, select_bytes});
    CUDA_OK(cudaMallocAsync(&d_temp[c], bytes, stream));
  }
  // All calls enqueued back to back, no sync in between; each uses its own temporaries, and a
  // call's three primitives run in stream order, so they may share that call's blob.
  for (int c = 0; c < calls; ++c) {
    const std::int64_t m = static_cast<std::int64_t>(inputs[c].size());
    std::size_t bytes = 0;
    CUDA_OK(upsweep::exclusive_sum(nullptr, bytes, d_in[c], d_scan[c], m));
    CUDA_OK(upsweep::exclusive_sum(d_temp[c], bytes, d_in[c], d_scan[c], m, stream));
    CUDA_OK(upsweep::sort_keys_descending(nullptr, bytes, d_in[c], d_sorted[c], m));
    CUDA_OK(upsweep::sort_keys_descending(d_temp[c], bytes, d_in[c], d_sorted[c], m, 0, 64, stream));
    CUDA_OK(upsweep::select_if(nullptr, bytes, d_in[c], d_selected[c], d_count[c], m, predicate<std::uint64_t>::even()));
    CUDA_OK(upsweep::select_if(d_temp[c], bytes, d_in[c], d_selected[c], d_count[c], m,
                               predicate<std::uint64_t>::even(), stream));
  }
  CUDA_OK(cudaStreamSynchronize(stream));
  for (int c = 0; c < calls; ++c) {
    SCOPED_TRACE("call " + std::to_string(c));
    const auto& in = inputs[c];
    const std::int64_t m = static_cast<std::int64_t>(in.size());
    std::vector<std::uint64_t> expected(in.size());
    std::exclusive_scan(in.begin(), in.end(), expected.begin(), std::uint64_t{0});
    EXPECT_EQ(download(d_scan[c], m, stream), expected) << "exclusive_sum";
    expected = in;
    std::sort(expected.begin(), expected.end(), std::greater<>());
    EXPECT_EQ(download(d_sorted[c], m, stream), expected) << "sort_keys_descending";
    expected.clear();
    std::copy_if(in.begin(), in.end(), std::back_inserter(expected), [](std::uint64_t x) { return x % 2 == 0; });
    const std::int64_t count = download(d_count[c], 1, stream)[0];
    ASSERT_EQ(count, static_cast<std::int64_t>(expected.size()));
    EXPECT_EQ(download(d_selected[c], count, stream), expected) << "select_if";
  }
  for (int c = 0; c < calls; ++c) {
    for (void* p : {static_cast<void*>(d_in[c]), static_cast<void*>(d_scan[c]), static_cast<void*>(d_sorted[c]),
                    static_cast<void*>(d_selected[c]), static_cast<void*>(d_count[c]), d_temp[c]})
      CUDA_OK(cudaFreeAsync(p, stream));
  }
  CUDA_OK(cudaStreamSynchronize(stream));
  CUDA_OK(cudaStreamDestroy(stream));
}

TEST_F(Concurrency, ConvenienceCallsFromManyThreadsShareNothing) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  on_worker_threads(8, [&](int t, cudaStream_t stream, failure_log& log) {
    std::mt19937_64 rng(seed ^ (0x9e3779b97f4a7c15ull * (t + 1)));
    const std::int64_t n = upsweep::test::max_test_items(100'000 + 37'003 * t);
    std::vector<float> items(static_cast<std::size_t>(n));
    for (auto& x : items) x = static_cast<float>(static_cast<std::int32_t>(rng() % 20001) - 10000) / 16;
    stream_array<float> d_items(n, stream), d_out(n, stream);
    upload(d_items.data(), items, stream);
    for (int r = 0; r < 4; ++r) {
      upsweep::sort_keys(d_items.data(), d_out.data(), n, 0, 32, stream);
      std::vector<float> expected = items;
      std::stable_sort(expected.begin(), expected.end());
      if (download(d_out.data(), n, stream) != expected) log.add("thread " + std::to_string(t) + ": sort_keys");
      const std::int64_t kept = upsweep::stable_partition(d_items.data(), d_out.data(), n, predicate<float>::less(0.0f), stream);
      std::vector<float> part = items;
      std::stable_partition(part.begin(), part.end(), [](float x) { return x < 0.0f; });
      const auto got = download(d_out.data(), n, stream);
      if (kept != std::count_if(items.begin(), items.end(), [](float x) { return x < 0.0f; }) || got != part)
        log.add("thread " + std::to_string(t) + ": partition");
    }
  });
}

}  // namespace
