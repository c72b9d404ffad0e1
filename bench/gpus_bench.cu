// upsweep-bench-gpus: the sort across the real GPUs of this host over NCCL (one process, a host
// thread and a communicator per GPU), weak scaling: the same items per GPU on 1, 2 and 4 GPUs.
// Rows, each the median of --reps timed runs after one untimed run, CUDA events from a common
// start (gpus_ranks.cuh), random u32 keys (and u32 values), far larger than L2:
//  - sort_1gpu N: upsweep::sort_keys / sort_pairs of N items on GPU 0 (core layer);
//  - alltoall G: NCCL's all-to-all of one GPU's bytes (N items' keys and values), equal parts,
//    grouped ncclSend/ncclRecv, launched by a thread per rank as the sort does ("threads") and by
//    one thread for every rank as nccl-tests does ("one thread");
//  - dist G: upsweep::dist_sort_* of N items per GPU (--rounds: its option, 0 its own choice),
//    with its phases, each ending when the last rank ends it: local sort, plan, exchange (to the
//    end of the last round's transfer, the earlier rounds' merges beside it) and merge (what is
//    left); "exchange alone": the sort's all-to-all calls replayed with nothing beside them;
//  - the total on one GPU: sort_1gpu of G N items, where they fit.
// The bars (the multi-GPU sort's issue): dist <= 1.15 x (sort_1gpu N + the faster all-to-all),
// and the exchange's calls alone <= 1.2 x that all-to-all (beside the merges they read more).
// After the timing every share is checked sorted, the shares in order and complete; up to 2^30
// items in all, bitwise against the single-GPU sort of the concatenated input.
#include "gpus_ranks.cuh"

#include <upsweep/sort/device_radix_sort.cuh>
#include <upsweep/sort/dist_radix_sort.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace upsweep::bench {
namespace {

struct config {
  std::vector<int> gpus;
  std::vector<std::int64_t> per_gpu{std::int64_t{1} << 28, std::int64_t{1} << 30};
  std::vector<bool> pairs{false, true};
  std::vector<std::int64_t> rounds{0};  // dist_sort_options::rounds, 0: the sort's choice
  int reps = 15;
  std::int64_t check_limit = std::int64_t{1} << 30;  // bitwise check up to this many items in all
  std::FILE* json = nullptr;
};

// One rank's arrays for N items (keys, and values when pairs), and a share's capacity.
struct rank_arrays {
  device_array<std::uint32_t> keys, values, keys_out, values_out;
  rank_arrays(std::int64_t n, std::int64_t capacity, bool pairs)
      : keys(n), values(pairs ? n : 1), keys_out(capacity), values_out(pairs ? capacity : 1) {}
};

std::uint64_t seed_of(int rank, std::int64_t n) { return 0x9e3779b97f4a7c15ull * (rank + 1) + static_cast<std::uint64_t>(n); }

// The input of rank r (N items), the same whichever GPU makes it.
void fill_slice(std::uint32_t* keys, std::uint32_t* values, std::int64_t n, int r, bool pairs, cudaStream_t s) {
  BENCH_CUDA(upsweep::test::fill_random(keys, n, seed_of(r, n), 0u, ~0u, s));
  if (pairs) BENCH_CUDA(upsweep::test::fill_random(values, n, ~seed_of(r, n), 0u, ~0u, s));
  BENCH_CUDA(cudaStreamSynchronize(s));
}

double time_single(std::int64_t n, bool pairs, int reps, std::vector<std::uint32_t>* keep_keys,
                   std::vector<std::uint32_t>* keep_values, int slices) {
  BENCH_CUDA(cudaSetDevice(0));
  std::size_t free = 0, total = 0;
  BENCH_CUDA(cudaMemGetInfo(&free, &total));
  if (static_cast<double>(n) * (pairs ? 8 : 4) * 3.2 > static_cast<double>(free)) return -1;  // in, out, temp
  rank_arrays a(n, n, pairs);
  gpu_rank g(0);
  for (int r = 0; r < slices; ++r)  // the slices of the ranks, concatenated
    fill_slice(a.keys.ptr + n / slices * r, a.values.ptr + n / slices * r, n / slices, r, pairs, g.stream);
  std::size_t bytes = 0;
  auto call = [&](void* temp) {
    return pairs ? sort_pairs(temp, bytes, a.keys.ptr, a.keys_out.ptr, a.values.ptr, a.values_out.ptr, n, 0, 32, g.stream)
                 : sort_keys(temp, bytes, a.keys.ptr, a.keys_out.ptr, n, 0, 32, g.stream);
  };
  BENCH_CUDA(call(nullptr));
  device_array<char> temp(static_cast<std::int64_t>(bytes));
  std::vector<double> ms;
  for (int k = -1; k < reps; ++k) {
    BENCH_CUDA(cudaEventRecord(g.start, g.stream));
    BENCH_CUDA(call(temp.ptr));
    BENCH_CUDA(cudaEventRecord(g.end, g.stream));
    BENCH_CUDA(cudaEventSynchronize(g.end));
    if (k >= 0) ms.push_back(g.ms_to(g.end));
  }
  if (keep_keys) {
    keep_keys->resize(static_cast<std::size_t>(n));
    BENCH_CUDA(cudaMemcpy(keep_keys->data(), a.keys_out.ptr, static_cast<std::size_t>(n) * 4, cudaMemcpyDeviceToHost));
    if (pairs) {
      keep_values->resize(static_cast<std::size_t>(n));
      BENCH_CUDA(cudaMemcpy(keep_values->data(), a.values_out.ptr, static_cast<std::size_t>(n) * 4, cudaMemcpyDeviceToHost));
    }
  }
  return median(ms);
}

// NCCL's all-to-all of `bytes` per rank in equal parts (the self part included, as nccl-tests).
void post_alltoall(ncclComm_t comm, int g, const char* send, char* recv, std::size_t part, cudaStream_t s) {
  for (int t = 0; t < g; ++t) {
    BENCH_NCCL(ncclSend(send + part * t, part, ncclChar, t, comm, s));
    BENCH_NCCL(ncclRecv(recv + part * t, part, ncclChar, t, comm, s));
  }
}

double time_alltoall(gpu_ranks& ranks, std::size_t bytes, bool one_thread, int reps) {
  const int g = ranks.size();
  const std::size_t part = bytes / static_cast<std::size_t>(g);
  std::vector<std::unique_ptr<device_array<char>>> send, recv;
  for (int r = 0; r < g; ++r) {
    BENCH_CUDA(cudaSetDevice(r));
    send.push_back(std::make_unique<device_array<char>>(static_cast<std::int64_t>(part * g)));
    recv.push_back(std::make_unique<device_array<char>>(static_cast<std::int64_t>(part * g)));
    BENCH_CUDA(cudaMemset(send.back()->ptr, r + 1, part * g));
  }
  std::vector<double> ms;
  for (int k = -1; k < reps; ++k) {
    if (one_thread) {  // nccl-tests' way: one group over every rank's calls
      ranks.gate().arm(g);
      for (int r = 0; r < g; ++r) {
        BENCH_CUDA(cudaSetDevice(r));
        ranks.gate().hold(ranks[r].stream, ranks[r].start);
      }
      BENCH_NCCL(ncclGroupStart());
      for (int r = 0; r < g; ++r) post_alltoall(ranks.comm(r), g, send[r]->ptr, recv[r]->ptr, part, ranks[r].stream);
      BENCH_NCCL(ncclGroupEnd());
      for (int r = 0; r < g; ++r) {
        BENCH_CUDA(cudaSetDevice(r));
        BENCH_CUDA(cudaEventRecord(ranks[r].end, ranks[r].stream));
      }
      ranks.gate().join();
      for (int r = 0; r < g; ++r) BENCH_CUDA(cudaEventSynchronize(ranks[r].end));
    } else {
      ranks.run([&](int r) {
        BENCH_NCCL(ncclGroupStart());
        post_alltoall(ranks.comm(r), g, send[r]->ptr, recv[r]->ptr, part, ranks[r].stream);
        BENCH_NCCL(ncclGroupEnd());
      });
    }
    if (k >= 0) ms.push_back(ranks.latest(&gpu_rank::end));
  }
  return median(ms);
}

// Every share sorted, the shares in order, N x G items in all; bitwise against `want` if given.
void check_shares(gpu_ranks& ranks, std::vector<std::unique_ptr<rank_arrays>>& arrays,
                  const std::vector<std::int64_t>& counts, bool pairs, const std::vector<std::uint32_t>* want_keys,
                  const std::vector<std::uint32_t>* want_values, std::int64_t total) {
  std::int64_t at = 0;
  std::uint32_t last = 0;
  for (int r = 0; r < ranks.size(); ++r) {
    const auto n = static_cast<std::size_t>(counts[static_cast<std::size_t>(r)]);
    std::vector<std::uint32_t> keys(n), values(pairs ? n : 0);
    BENCH_CUDA(cudaMemcpy(keys.data(), arrays[r]->keys_out.ptr, n * 4, cudaMemcpyDeviceToHost));
    if (pairs) BENCH_CUDA(cudaMemcpy(values.data(), arrays[r]->values_out.ptr, n * 4, cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < n; ++i) {
      if (keys[i] < last) throw std::runtime_error("wrong result: rank " + std::to_string(r) + " out of order");
      last = keys[i];
    }
    if (want_keys) {
      if (std::memcmp(keys.data(), want_keys->data() + at, n * 4) != 0 ||
          (pairs && std::memcmp(values.data(), want_values->data() + at, n * 4) != 0))
        throw std::runtime_error("wrong result: rank " + std::to_string(r) + " differs from the single-GPU sort");
    }
    at += static_cast<std::int64_t>(n);
  }
  if (at != total) throw std::runtime_error("wrong result: " + std::to_string(at) + " items of " + std::to_string(total));
}

// The sort's exchange over NCCL, with its all-to-all calls of the last run kept, to replay them
// alone: the same bytes, offsets and buffers, without the sort around them.
class recording_exchange final : public dist_exchange_watcher {
 public:
  explicit recording_exchange(ncclComm_t comm) : dist_exchange_watcher(nccl_), nccl_(comm) {}  // nccl_ is used later

  // The kept calls again, one after another on `stream`.
  void replay(cudaStream_t stream) {
    for (call& c : calls_)
      BENCH_CUDA(nccl_.all_to_all_v(c.send, c.send_bytes.data(), c.send_offsets.data(), c.recv, c.recv_bytes.data(),
                                    c.recv_offsets.data(), stream));
  }

 private:
  struct call {
    const void* send;
    void* recv;
    std::vector<std::size_t> send_bytes, send_offsets, recv_bytes, recv_offsets;
  };
  void saw_all_gather() override { calls_.clear(); }  // a run starts with its all-gathers
  void saw_all_to_all(const void* d_send, const std::size_t* send_bytes, const std::size_t* send_offsets, void* d_recv,
                      const std::size_t* recv_bytes, const std::size_t* recv_offsets) override {
    const auto p = static_cast<std::size_t>(size());
    calls_.push_back({d_send, d_recv, {send_bytes, send_bytes + p}, {send_offsets, send_offsets + p},
                      {recv_bytes, recv_bytes + p}, {recv_offsets, recv_offsets + p}});
  }
  nccl_exchange nccl_;
  std::vector<call> calls_;
};

struct dist_times {
  double total = 0, sort = 0, plan = 0, exchange = 0, merge = 0, alone = 0;
};

dist_times time_dist(gpu_ranks& ranks, std::int64_t n, bool pairs, int rounds, int reps,
                     const std::vector<std::uint32_t>* want_keys,
                     const std::vector<std::uint32_t>* want_values) {
  const int g = ranks.size();
  const std::int64_t capacity = dist_receive_bound(n * g, g);
  std::vector<std::unique_ptr<rank_arrays>> arrays;
  std::vector<std::unique_ptr<device_array<char>>> temps;
  std::vector<std::unique_ptr<recording_exchange>> exchanges;
  std::vector<std::size_t> temp_bytes(static_cast<std::size_t>(g));
  std::vector<std::int64_t> counts(static_cast<std::size_t>(g));
  auto call = [&](int r, void* temp) {
    rank_arrays& a = *arrays[r];
    dist_sort_options options;
    options.phases = &ranks[r].phases;
    options.rounds = rounds;
    return pairs ? dist_sort_pairs(temp, temp_bytes[r], *exchanges[r], a.keys.ptr, a.keys_out.ptr, a.values.ptr,
                                   a.values_out.ptr, n, capacity, &counts[r], options, ranks[r].stream)
                 : dist_sort_keys(temp, temp_bytes[r], *exchanges[r], a.keys.ptr, a.keys_out.ptr, n, capacity,
                                  &counts[r], options, ranks[r].stream);
  };
  for (int r = 0; r < g; ++r) {
    BENCH_CUDA(cudaSetDevice(r));
    arrays.push_back(std::make_unique<rank_arrays>(n, capacity, pairs));
    exchanges.push_back(std::make_unique<recording_exchange>(ranks.comm(r)));
    fill_slice(arrays[r]->keys.ptr, arrays[r]->values.ptr, n, r, pairs, ranks[r].stream);
    BENCH_CUDA(call(r, nullptr));
    temps.push_back(std::make_unique<device_array<char>>(static_cast<std::int64_t>(temp_bytes[r])));
  }
  std::vector<double> total, phase[4];
  for (int k = -1; k < reps; ++k) {
    ranks.run([&](int r) { BENCH_CUDA(call(r, temps[r]->ptr)); });
    if (k < 0) continue;
    double before = 0;
    int i = 0;
    for (auto p : {&dist_sort_phases::sorted, &dist_sort_phases::planned, &dist_sort_phases::exchanged,
                   &dist_sort_phases::merged}) {
      const double at = ranks.latest(p);
      phase[i++].push_back(at - before);
      before = at;
    }
    total.push_back(ranks.latest(&gpu_rank::end));
  }
  check_shares(ranks, arrays, counts, pairs, want_keys, want_values, n * g);
  std::vector<double> alone;  // the exchange's calls replayed without the sort around them
  for (int k = -1; k < reps; ++k) {
    ranks.run([&](int r) { exchanges[r]->replay(ranks[r].stream); });
    if (k >= 0) alone.push_back(ranks.latest(&gpu_rank::end));
  }
  return {median(total), median(phase[0]), median(phase[1]), median(phase[2]), median(phase[3]), median(alone)};
}

void json_row(const config& c, const std::string& row, int g, std::int64_t n, bool pairs, double ms,
              const std::string& extra = "") {
  if (!c.json) return;
  std::fprintf(c.json, "{\"row\": \"%s\", \"gpus\": %d, \"per_gpu\": %lld, \"case\": \"%s\", \"median_ms\": %.4f%s}\n",
               row.c_str(), g, static_cast<long long>(n), pairs ? "pairs_u32_u32" : "keys_u32", ms, extra.c_str());
}

void run_case(const config& c, std::int64_t n, bool pairs) {
  const char* what = pairs ? "pairs u32/u32" : "keys u32";
  const double item_bytes = pairs ? 8 : 4;
  const double one = time_single(n, pairs, c.reps, nullptr, nullptr, 1);
  json_row(c, "sort_1gpu", 1, n, pairs, one);
  std::printf("\n%s, 2^%d per GPU: sort on one GPU %.3f ms\n", what, static_cast<int>(std::log2(n)), one);
  std::printf("| GPUs | dist ms | local sort | plan | exchange | merge | exchange alone | all-to-all threads | one thread "
              "| bar: dist / (sort + a2a) <= 1.15 | exchange / a2a | bar: alone / a2a <= 1.2 | exchange GB/s | the total on one GPU |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int g : c.gpus) {
    std::vector<std::uint32_t> want_keys, want_values;
    const bool check = n * g <= c.check_limit;
    const double single_total = time_single(n * g, pairs, c.reps, check ? &want_keys : nullptr, &want_values, g);
    json_row(c, "sort_1gpu_total", g, n, pairs, single_total);
    gpu_ranks ranks(g);
    const auto bytes = static_cast<std::size_t>(item_bytes * static_cast<double>(n));
    const double a2a_threads = time_alltoall(ranks, bytes, false, c.reps);
    const double a2a_one = time_alltoall(ranks, bytes, true, c.reps);
    const double a2a = std::min(a2a_threads, a2a_one);
    for (const std::int64_t rounds : c.rounds) {
    const dist_times d = time_dist(ranks, n, pairs, static_cast<int>(rounds), c.reps,
                                   check && single_total > 0 ? &want_keys : nullptr, &want_values);
    const double sent_gb = item_bytes * static_cast<double>(n) * (g - 1) / g * 1e-9;  // per rank, uniform keys
    char extra[400];
    std::snprintf(extra, sizeof extra,
                  ", \"local_sort_ms\": %.4f, \"plan_ms\": %.4f, \"exchange_ms\": %.4f, \"merge_ms\": %.4f, "
                  "\"alltoall_threads_ms\": %.4f, \"alltoall_one_thread_ms\": %.4f, \"sort_1gpu_ms\": %.4f, "
                  "\"exchange_alone_ms\": %.4f",
                  d.sort, d.plan, d.exchange, d.merge, a2a_threads, a2a_one, one, d.alone);
    std::snprintf(extra + std::strlen(extra), sizeof extra - std::strlen(extra), ", \"rounds\": %d",
                  static_cast<int>(rounds));
    json_row(c, "dist", g, n, pairs, d.total, extra);
    std::printf("| %d%s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3fx | %.2fx | %.3fx | %.0f | %s |\n", g,
                rounds ? (", " + std::to_string(rounds) + " rounds").c_str() : "", d.total,
                d.sort, d.plan, d.exchange, d.merge, d.alone, a2a_threads, a2a_one, d.total / (one + a2a), d.exchange / a2a,
                d.alone / a2a,
                sent_gb / (d.exchange * 1e-3),
                single_total > 0 ? (std::to_string(single_total) + " ms" + (check ? ", bitwise equal" : "")).c_str()
                                 : "does not fit");
    std::fflush(stdout);
    }
  }
}

std::vector<std::int64_t> parse_sizes(const std::string& list) {
  std::vector<std::int64_t> sizes;
  std::size_t begin = 0;
  while (begin <= list.size()) {
    const std::size_t end = std::min(list.find(',', begin), list.size());
    const std::string item = list.substr(begin, end - begin);
    const std::size_t caret = item.find('^');
    sizes.push_back(caret == std::string::npos ? std::stoll(item) : std::int64_t{1} << std::stoi(item.substr(caret + 1)));
    begin = end + 1;
  }
  return sizes;
}

}  // namespace
}  // namespace upsweep::bench

int main(int argc, char** argv) {
  using namespace upsweep::bench;
  config c;
  int devices = 0;
  std::string gpus_list;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--help") {
      std::puts("upsweep-bench-gpus [--gpus 2,4] [--per-gpu 2^28,2^30] [--cases keys,pairs] [--rounds 0,1,2,4] [--reps 15] [--json FILE]\n"
                "The sort across this host's GPUs over NCCL against one GPU's sort plus NCCL's all-to-all (weak scaling).");
      return 0;
    } else if (arg == "--gpus" && has_value) {
      gpus_list = argv[++i];
    } else if (arg == "--per-gpu" && has_value) {
      c.per_gpu = parse_sizes(argv[++i]);
    } else if (arg == "--cases" && has_value) {
      const std::string cases = argv[++i];
      c.pairs.clear();
      if (cases.find("keys") != std::string::npos) c.pairs.push_back(false);
      if (cases.find("pairs") != std::string::npos) c.pairs.push_back(true);
    } else if (arg == "--rounds" && has_value) {
      c.rounds = parse_sizes(argv[++i]);
    } else if (arg == "--reps" && has_value) {
      c.reps = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--json" && has_value) {
      c.json = std::fopen(argv[++i], "w");
      if (!c.json) return std::perror(argv[i]), 1;
    } else {
      std::fprintf(stderr, "upsweep-bench-gpus: unknown argument %s (--help lists them)\n", arg.c_str());
      return 2;
    }
  }
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 1) {
    std::fprintf(stderr, "upsweep-bench-gpus: no CUDA device\n");
    return 1;
  }
  for (const std::int64_t g : parse_sizes(gpus_list.empty() ? "2,4" : gpus_list))
    if (g >= 2 && g <= devices) c.gpus.push_back(static_cast<int>(g));
    else std::printf("skipped: %lld GPUs (this machine has %d)\n", static_cast<long long>(g), devices);
  try {
    for (const std::int64_t n : c.per_gpu)
      for (const bool pairs : c.pairs) run_case(c, n, pairs);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "upsweep-bench-gpus: %s\n", e.what());
    return 1;
  }
  if (c.json) std::fclose(c.json);
  return 0;
}
