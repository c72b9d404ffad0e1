// A thread that runs some work beside the caller's and hands over its exception when joined.
// Always joined: the destructor of a joinable std::thread would end the program, so an exception
// in the caller joins it on the way out. Host C++ only.
#pragma once

#include <exception>
#include <thread>
#include <utility>

namespace upsweep::apps {

class side_thread {
 public:
  template <class Work>
  explicit side_thread(Work work)
      : thread_([this, work = std::move(work)] {
          try {
            work();
          } catch (...) {
            error_ = std::current_exception();
          }
        }) {}
  ~side_thread() {
    if (thread_.joinable()) thread_.join();
  }
  side_thread(const side_thread&) = delete;
  side_thread& operator=(const side_thread&) = delete;
  // Waits for the work; rethrows what it threw.
  void join_and_rethrow() {
    thread_.join();
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::exception_ptr error_;
  std::thread thread_;  // last: it starts once error_ exists
};

}  // namespace upsweep::apps
