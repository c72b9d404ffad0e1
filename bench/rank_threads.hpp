// Ranks 1..P-1 of a benchmark on host threads kept for a whole row, rank 0 on the caller's, as a
// job's ranks live: the sort across ranks blocks each rank's thread on its plan, so one thread
// cannot drive two ranks. Host C++ only.
#pragma once

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace upsweep::bench {

// run(body) calls body(rank) once for every rank and returns when all have; the first failure is
// rethrown.
class rank_threads {
 public:
  explicit rank_threads(int p) : failures_(static_cast<std::size_t>(p)) {
    for (int r = 1; r < p; ++r) threads_.emplace_back([this, r] { serve(r); });
  }
  ~rank_threads() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
  }
  rank_threads(const rank_threads&) = delete;
  rank_threads& operator=(const rank_threads&) = delete;

  void run(const std::function<void(int)>& body) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      body_ = &body;
      finished_ = 0;
      ++round_;
    }
    wake_.notify_all();
    try {
      body(0);
    } catch (...) {
      failures_[0] = std::current_exception();
    }
    std::unique_lock<std::mutex> lock(mutex_);
    all_done_.wait(lock, [&] { return finished_ == static_cast<int>(threads_.size()); });
    for (std::exception_ptr& f : failures_)
      if (f) std::rethrow_exception(std::exchange(f, nullptr));
  }

 private:
  void serve(int rank) {
    long long seen = 0;
    for (;;) {
      const std::function<void(int)>* body = nullptr;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || round_ != seen; });
        if (stop_) return;
        seen = round_;
        body = body_;
      }
      try {
        (*body)(rank);
      } catch (...) {
        failures_[static_cast<std::size_t>(rank)] = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mutex_);
      if (++finished_ == static_cast<int>(threads_.size())) all_done_.notify_one();
    }
  }

  std::vector<std::exception_ptr> failures_;
  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_, all_done_;
  const std::function<void(int)>* body_ = nullptr;
  long long round_ = 0;
  int finished_ = 0;
  bool stop_ = false;
};

}  // namespace upsweep::bench
