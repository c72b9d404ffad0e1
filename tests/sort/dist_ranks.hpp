// Tests of the sort across ranks: P logical ranks on one GPU, each on its own host thread and
// stream, exchanging through the loopback.
#pragma once

#include "../support/device_buffer.hpp"

#include <upsweep/sort/detail/dist_loopback.cuh>
#include <upsweep/sort/dist_exchange.hpp>

#include <gtest/gtest.h>

#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace upsweep::test {

// Runs `body(rank, exchange, stream)` on P threads, one logical rank each.
inline void on_ranks(int p, const std::function<void(int, upsweep::dist_exchange&, cudaStream_t)>& body) {
  upsweep::detail::loopback_fabric fabric(p);
  std::vector<std::thread> threads;
  std::vector<std::string> failures(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r)
    threads.emplace_back([&, r] {
      try {
        cudaStream_t stream = nullptr;
        check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
        upsweep::detail::loopback_exchange exchange(fabric, r);
        body(r, exchange, stream);
        check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
        check(cudaStreamDestroy(stream), "cudaStreamDestroy");
      } catch (const std::exception& e) {
        failures[static_cast<std::size_t>(r)] = e.what();
      }
    });
  for (std::thread& t : threads) t.join();
  for (int r = 0; r < p; ++r) EXPECT_EQ("", failures[static_cast<std::size_t>(r)]) << "rank " << r;
}

}  // namespace upsweep::test
