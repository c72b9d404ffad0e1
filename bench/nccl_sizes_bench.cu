// upsweep-bench-nccl-sizes: what NCCL's all-to-all costs against the lengths of its pieces, the
// measurement behind the padded pieces of the sort across GPUs (dist_exchange_layout.hpp). For
// each length L a peer, one all-to-all of G pieces a rank (the rank's own included), grouped
// ncclSend/ncclRecv issued by one thread for every GPU (as nccl-tests does):
//  - equal: every piece L bytes;
//  - uneven: each piece's length drawn within +-0.1 % of L (a multiple of 4 bytes), as the sort's
//    splitters cut them;
//  - padded: those uneven pieces all sent at the longest one's length.
// Pieces start on 128-byte boundaries. Medians of 9 after two untimed runs, CUDA events, the
// slowest GPU's time.
#include "gpus_ranks.cuh"

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace upsweep::bench {
namespace {

using piece_table = std::vector<std::vector<std::size_t>>;  // [from][to] bytes

std::size_t round_up(std::size_t x, std::size_t a) { return (x + a - 1) / a * a; }

// Every piece's length: L, or drawn within +-spread of L.
piece_table piece_lengths(int g, std::size_t length, double spread, std::mt19937_64& random) {
  std::uniform_real_distribution<double> draw(-spread, spread);
  piece_table bytes(g, std::vector<std::size_t>(g));
  for (auto& row : bytes)
    for (std::size_t& b : row) b = static_cast<std::size_t>(static_cast<double>(length) * (1 + draw(random))) / 4 * 4;
  return bytes;
}

piece_table padded_to_longest(piece_table bytes) {
  std::size_t longest = 0;
  for (auto& row : bytes) longest = std::max(longest, *std::max_element(row.begin(), row.end()));
  for (auto& row : bytes) std::fill(row.begin(), row.end(), longest);
  return bytes;
}

// One all-to-all of `bytes`, pieces packed on 128-byte boundaries, timed on every GPU.
double time_all_to_all(gpu_ranks& ranks, const piece_table& bytes, std::vector<device_array<char>*>& send,
                       std::vector<device_array<char>*>& recv) {
  const int g = ranks.size();
  std::vector<double> ms;
  for (int k = -2; k < 9; ++k) {
    for (int r = 0; r < g; ++r) {
      BENCH_CUDA(cudaSetDevice(r));
      BENCH_CUDA(cudaDeviceSynchronize());
      BENCH_CUDA(cudaEventRecord(ranks[r].start, ranks[r].stream));
    }
    BENCH_NCCL(ncclGroupStart());
    for (int r = 0; r < g; ++r) {
      std::size_t out = 0, in = 0;
      for (int t = 0; t < g; ++t) {
        BENCH_NCCL(ncclSend(send[r]->ptr + out, bytes[r][t], ncclChar, t, ranks.comm(r), ranks[r].stream));
        BENCH_NCCL(ncclRecv(recv[r]->ptr + in, bytes[t][r], ncclChar, t, ranks.comm(r), ranks[r].stream));
        out += round_up(bytes[r][t], 128);
        in += round_up(bytes[t][r], 128);
      }
    }
    BENCH_NCCL(ncclGroupEnd());
    for (int r = 0; r < g; ++r) {
      BENCH_CUDA(cudaSetDevice(r));
      BENCH_CUDA(cudaEventRecord(ranks[r].end, ranks[r].stream));
    }
    double slowest = 0;
    for (int r = 0; r < g; ++r) {
      BENCH_CUDA(cudaEventSynchronize(ranks[r].end));
      slowest = std::max(slowest, ranks[r].ms_to(ranks[r].end));
    }
    if (k >= 0) ms.push_back(slowest);
  }
  return median(ms);
}

void run(int g, const std::vector<std::size_t>& lengths) {
  gpu_ranks ranks(g);
  const std::size_t largest = *std::max_element(lengths.begin(), lengths.end());
  const auto buffer = static_cast<std::int64_t>(g * round_up(largest + largest / 500 + 4, 128));
  std::vector<std::unique_ptr<device_array<char>>> keep;
  std::vector<device_array<char>*> send, recv;
  for (int r = 0; r < g; ++r) {
    BENCH_CUDA(cudaSetDevice(r));
    keep.push_back(std::make_unique<device_array<char>>(buffer));
    send.push_back(keep.back().get());
    BENCH_CUDA(cudaMemset(send.back()->ptr, r + 1, static_cast<std::size_t>(buffer)));
    keep.push_back(std::make_unique<device_array<char>>(buffer));
    recv.push_back(keep.back().get());
  }
  std::mt19937_64 random(7);
  std::printf("\n%d GPUs, ms (median of 9)\n| piece a peer | equal | uneven +-0.1 %% | padded to the longest |\n|---|---|---|---|\n", g);
  for (std::size_t length : lengths) {
    const double equal = time_all_to_all(ranks, piece_lengths(g, length, 0, random), send, recv);
    const piece_table uneven = piece_lengths(g, length, 0.001, random);
    const double drawn = time_all_to_all(ranks, uneven, send, recv);
    const double even = time_all_to_all(ranks, padded_to_longest(uneven), send, recv);
    std::printf("| %zu MiB | %.3f | %.3f | %.3f |\n", length >> 20, equal, drawn, even);
    std::fflush(stdout);
  }
}

}  // namespace
}  // namespace upsweep::bench

int main(int argc, char** argv) {
  std::vector<int> gpus;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 2) {
    std::fprintf(stderr, "upsweep-bench-nccl-sizes: needs 2 GPUs or more\n");
    return 1;
  }
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--gpus" && i + 1 < argc) {
      gpus.push_back(std::atoi(argv[++i]));
    } else {
      std::puts("upsweep-bench-nccl-sizes [--gpus G]...: NCCL's all-to-all against its pieces' lengths, equal,\n"
                "uneven by 0.1 % and padded to the longest, 64 MiB to 1 GiB a peer (default: 2 and 4 GPUs)");
      return arg == "--help" ? 0 : 2;
    }
  }
  if (gpus.empty()) gpus = {2, 4};
  const std::size_t mib = std::size_t{1} << 20;
  const std::vector<std::size_t> lengths = {64 * mib, 128 * mib, 192 * mib, 256 * mib, 512 * mib, 1024 * mib};
  try {
    for (int g : gpus)
      if (g <= devices) upsweep::bench::run(g, lengths);
      else std::printf("skipped: %d GPUs (this machine has %d)\n", g, devices);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "upsweep-bench-nccl-sizes: %s\n", e.what());
    return 1;
  }
  return 0;
}
