// Sort across ranks over NCCL: the exchange's two collectives through NCCL itself (world size 1,
// a rank sending to itself), the sort end to end against the single-GPU sort, and every GPU of
// the process as a rank (one on most machines here; the real exchange between GPUs where there
// are several). Its own binary, so the GPU tests do not need libnccl to start.
#include "../support/device_buffer.hpp"
#include "../support/device_random.cuh"
#include "../support/gpu_test.hpp"
#include "../support/seed.hpp"

#include <upsweep/sort/dist_radix_sort.cuh>
#include <upsweep/sort/nccl_exchange.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <numeric>
#include <string>
#include <thread>
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

// Rank r (on device r) sorts its slice across every rank; its share comes back in got_keys, got_values.
void sort_pairs_on_rank(ncclComm_t comm, int rank, const std::vector<std::uint32_t>& keys, int ranks,
                        std::vector<std::uint32_t>& got_keys, std::vector<std::uint32_t>& got_values) {
  check(cudaSetDevice(rank), "cudaSetDevice");
  const auto n = static_cast<std::int64_t>(keys.size());
  const std::int64_t first = n * rank / ranks, last = n * (rank + 1) / ranks;
  std::vector<std::uint32_t> positions(static_cast<std::size_t>(last - first));
  std::iota(positions.begin(), positions.end(), static_cast<std::uint32_t>(first));
  const std::int64_t capacity = upsweep::dist_receive_bound(n, ranks);
  device_buffer<std::uint32_t> d_keys(std::vector<std::uint32_t>(keys.begin() + first, keys.begin() + last));
  device_buffer<std::uint32_t> d_values(positions), d_keys_out(capacity), d_values_out(capacity);
  upsweep::nccl_exchange exchange(comm);
  const std::int64_t kept = upsweep::dist_sort_pairs(exchange, d_keys.data(), d_keys_out.data(), d_values.data(),
                                                     d_values_out.data(), last - first, capacity);
  got_keys = d_keys_out.download(kept);
  got_values = d_values_out.download(kept);
}

// Every GPU of this process is a rank (ncclCommInitAll, a host thread each): pairs of keys with
// ties and their global input positions; the shares joined in rank order must be the single-GPU
// sort of the whole input, keys and positions bit for bit (stable across ranks).
TEST_F(DistNccl, EveryGpuOfThisProcessIsARank) {
  int devices = 0;
  CUDA_OK(cudaGetDeviceCount(&devices));
  const int ranks = std::min(devices, 8);
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed) + ", " + std::to_string(ranks) + " ranks");
  const std::int64_t n = max_test_items(3 << 20) + 7;
  std::vector<std::uint32_t> keys = random_keys(n, seed);
  for (auto& k : keys) k &= 0x00FFFF0Fu;  // ties, so stability across ranks shows
  std::vector<std::uint32_t> positions(static_cast<std::size_t>(n));
  std::iota(positions.begin(), positions.end(), 0u);
  device_buffer<std::uint32_t> d_keys(keys), d_positions(positions), d_want_keys(n), d_want_positions(n);
  upsweep::sort_pairs(d_keys.data(), d_want_keys.data(), d_positions.data(), d_want_positions.data(), n);

  std::vector<int> ids(static_cast<std::size_t>(ranks));
  std::iota(ids.begin(), ids.end(), 0);
  std::vector<ncclComm_t> comms = upsweep::nccl_comms_for_devices(ids);
  std::vector<std::vector<std::uint32_t>> got_keys(ids.size()), got_positions(ids.size());
  std::vector<std::string> errors(ids.size());
  std::vector<std::thread> threads;
  for (std::size_t r = 0; r < ids.size(); ++r)
    threads.emplace_back([&, r] {
      try {
        sort_pairs_on_rank(comms[r], ids[r], keys, ranks, got_keys[r], got_positions[r]);
      } catch (const std::exception& e) {
        errors[r] = e.what();
      }
    });
  for (auto& t : threads) t.join();
  for (ncclComm_t comm : comms) EXPECT_EQ(ncclSuccess, ncclCommDestroy(comm));
  CUDA_OK(cudaSetDevice(0));

  std::vector<std::uint32_t> joined_keys, joined_positions;
  for (std::size_t r = 0; r < ids.size(); ++r) {
    EXPECT_EQ("", errors[r]) << "rank " << r;
    joined_keys.insert(joined_keys.end(), got_keys[r].begin(), got_keys[r].end());
    joined_positions.insert(joined_positions.end(), got_positions[r].begin(), got_positions[r].end());
  }
  EXPECT_EQ(d_want_keys.download(), joined_keys);
  EXPECT_EQ(d_want_positions.download(), joined_positions);
}

}  // namespace
