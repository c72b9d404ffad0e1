// upsweep-bench-cub35's top-k rows: cub::DeviceTopK of CCCL 3.5 (the nvidia-cuda-cccl wheel's
// headers; the toolkit's CCCL 3.0 has no top-k) on the inputs upsweep-bench's topk suite uses,
// rows named topk/top_k_<type>_k<k>/cub35/<n>. It asks for what 3.5 implements: unsorted output,
// ties not fixed.
#include "../topk_bench_support.cuh"

#include <cub/device/device_topk.cuh>
#include <cub/version.cuh>

#include <cuda/__execution/determinism.h>
#include <cuda/__execution/output_ordering.h>
#include <cuda/__execution/require.h>
#include <cuda/std/__execution/env.h>
#include <cuda/stream_ref>

#include <cstdint>
#include <string>

static_assert(CUB_VERSION >= 300500, "upsweep-bench-cub35 is built against CCCL 3.5 or newer");

namespace upsweep::bench {
namespace {

// DeviceTopK as CUB 3.5 must be asked: unsorted results, ties not fixed.
template <class Key>
cudaError_t cub35_max_keys(void* temp, std::size_t& bytes, const Key* keys, Key* out, std::int64_t n, std::int64_t k,
                           cudaStream_t stream) {
  const auto env = cuda::std::execution::env{
      cuda::stream_ref{stream},
      cuda::execution::require(cuda::execution::determinism::not_guaranteed, cuda::execution::output_ordering::unsorted)};
  return cub::DeviceTopK::MaxKeys(temp, bytes, keys, out, n, k, env);
}

template <class Key>
void cub35_top_k(benchmark::State& state, std::int64_t k) {
  const std::int64_t n = state.range(0);
  guarded(state, [&] {
    if (skip_unless_memory_fits(state, static_cast<double>(n) * sizeof(Key) * 1.5)) return;
    device_array<Key> keys(n), out(k);
    fill_logits(keys.ptr, n);
    time_with_temp_storage(state, n, static_cast<double>(n) * sizeof(Key),
                           [&](void* temp, std::size_t& bytes, cudaStream_t s) {
                             return cub35_max_keys(temp, bytes, keys.ptr, out.ptr, n, k, s);
                           });
    check_top_k_keys(keys.ptr, n, out.ptr, k);
  });
}

// The batched case through CUB 3.5: DeviceBatchedTopK takes only segments a single block holds
// in shared memory (a static_assert refuses rows of 128k keys), so a CUB user calls DeviceTopK
// once per row, with one temporary storage for all rows.
template <class Key>
void cub35_top_k_per_row(benchmark::State& state) {
  constexpr std::int64_t rows = top_k_bench_rows, row_length = top_k_bench_row_length, k = top_k_bench_row_k;
  const std::int64_t n = state.range(0);
  guarded(state, [&] {
    device_array<Key> keys(n), out(rows * k);
    fill_logits(keys.ptr, n);
    time_with_temp_storage(state, n, static_cast<double>(n) * sizeof(Key),
                           [&](void* temp, std::size_t& bytes, cudaStream_t s) {
                             for (std::int64_t row = 0; row < rows; ++row) {
                               const cudaError_t status = cub35_max_keys(temp, bytes, keys.ptr + row * row_length,
                                                                         out.ptr + row * k, row_length, k, s);
                               if (status != cudaSuccess || temp == nullptr) return status;
                             }
                             return cudaSuccess;
                           });
    for (std::int64_t row : {std::int64_t{0}, rows - 1})
      check_top_k_keys(keys.ptr + row * row_length, row_length, out.ptr + row * k, k);
  });
}

template <class Key>
void register_cub35_top_k(const std::string& type) {
  for (const std::int64_t k : top_k_bench_ks())
    add_row("topk/top_k_" + type + "_k" + std::to_string(k) + "/cub35", top_k_bench_sizes(), 0.1,
            [k](benchmark::State& state) { cub35_top_k<Key>(state, k); }, type);
  add_row("topk/batched_top_k_" + type + "_" + std::to_string(top_k_bench_rows) + "rows_k" +
              std::to_string(top_k_bench_row_k) + "/cub35",
          {top_k_bench_rows * top_k_bench_row_length}, 0.1, cub35_top_k_per_row<Key>, type);
}

const bool registered = register_later([] {
  register_cub35_top_k<float>("f32");
  register_cub35_top_k<__nv_bfloat16>("bf16");
});

}  // namespace
}  // namespace upsweep::bench
