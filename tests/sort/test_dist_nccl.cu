// Sort across ranks over NCCL, with the one GPU the machines here have (world size 1): the
// exchange's two collectives through NCCL itself (a rank sending to itself), and the sort end to
// end against the single-GPU sort. Its own binary, so the GPU tests do not need libnccl to start.
#include "../support/device_buffer.hpp"
#include "../support/device_random.cuh"
#include "../support/gpu_test.hpp"
#include "../support/seed.hpp"

#include <upsweep/sort/dist_radix_sort.cuh>
#include <upsweep/sort/nccl_exchange.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

using namespace upsweep::test;

class DistNccl : public gpu_test {
 protected:
  void SetUp() override {
    gpu_test::SetUp();
    if (IsSkipped()) return;
    comms_ = upsweep::nccl_comms_for_devices({0});
  }
  void TearDown() override {
    for (ncclComm_t comm : comms_) EXPECT_EQ(ncclSuccess, ncclCommDestroy(comm));
  }
  std::vector<ncclComm_t> comms_;
};

std::vector<std::uint32_t> random_keys(std::int64_t n, std::uint64_t seed) {
  std::vector<std::uint32_t> keys(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) keys[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(mix64(seed ^ mix64(i)));
  return keys;
}

TEST_F(DistNccl, TheCollectivesMoveBytesThroughNccl) {
  upsweep::nccl_exchange exchange(comms_[0]);
  ASSERT_EQ(1, exchange.size());
  ASSERT_EQ(0, exchange.rank());
  const std::vector<std::uint32_t> data = random_keys(1000, fresh_seed());
  device_buffer<std::uint32_t> d_send(data), d_recv(1000);
  CUDA_OK(cudaMemset(d_recv.data(), 0xA5, 4000));
  CUDA_OK(exchange.all_gather(d_send.data(), d_recv.data(), 4000, nullptr));
  CUDA_OK(cudaDeviceSynchronize());
  EXPECT_EQ(data, d_recv.download());
  CUDA_OK(cudaMemset(d_recv.data(), 0xA5, 4000));
  const std::size_t bytes = 400 * 4, from = 100 * 4, to = 500 * 4;  // 400 items to itself
  CUDA_OK(exchange.all_to_all_v(d_send.data(), &bytes, &from, d_recv.data(), &bytes, &to, nullptr));
  CUDA_OK(cudaDeviceSynchronize());
  const std::vector<std::uint32_t> got = d_recv.download();
  EXPECT_EQ(std::vector<std::uint32_t>(data.begin() + 100, data.begin() + 500),
            std::vector<std::uint32_t>(got.begin() + 500, got.begin() + 900));
  EXPECT_EQ(0xA5A5A5A5u, got[499]);
  EXPECT_EQ(0xA5A5A5A5u, got[900]);
}

TEST_F(DistNccl, OneRankSortsLikeTheSingleGpuSort) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::int64_t n = max_test_items(1 << 20) + 3;
  const std::vector<std::uint32_t> keys = random_keys(n, seed);
  device_buffer<std::uint32_t> d_keys(keys), d_expected(n), d_out(n);
  upsweep::sort_keys(d_keys.data(), d_expected.data(), n);
  upsweep::nccl_exchange exchange(comms_[0]);
  const std::int64_t got = upsweep::dist_sort_keys(exchange, d_keys.data(), d_out.data(), n, n);
  CUDA_OK(cudaDeviceSynchronize());
  EXPECT_EQ(n, got);
  EXPECT_EQ(d_expected.download(), d_out.download());
}

}  // namespace
