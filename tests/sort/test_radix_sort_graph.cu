// The core sort captured into a CUDA graph and replayed on fresh data: capture proves it neither
// allocates nor synchronises, and the replays run its chained launches (programmatic dependent
// launch) as graph edges. The one-tile path and the multi-pass path, ascending and descending.
#include "../scan/scan_test_support.cuh"
#include "sort_test_support.cuh"

#include <upsweep/sort.cuh>

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace {

using namespace upsweep::test;

class RadixSortGraph : public gpu_test {};

struct graph_case {
  std::int64_t n;
  bool descending;
  int begin_bit;
  int end_bit;
};

cudaError_t sort_pairs_call(const graph_case& c, void* temp, std::size_t& bytes, const std::uint32_t* keys_in,
                            std::uint32_t* keys_out, const index_t* values_in, index_t* values_out,
                            cudaStream_t stream) {
  return c.descending ? upsweep::sort_pairs_descending(temp, bytes, keys_in, keys_out, values_in, values_out, c.n,
                                                       c.begin_bit, c.end_bit, stream)
                      : upsweep::sort_pairs(temp, bytes, keys_in, keys_out, values_in, values_out, c.n, c.begin_bit,
                                            c.end_bit, stream);
}

TEST_F(RadixSortGraph, core_sort_is_captured_and_replays_on_fresh_data) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const graph_case cases[] = {{3'001, false, 0, 32}, {1'000'003, false, 0, 32}, {max_test_items(1'000'003), true, 5, 29}};
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (const graph_case& c : cases) {
    SCOPED_TRACE("n = " + std::to_string(c.n) + (c.descending ? ", descending" : ", ascending") + ", bits [" +
                 std::to_string(c.begin_bit) + ", " + std::to_string(c.end_bit) + ")");
    device_buffer<std::uint32_t> keys_in(c.n), keys_out(c.n);
    device_buffer<index_t> values_in(c.n), values_out(c.n);
    std::vector<index_t> ids(static_cast<std::size_t>(c.n));
    std::iota(ids.begin(), ids.end(), index_t{0});
    values_in.upload(ids);
    std::size_t bytes = 0;
    CUDA_OK(sort_pairs_call(c, nullptr, bytes, keys_in.data(), keys_out.data(), values_in.data(), values_out.data(),
                            stream));
    device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));

    cudaGraph_t graph;
    CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    CUDA_OK(sort_pairs_call(c, temp.data(), bytes, keys_in.data(), keys_out.data(), values_in.data(),
                            values_out.data(), stream));
    CUDA_OK(cudaStreamEndCapture(stream, &graph));
    cudaGraphExec_t exec;
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    for (std::uint64_t replay = 0; replay < 3; ++replay) {
      SCOPED_TRACE("replay " + std::to_string(replay));
      const auto keys = random_host<std::uint32_t>(c.n, seed + 977 * replay + c.n, 0u, 0xffffffffu);
      keys_in.upload(keys);
      CUDA_OK(poison(keys_out.data(), c.n, 0xdeadbeefu, stream));
      CUDA_OK(poison(values_out.data(), c.n, index_t{0xffffffffu}, stream));
      CUDA_OK(cudaGraphLaunch(exec, stream));
      CUDA_OK(cudaStreamSynchronize(stream));
      const auto order = reference_order(keys, c.descending, c.begin_bit, c.end_bit);
      ASSERT_EQ(values_out.download(), order);
      ASSERT_EQ(keys_out.download(), permuted(keys, order));
    }
    CUDA_OK(cudaGraphExecDestroy(exec));
    CUDA_OK(cudaGraphDestroy(graph));
  }
  CUDA_OK(cudaStreamDestroy(stream));
}

}  // namespace
