// Suite `dist`: the sort across ranks with P logical ranks on one GPU (the loopback exchange:
// threads, one stream each, device-to-device copies), against the single-GPU sort of the same
// total, u32 keys and u32/u32 pairs at 2^24, 2^26 and 2^28 items in all. Rows:
//  - single: upsweep::sort_keys / sort_pairs of all items (core layer);
//  - ranks_1, ranks_2, ranks_4, ranks_8: dist_sort_* with the items split evenly over P ranks,
//    timed from before the first rank starts to after the last one ends (CUDA events on the
//    benchmark's stream, which every rank's stream waits for and which waits for every rank).
//    Rank 0 runs on the benchmark's thread, the others on host threads that live for the whole
//    row, as a job's ranks do.
// Each dist row also reports the phases as fractions of its time, each ending when the last rank
// ends it: sort (the local sorts), agree (samples, splitters, send counts: two all-gathers on the
// device), wait (the host reads the counts back and plans the exchange), exchange and merge;
// sort_spread is the time from the first rank's sort ending to the last one's. The phases come
// from 10 calls after the timed ones: recording their events takes host calls that the timed
// calls would wait for (the host's calls are on the critical path at 2^22 keys a rank).
// The merge alone: merge_keys_u32/runs_K joins K sorted runs of the total (one stream, nothing
// beside it), against copy, a device-to-device copy of the same bytes (the floor of one pass).
#include "bench_support.cuh"
#include "rank_threads.hpp"

#include <upsweep/sort/detail/dist_loopback.cuh>
#include <upsweep/sort/device_radix_sort.cuh>
#include <upsweep/sort/dist_radix_sort.cuh>

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace upsweep::bench {
namespace {

// One logical rank's arrays, storage, stream and phase events, made outside the timing.
template <class Value>
struct rank_state {
  static constexpr bool pairs = !std::is_void_v<Value>;
  using value_t = std::conditional_t<pairs, Value, char>;
  std::int64_t n, capacity;
  device_array<std::uint32_t> keys_out;
  device_array<value_t> values_out;
  std::unique_ptr<device_array<char>> temp;
  std::size_t temp_bytes = 0;
  cudaStream_t stream = nullptr;
  cudaEvent_t done = nullptr;
  dist_sort_phases phases;
  std::int64_t received = 0;

  rank_state(std::int64_t items, std::int64_t cap) : n(items), capacity(cap), keys_out(cap), values_out(pairs ? cap : 1) {
    BENCH_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    for (cudaEvent_t* e : {&done, &phases.sorted, &phases.counted, &phases.planned, &phases.exchanged, &phases.merged})
      BENCH_CUDA(cudaEventCreate(e));
  }
  ~rank_state() {
    for (cudaEvent_t e : {done, phases.sorted, phases.counted, phases.planned, phases.exchanged, phases.merged})
      cudaEventDestroy(e);
    cudaStreamDestroy(stream);
  }

  cudaError_t sort(void* d_temp, std::size_t& bytes, dist_exchange& exchange, const std::uint32_t* keys,
                   const value_t* values, bool with_phases = false) {
    dist_sort_options options;
    options.phases = with_phases ? &phases : nullptr;
    if constexpr (pairs)
      return dist_sort_pairs(d_temp, bytes, exchange, keys, keys_out.ptr, values, values_out.ptr, n, capacity,
                             &received, options, stream);
    else
      return dist_sort_keys(d_temp, bytes, exchange, keys, keys_out.ptr, n, capacity, &received, options, stream);
  }
};

// Milliseconds from `start` to the earliest and the latest of the ranks' `phase` events.
template <class Value>
std::pair<double, double> ranks_at(const std::vector<std::unique_ptr<rank_state<Value>>>& ranks, cudaEvent_t start,
                                   cudaEvent_t dist_sort_phases::*phase) {
  float earliest = 0, latest = 0;
  for (const auto& rank : ranks) {
    float ms = 0;
    BENCH_CUDA(cudaEventElapsedTime(&ms, start, rank->phases.*phase));
    earliest = &rank == &ranks.front() || ms < earliest ? ms : earliest;
    latest = ms > latest ? ms : latest;
  }
  return {earliest, latest};
}

// After the timing: every item is somewhere (the key sums agree) and the shares, concatenated
// in rank order, are sorted.
template <class Value>
void check_global_order(const std::vector<std::unique_ptr<rank_state<Value>>>& ranks,
                        const device_array<std::uint32_t>& keys, std::int64_t n) {
  std::vector<std::uint32_t> all(static_cast<std::size_t>(n));
  BENCH_CUDA(cudaMemcpy(all.data(), keys.ptr, all.size() * 4, cudaMemcpyDeviceToHost));
  std::uint64_t sum_in = 0, sum_out = 0;
  for (std::uint32_t k : all) sum_in += k;
  std::int64_t items = 0;
  std::uint32_t last = 0;
  for (const auto& rank : ranks) {
    std::vector<std::uint32_t> share(static_cast<std::size_t>(rank->received));
    BENCH_CUDA(cudaMemcpy(share.data(), rank->keys_out.ptr, share.size() * 4, cudaMemcpyDeviceToHost));
    for (std::uint32_t k : share) {
      if (k < last) throw std::runtime_error("wrong result: the shares are out of order");
      last = k;
      sum_out += k;
    }
    items += rank->received;
  }
  if (items != n || sum_in != sum_out) throw std::runtime_error("wrong result: items lost or changed");
}

template <class Value>
void dist_row(benchmark::State& state, int p) {
  constexpr bool pairs = !std::is_void_v<Value>;
  using value_t = typename rank_state<Value>::value_t;
  const std::int64_t n = state.range(0);
  auto& ctx = bench_context::get();
  const double item_bytes = 4.0 + (pairs ? sizeof(value_t) : 0);
  const double bytes = 2.0 * item_bytes * static_cast<double>(n);  // read and write once: the copy's floor
  device_array<std::uint32_t> keys(n);
  device_array<value_t> values(pairs ? n : 1);
  fill_input(keys.ptr, n, 0u, ~0u);
  if constexpr (pairs) fill_input(values.ptr, n, value_t{0}, ~value_t{0});
  if (p == 0) {  // the single-GPU sort
    device_array<std::uint32_t> keys_out(n);
    device_array<value_t> values_out(pairs ? n : 1);
    time_with_temp_storage(state, n, bytes, [&](void* temp, std::size_t& temp_bytes, cudaStream_t s) {
      if constexpr (pairs)
        return sort_pairs(temp, temp_bytes, keys.ptr, keys_out.ptr, values.ptr, values_out.ptr, n, 0, 32, s);
      else
        return sort_keys(temp, temp_bytes, keys.ptr, keys_out.ptr, n, 0, 32, s);
    });
    return;
  }
  if (skip_unless_memory_fits(state, 7.0 * item_bytes * static_cast<double>(n))) return;
  const std::int64_t each = n / p, capacity = dist_receive_bound(n, p);
  std::vector<std::unique_ptr<rank_state<Value>>> ranks;
  for (int r = 0; r < p; ++r) ranks.push_back(std::make_unique<rank_state<Value>>(r + 1 < p ? each : n - each * (p - 1), capacity));
  detail::loopback_fabric fabric(p);
  std::vector<std::unique_ptr<detail::loopback_exchange>> exchanges;
  for (int r = 0; r < p; ++r) exchanges.push_back(std::make_unique<detail::loopback_exchange>(fabric, r));
  for (auto& rank : ranks) {  // storage from the size query, outside the timing
    BENCH_CUDA(rank->sort(nullptr, rank->temp_bytes, *exchanges[0], nullptr, nullptr));
    rank->temp = std::make_unique<device_array<char>>(static_cast<std::int64_t>(rank->temp_bytes));
  }
  cudaEvent_t go = nullptr;
  BENCH_CUDA(cudaEventCreateWithFlags(&go, cudaEventDisableTiming));
  constexpr int num_phases = 5;
  double phase_ms[num_phases] = {}, total_ms = 0, sort_spread_ms = 0;
  bool with_phases = false;
  rank_threads threads(p);
  const std::function<void(int)> sort_rank = [&](int r) {
    rank_state<Value>& rank = *ranks[static_cast<std::size_t>(r)];
    BENCH_CUDA(cudaStreamWaitEvent(rank.stream, go, 0));
    const std::int64_t first = each * r;
    BENCH_CUDA(rank.sort(rank.temp->ptr, rank.temp_bytes, *exchanges[static_cast<std::size_t>(r)], keys.ptr + first,
                         pairs ? values.ptr + first : nullptr, with_phases));
    BENCH_CUDA(cudaEventRecord(rank.done, rank.stream));
  };
  const auto sort_all = [&](cudaStream_t s) {
    BENCH_CUDA(cudaEventRecord(go, s));
    threads.run(sort_rank);
    for (auto& rank : ranks) BENCH_CUDA(cudaStreamWaitEvent(s, rank->done, 0));
  };
  time_on_gpu(state, n, bytes, sort_all);
  with_phases = true;
  for (int call = 0; call < 10; ++call) {  // the phases, each call timed from its own start
    BENCH_CUDA(cudaMemsetAsync(ctx.flush_buffer, 0, ctx.flush_bytes, ctx.stream));  // as time_on_gpu does
    BENCH_CUDA(cudaEventRecord(ctx.start, ctx.stream));
    sort_all(ctx.stream);
    for (auto& rank : ranks) BENCH_CUDA(cudaEventSynchronize(rank->done));
    double before = 0;
    int k = 0;
    for (auto phase : {&dist_sort_phases::sorted, &dist_sort_phases::counted, &dist_sort_phases::planned,
                       &dist_sort_phases::exchanged, &dist_sort_phases::merged}) {
      const auto [earliest, at] = ranks_at(ranks, ctx.start, phase);
      if (k == 0) sort_spread_ms += at - earliest;
      phase_ms[k++] += at - before;
      before = at;
    }
    total_ms += before;
  }
  BENCH_CUDA(cudaEventDestroy(go));
  check_global_order(ranks, keys, n);
  const char* names[num_phases] = {"sort", "agree", "wait", "exchange", "merge"};
  for (int k = 0; k < num_phases; ++k) state.counters[names[k]] = total_ms > 0 ? phase_ms[k] / total_ms : 0;
  state.counters["sort_spread"] = total_ms > 0 ? sort_spread_ms / total_ms : 0;  // first to last rank sorted
}

// The join of K sorted runs (each sorted outside the timing); K = 0 is the copy.
void merge_row(benchmark::State& state, int k) {
  const std::int64_t n = state.range(0);
  const double bytes = 2.0 * 4.0 * static_cast<double>(n);
  device_array<std::uint32_t> keys(n), out(n);
  fill_input(keys.ptr, n, 0u, ~0u);
  if (k == 0) {
    time_on_gpu(state, n, bytes, [&](cudaStream_t s) {
      BENCH_CUDA(cudaMemcpyAsync(out.ptr, keys.ptr, static_cast<std::size_t>(n) * 4, cudaMemcpyDeviceToDevice, s));
    });
    return;
  }
  std::vector<long long> counts(static_cast<std::size_t>(k), n / k);
  counts.back() = n - n / k * (k - 1);
  std::int64_t first = 0;
  for (long long count : counts) {  // each run sorted in place through `out`
    std::size_t temp_bytes = 0;
    BENCH_CUDA(sort_keys(nullptr, temp_bytes, keys.ptr + first, out.ptr + first, count, 0, 32));
    device_array<char> temp(static_cast<std::int64_t>(temp_bytes));
    BENCH_CUDA(sort_keys(temp.ptr, temp_bytes, keys.ptr + first, out.ptr + first, count, 0, 32));
    BENCH_CUDA(cudaMemcpy(keys.ptr + first, out.ptr + first, static_cast<std::size_t>(count) * 4,
                          cudaMemcpyDeviceToDevice));
    first += count;
  }
  device_array<long long> words(detail::kway_temp_words<std::uint32_t, detail::no_values>(n));
  time_on_gpu(state, n, bytes, [&](cudaStream_t s) {
    BENCH_CUDA((detail::merge_runs<false>(keys.ptr, static_cast<const detail::no_values*>(nullptr), out.ptr,
                                          static_cast<detail::no_values*>(nullptr), counts.data(), nullptr, nullptr,
                                          k, 0, 32, words.ptr, s)));
  });
  std::vector<std::uint32_t> merged(static_cast<std::size_t>(n));
  BENCH_CUDA(cudaMemcpy(merged.data(), out.ptr, merged.size() * 4, cudaMemcpyDeviceToHost));
  for (std::size_t i = 1; i < merged.size(); ++i)
    if (merged[i - 1] > merged[i]) throw std::runtime_error("wrong result: the merge is out of order");
}

std::vector<std::int64_t> dist_sizes() { return {std::int64_t{1} << 24, std::int64_t{1} << 26, std::int64_t{1} << 28}; }

template <class Value>
void register_dist_case(const std::string& row) {
  static const std::pair<int, const char*> impls[] = {
      {0, "single"}, {1, "ranks_1"}, {2, "ranks_2"}, {4, "ranks_4"}, {8, "ranks_8"}};
  for (const auto& [p, name] : impls)
    add_row("dist/" + row + "/" + name, dist_sizes(), 0.5, [p = p](benchmark::State& state) {
      guarded(state, [&] { dist_row<Value>(state, p); });
    });
}

const bool registered = register_later([] {
  register_dist_case<void>("keys_u32");
  register_dist_case<std::uint32_t>("pairs_u32_u32");
  for (int k : {0, 2, 4, 8})
    add_row(std::string("dist/merge_keys_u32/") + (k == 0 ? "copy" : "runs_" + std::to_string(k)), dist_sizes(), 0.5,
            [k](benchmark::State& state) { guarded(state, [&] { merge_row(state, k); }); });
});

}  // namespace
}  // namespace upsweep::bench
