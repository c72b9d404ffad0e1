// A CUDA project on Upsweep's sort across ranks: every GPU of this process is a rank with its own
// NCCL communicator (ncclCommInitAll) and host thread (the sort waits on the host for its small
// all-gathers). Each rank sorts its slice of u64 keys together with the others and keeps its share;
// the shares joined in rank order must be std::sort of the whole input. Exits 0 when they are, 1
// when not (or a call fails); without a usable GPU it says so and exits 0, having checked nothing.
#include <upsweep/sort/dist_radix_sort.cuh>
#include <upsweep/sort/nccl_exchange.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#define CHECK(call) UPSWEEP_CUDA_THROW(call)

// One rank's device buffer, freed on every path.
struct device_keys {
  std::uint64_t* ptr = nullptr;
  explicit device_keys(std::int64_t n) { CHECK(cudaMalloc(&ptr, std::max<std::int64_t>(n, 1) * sizeof(std::uint64_t))); }
  ~device_keys() { cudaFree(ptr); }
  device_keys(const device_keys&) = delete;
  device_keys& operator=(const device_keys&) = delete;
};

// Rank r's slice of `keys` sorted across the ranks; its share of the result comes back in `share`.
void sort_rank(ncclComm_t comm, int device, const std::vector<std::uint64_t>& keys, std::int64_t first,
               std::int64_t count, int ranks, std::vector<std::uint64_t>& share) {
  CHECK(cudaSetDevice(device));
  const std::int64_t capacity = upsweep::dist_receive_bound(static_cast<std::int64_t>(keys.size()), ranks);
  device_keys in(count), out(capacity);
  CHECK(cudaMemcpy(in.ptr, keys.data() + first, count * sizeof(std::uint64_t), cudaMemcpyHostToDevice));
  upsweep::nccl_exchange exchange(comm);
  const std::int64_t kept = upsweep::dist_sort_keys(exchange, in.ptr, out.ptr, count, capacity);  // synchronises
  share.resize(static_cast<std::size_t>(kept));
  CHECK(cudaMemcpy(share.data(), out.ptr, kept * sizeof(std::uint64_t), cudaMemcpyDeviceToHost));
}

int main() {
  int devices = 0;
  const cudaError_t probe = cudaGetDeviceCount(&devices);
  if (probe != cudaSuccess || devices == 0) {
    std::printf("consumer_nccl: SKIPPED, no usable CUDA device (%s: %s); nothing was checked\n",
                cudaGetErrorName(probe), cudaGetErrorString(probe));
    return 0;
  }
  const int ranks = std::min(devices, 8);
  const std::int64_t n = 2'000'003;
  std::vector<std::uint64_t> keys(n);
  std::uint64_t state = 2026;
  for (auto& k : keys) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    k = state >> (state & 31);  // many widths, some ties
  }

  std::vector<std::vector<std::uint64_t>> shares(ranks);
  std::vector<std::string> errors(ranks);
  try {
    std::vector<int> ids(ranks);
    std::iota(ids.begin(), ids.end(), 0);
    std::vector<ncclComm_t> comms = upsweep::nccl_comms_for_devices(ids);
    std::vector<std::thread> threads;
    for (int r = 0; r < ranks; ++r) {
      threads.emplace_back([&, r] {
        const std::int64_t first = n * r / ranks, last = n * (r + 1) / ranks;
        try {
          sort_rank(comms[r], ids[r], keys, first, last - first, ranks, shares[r]);
        } catch (const std::exception& e) {
          errors[r] = e.what();
        }
      });
    }
    for (auto& t : threads) t.join();
    for (ncclComm_t comm : comms)
      if (const ncclResult_t rc = ncclCommDestroy(comm); rc != ncclSuccess) throw upsweep::nccl_error(rc, "ncclCommDestroy");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer_nccl: %s\n", e.what());
    return 1;
  }
  for (int r = 0; r < ranks; ++r)
    if (!errors[r].empty()) {
      std::fprintf(stderr, "consumer_nccl: rank %d: %s\n", r, errors[r].c_str());
      return 1;
    }

  std::vector<std::uint64_t> joined;
  for (const auto& share : shares) joined.insert(joined.end(), share.begin(), share.end());
  std::sort(keys.begin(), keys.end());
  const bool ok = joined == keys;
  std::printf("%-58s %s\n", ("dist_sort_keys of u64 over " + std::to_string(ranks) + " NCCL ranks").c_str(),
              ok ? "ok" : "WRONG");
  std::printf("consumer_nccl: %s\n", ok ? "all results match" : "MISMATCH");
  return ok ? 0 : 1;
}
