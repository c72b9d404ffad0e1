// Chained launches (util/chained_launch.cuh): a call with several kernels clears its tile state in
// a kernel chained to whatever ran before it on the stream, and chains its own kernels after that,
// so each may be scheduled before the one ahead of it has finished. These tests give every call a
// predecessor that lets it start early and finishes late: a kernel that writes the input after a
// pause, and, for calls sharing one temporary blob, the call before. A call of one tile clears
// nothing (tile_state.cuh): whatever its temporary blob holds must not matter. Compiled API,
// checked against CPU references.
#include <upsweep/compact.hpp>
#include <upsweep/group_by.hpp>
#include <upsweep/scan.hpp>

#include "tests/support/device_buffer.hpp"
#include "tests/support/graph_replay.hpp"
#include "tests/support/gpu_test.hpp"
#include "tests/support/seed.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

namespace {

using upsweep::predicate;
using upsweep::test::device_buffer;
using item_t = std::int32_t;

// Items in runs (an alphabet of 8 over groups of three positions), the same on host and device.
__host__ __device__ item_t item_of(long long i, std::uint64_t salt) {
  std::uint64_t x = (static_cast<std::uint64_t>(i) / 3 + salt) * 0x9e3779b97f4a7c15ull;
  x ^= x >> 29;
  return static_cast<item_t>((x * 0xbf58476d1ce4e5b9ull) >> 61);
}

// Lets a chained launch after it be scheduled at once, as a user's kernel may, then pauses and
// only then writes the input.
__global__ void write_input_late_kernel(item_t* in, long long n, std::uint64_t salt, unsigned pause_us) {
  cudaTriggerProgrammaticLaunchCompletion();
  for (unsigned k = 0; k < pause_us; ++k) __nanosleep(1000);
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n; i += stride)
    in[i] = item_of(i, salt);
}

cudaError_t write_input_late(item_t* in, std::int64_t n, std::uint64_t salt, cudaStream_t stream) {
  cudaLaunchAttribute chained = {};
  chained.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  chained.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(264);
  config.blockDim = dim3(256);
  config.stream = stream;
  config.attrs = &chained;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, write_input_late_kernel, in, static_cast<long long>(n), salt, 200u);
}

// One call of the compiled API on `in` (items or keys) and `values`, with its outputs and the CPU
// check of them against `host_in` / `host_values`.
struct chained_call {
  std::string name;
  std::function<cudaError_t(void*, std::size_t&, cudaStream_t)> run;
  std::function<void(const std::vector<item_t>&, const std::vector<item_t>&)> check;
};

// Outputs of every call, poisoned before each round.
struct outputs {
  explicit outputs(std::int64_t n) : items(n), second(n), third(n), wide(n), other_wide(n), counts(2) {}
  // Complete on return (the calls run on a non-blocking stream).
  void poison() const {
    const auto bytes = [](const auto& buffer) { return static_cast<std::size_t>(buffer.size()) * sizeof(*buffer.data()); };
    for (const auto* buffer : {&items, &second, &third})
      upsweep::test::check(cudaMemset(buffer->data(), 0x5b, bytes(*buffer)), "cudaMemset");
    for (const auto* buffer : {&wide, &other_wide, &counts})
      upsweep::test::check(cudaMemset(buffer->data(), 0x5b, bytes(*buffer)), "cudaMemset");
    upsweep::test::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize after poisoning");
  }
  device_buffer<item_t> items, second, third;
  device_buffer<std::int64_t> wide, other_wide, counts;
};

std::vector<std::pair<item_t, std::int64_t>> runs_of(const std::vector<item_t>& in) {
  std::vector<std::pair<item_t, std::int64_t>> runs;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (i == 0 || in[i] != in[i - 1]) runs.push_back({in[i], 0});
    ++runs.back().second;
  }
  return runs;
}

std::vector<chained_call> calls_on(const item_t* in, const item_t* values, std::int64_t n, const outputs& out) {
  const auto even = predicate<item_t>::even();
  const auto below_2 = predicate<item_t>::less(2), below_5 = predicate<item_t>::less(5);
  const auto count = [&out](int k) { return out.counts.download(2)[static_cast<std::size_t>(k)]; };
  std::vector<chained_call> calls;
  calls.push_back({"inclusive_sum",
                   [=, &out](void* t, std::size_t& b, cudaStream_t s) {
                     return upsweep::inclusive_sum(t, b, in, out.items.data(), n, s);
                   },
                   [&out](const std::vector<item_t>& h, const std::vector<item_t>&) {
                     std::vector<item_t> expected(h.size());
                     std::inclusive_scan(h.begin(), h.end(), expected.begin());
                     EXPECT_EQ(out.items.download(), expected);
                   }});
  calls.push_back({"reduce_sum",
                   [=, &out](void* t, std::size_t& b, cudaStream_t s) {
                     return upsweep::reduce_sum(t, b, in, out.items.data(), n, s);
                   },
                   [&out](const std::vector<item_t>& h, const std::vector<item_t>&) {
                     EXPECT_EQ(out.items.download(1)[0], std::accumulate(h.begin(), h.end(), item_t{0}));
                   }});
  calls.push_back({"select_if",
                   [=, &out](void* t, std::size_t& b, cudaStream_t s) {
                     return upsweep::select_if(t, b, in, out.items.data(), out.counts.data(), n, even, s);
                   },
                   [&out, count, even](const std::vector<item_t>& h, const std::vector<item_t>&) {
                     std::vector<item_t> expected;
                     std::copy_if(h.begin(), h.end(), std::back_inserter(expected), even);
                     ASSERT_EQ(count(0), static_cast<std::int64_t>(expected.size()));
                     EXPECT_EQ(out.items.download(count(0)), expected);
                   }});
  calls.push_back({"stable_partition",
                   [=, &out](void* t, std::size_t& b, cudaStream_t s) {
                     return upsweep::stable_partition(t, b, in, out.items.data(), out.counts.data(), n, even, s);
                   },
                   [&out, count, even](const std::vector<item_t>& h, const std::vector<item_t>&) {
                     std::vector<item_t> expected = h;
                     const auto split = std::stable_partition(expected.begin(), expected.end(), even);
                     EXPECT_EQ(count(0), split - expected.begin());
                     EXPECT_EQ(out.items.download(), expected);
                   }});
  calls.push_back({"partition_three_way",
                   [=, &out](void* t, std::size_t& b, cudaStream_t s) {
                     return upsweep::partition_three_way(t, b, in, out.items.data(), out.second.data(),
                                                         out.third.data(), out.counts.data(), n, below_2, below_5, s);
                   },
                   [&out, count, below_2, below_5](const std::vector<item_t>& h, const std::vector<item_t>&) {
                     std::vector<item_t> parts[3];
                     for (const item_t x : h) parts[below_2(x) ? 0 : below_5(x) ? 1 : 2].push_back(x);
                     ASSERT_EQ(count(0), static_cast<std::int64_t>(parts[0].size()));
                     ASSERT_EQ(count(1), static_cast<std::int64_t>(parts[1].size()));
                     EXPECT_EQ(out.items.download(count(0)), parts[0]);
                     EXPECT_EQ(out.second.download(count(1)), parts[1]);
                     EXPECT_EQ(out.third.download(static_cast<std::int64_t>(parts[2].size())), parts[2]);
                   }});
  calls.push_back({"run_length_encode",
                   [=, &out](void* t, std::size_t& b, cudaStream_t s) {
                     return upsweep::run_length_encode(t, b, in, out.items.data(), out.wide.data(), out.counts.data(),
                                                       n, s);
                   },
                   [&out, count](const std::vector<item_t>& h, const std::vector<item_t>&) {
                     const auto runs = runs_of(h);
                     ASSERT_EQ(count(0), static_cast<std::int64_t>(runs.size()));
                     const auto firsts = out.items.download(count(0));
                     const auto lengths = out.wide.download(count(0));
                     for (std::size_t r = 0; r < runs.size(); ++r) {
                       ASSERT_EQ(firsts[r], runs[r].first) << "run " << r;
                       ASSERT_EQ(lengths[r], runs[r].second) << "run " << r;
                     }
                   }});
  calls.push_back({"non_trivial_runs",
                   [=, &out](void* t, std::size_t& b, cudaStream_t s) {
                     return upsweep::non_trivial_runs(t, b, in, out.wide.data(), out.other_wide.data(),
                                                      out.counts.data(), n, s);
                   },
                   [&out, count](const std::vector<item_t>& h, const std::vector<item_t>&) {
                     std::vector<std::int64_t> offsets, lengths;
                     std::int64_t first = 0;
                     for (const auto& [item, length] : runs_of(h)) {
                       if (length > 1) offsets.push_back(first), lengths.push_back(length);
                       first += length;
                     }
                     ASSERT_EQ(count(0), static_cast<std::int64_t>(offsets.size()));
                     EXPECT_EQ(out.wide.download(count(0)), offsets);
                     EXPECT_EQ(out.other_wide.download(count(0)), lengths);
                   }});
  calls.push_back({"reduce_by_key",
                   [=, &out](void* t, std::size_t& b, cudaStream_t s) {
                     return upsweep::reduce_by_key(t, b, in, values, out.items.data(), out.second.data(),
                                                   out.counts.data(), n, upsweep::reduction::sum, s);
                   },
                   [&out, count](const std::vector<item_t>& h, const std::vector<item_t>& v) {
                     std::vector<item_t> keys, sums;
                     for (std::size_t i = 0; i < h.size(); ++i) {
                       if (i == 0 || h[i] != h[i - 1]) keys.push_back(h[i]), sums.push_back(0);
                       sums.back() += v[i];
                     }
                     ASSERT_EQ(count(0), static_cast<std::int64_t>(keys.size()));
                     EXPECT_EQ(out.items.download(count(0)), keys);
                     EXPECT_EQ(out.second.download(count(0)), sums);
                   }});
  calls.push_back({"inclusive_sum_by_key",
                   [=, &out](void* t, std::size_t& b, cudaStream_t s) {
                     return upsweep::inclusive_sum_by_key(t, b, in, values, out.items.data(), n, s);
                   },
                   [&out](const std::vector<item_t>& h, const std::vector<item_t>& v) {
                     std::vector<item_t> expected(h.size());
                     for (std::size_t i = 0; i < h.size(); ++i)
                       expected[i] = (i > 0 && h[i] == h[i - 1] ? expected[i - 1] : 0) + v[i];
                     EXPECT_EQ(out.items.download(), expected);
                   }});
  return calls;
}

class Chaining : public upsweep::test::gpu_test {
 protected:
  std::uint64_t seed = upsweep::test::fresh_seed();
  // Past the resident blocks' tiles, so the reduce-ahead kernels run too; under a sanitizer's cap
  // still past the 1 KB of tile state a memset clears, so the clearing kernel runs there too.
  std::int64_t n = std::max<std::int64_t>(upsweep::test::max_test_items(4'000'037), 1'000'003);

  std::vector<item_t> input(std::uint64_t salt) const { return input(salt, n); }
  std::vector<item_t> input(std::uint64_t salt, std::int64_t items) const {
    std::vector<item_t> host(static_cast<std::size_t>(items));
    for (std::int64_t i = 0; i < items; ++i) host[static_cast<std::size_t>(i)] = item_of(i, salt);
    return host;
  }
  std::vector<item_t> values() const { return values(n); }
  std::vector<item_t> values(std::int64_t items) const {
    std::vector<item_t> host(static_cast<std::size_t>(items));
    for (std::int64_t i = 0; i < items; ++i) host[static_cast<std::size_t>(i)] = item_of(i * 7 + 1, seed) - 3;
    return host;
  }

  // Runs every call at each size on a blob of 0xff bytes, then on the state the same call left in
  // it, against the CPU references.
  void expect_calls_ignore_their_blob(std::initializer_list<std::int64_t> sizes) const {
    for (const std::int64_t items : sizes) {
      SCOPED_TRACE("n = " + std::to_string(items));
      const std::vector<item_t> host_in = input(seed + items, items), host_values = values(items);
      device_buffer<item_t> d_in(host_in), d_values(host_values);
      const outputs out(items);
      for (const chained_call& call : calls_on(d_in.data(), d_values.data(), items, out)) {
        SCOPED_TRACE(call.name);
        std::size_t bytes = 0;
        CUDA_OK(call.run(nullptr, bytes, nullptr));
        device_buffer<char> temp(static_cast<std::int64_t>(std::max<std::size_t>(bytes, 1)));
        CUDA_OK(cudaMemset(temp.data(), 0xff, std::max<std::size_t>(bytes, 1)));
        for (int round = 0; round < 2; ++round) {
          out.poison();
          CUDA_OK(call.run(temp.data(), bytes, nullptr));
          CUDA_OK(cudaDeviceSynchronize());
          call.check(host_in, host_values);
        }
      }
    }
  }
};

// One tile (up to 2048 items is one for every call here) and a one-block scan leave the temporary
// blob uncleared.
TEST_F(Chaining, OneTileCallsIgnoreWhatTheirTemporaryBlobHolds) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  expect_calls_ignore_their_blob({1, 2, 33, 100, 1000, 2048, 5000});
}

// So do the calls that run as one cluster (cluster_tile_state.cuh: the scan from 2 to 16 of its
// 2048-item tiles, select, unique and the run-length calls from 2 to 8 of their 4096-item tiles),
// at every tile count, and the sizes just past them clear it again.
TEST_F(Chaining, OneClusterCallsIgnoreWhatTheirTemporaryBlobHolds) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  expect_calls_ignore_their_blob({2049, 4097, 8193, 10000, 12289, 16384, 20481, 24577, 28673, 32768, 32769,
                                        40000});
}

TEST_F(Chaining, EveryCallWaitsForTheKernelThatWritesItsInput) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  device_buffer<item_t> d_in(n);
  device_buffer<item_t> d_values(values());
  const outputs out(n);
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::uint64_t salt = seed;
  for (const chained_call& call : calls_on(d_in.data(), d_values.data(), n, out)) {
    SCOPED_TRACE(call.name);
    ++salt;
    std::size_t bytes = 0;
    CUDA_OK(call.run(nullptr, bytes, stream));
    device_buffer<char> temp(static_cast<std::int64_t>(bytes));
    CUDA_OK(cudaMemset(d_in.data(), 0x5b, static_cast<std::size_t>(n) * sizeof(item_t)));
    out.poison();
    CUDA_OK(write_input_late(d_in.data(), n, salt, stream));
    CUDA_OK(call.run(temp.data(), bytes, stream));
    CUDA_OK(cudaStreamSynchronize(stream));
    call.check(input(salt), values());
  }
  CUDA_OK(cudaStreamDestroy(stream));
}

// Every call with its own outputs (so all can be enqueued before the first check), and the
// temporary bytes the largest of them needs.
struct calls_with_outputs {
  std::vector<std::unique_ptr<outputs>> outs;
  std::vector<chained_call> calls;
  std::size_t temp_bytes = 0;
};

calls_with_outputs every_call_on(const item_t* in, const item_t* values, std::int64_t n) {
  calls_with_outputs set;
  const outputs sizing(1);
  const std::size_t count = calls_on(in, values, n, sizing).size();
  for (std::size_t c = 0; c < count; ++c) {
    set.outs.push_back(std::make_unique<outputs>(n));
    set.outs.back()->poison();
    set.calls.push_back(calls_on(in, values, n, *set.outs.back())[c]);
    std::size_t needed = 0;
    upsweep::test::check(set.calls.back().run(nullptr, needed, nullptr), "size query");
    set.temp_bytes = std::max(set.temp_bytes, needed);
  }
  return set;
}

cudaError_t run_back_to_back(const calls_with_outputs& set, void* temp, cudaStream_t stream) {
  for (const chained_call& call : set.calls) {
    std::size_t given = set.temp_bytes;
    if (const cudaError_t status = call.run(temp, given, stream); status != cudaSuccess) return status;
  }
  return cudaSuccess;
}

// Each call's clear of the shared tile state is chained to the call before, whose blocks may
// still be looking back: it must wait for them.
TEST_F(Chaining, CallsBackToBackOnOneTemporaryBlobEachSeeTheirOwnState) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  const std::vector<item_t> host_in = input(seed), host_values = values();
  device_buffer<item_t> d_in(host_in), d_values(host_values);
  const calls_with_outputs set = every_call_on(d_in.data(), d_values.data(), n);
  device_buffer<char> temp(static_cast<std::int64_t>(set.temp_bytes));
  cudaStream_t stream = nullptr;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (int round = 0; round < 2; ++round) CUDA_OK(run_back_to_back(set, temp.data(), stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  for (const chained_call& call : set.calls) {
    SCOPED_TRACE(call.name);
    call.check(host_in, host_values);
  }
  CUDA_OK(cudaStreamDestroy(stream));
}

// Captured, the chained launches become programmatic edges of the graph.
TEST_F(Chaining, CallsBackToBackReplayFromACudaGraph) {
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  const std::vector<item_t> host_in = input(seed), host_values = values();
  device_buffer<item_t> d_in(host_in), d_values(host_values);
  const calls_with_outputs set = every_call_on(d_in.data(), d_values.data(), n);
  device_buffer<char> temp(static_cast<std::int64_t>(set.temp_bytes));
  upsweep::test::expect_graph_replays([&](cudaStream_t stream) { return run_back_to_back(set, temp.data(), stream); },
                                      [&](cudaStream_t) {
                                        for (const auto& out : set.outs) out->poison();
                                      },
                                      [&] {
                                        for (const chained_call& call : set.calls) {
                                          SCOPED_TRACE(call.name);
                                          call.check(host_in, host_values);
                                        }
                                      });
}

}  // namespace
