// Suite `topk`: the k largest of n random keys (f32 uniform in [-1, 1), bf16 the same rounded, as
// logits are), unsorted and sorted, at k = 1, 32, 1024, 2^16, beside a device copy of the keys
// (the floor: one read of the input takes half the copy's time); and the k = 50 largest of each
// of 64 rows of 128k keys (sampling from a model's logits). Rivals that cannot share this
// program (the newest CUB's DeviceTopK, torch.topk) write rows of the same names from their own:
// upsweep-bench-cub35 and bench/torch_bench.py. Each row's last result is checked against a sort.
#include "bench_support.cuh"
#include "topk_bench_support.cuh"

#include <upsweep/sort/device_top_k.cuh>

#include <cstdint>
#include <string>
#include <vector>

namespace upsweep::bench {
namespace {

template <class Key>
void upsweep_top_k(benchmark::State& state, std::int64_t k, top_k_output output) {
  const std::int64_t n = state.range(0);
  guarded(state, [&] {
    if (skip_unless_memory_fits(state, static_cast<double>(n) * sizeof(Key) * 1.2)) return;
    device_array<Key> keys(n), out(k);
    fill_logits(keys.ptr, n);
    const Key* d_keys = keys.ptr;
    time_with_temp_storage(state, n, static_cast<double>(n) * sizeof(Key),
                           [&](void* temp, std::size_t& bytes, cudaStream_t s) {
                             return upsweep::top_k_keys(temp, bytes, d_keys, out.ptr, n, k, top_k_select::largest,
                                                        output, s);
                           });
    check_top_k_keys(keys.ptr, n, out.ptr, k);
  });
}

// The sampling shape: rows of logits, the k largest of each (n = rows x row length).
template <class Key>
void upsweep_top_k_rows(benchmark::State& state, std::int64_t rows, std::int64_t k, top_k_output output) {
  const std::int64_t n = state.range(0), row_length = n / rows;
  guarded(state, [&] {
    device_array<Key> keys(n), out(rows * k);
    fill_logits(keys.ptr, n);
    const Key* d_keys = keys.ptr;
    time_with_temp_storage(state, n, static_cast<double>(n) * sizeof(Key),
                           [&](void* temp, std::size_t& bytes, cudaStream_t s) {
                             return upsweep::top_k_rows_keys(temp, bytes, d_keys, out.ptr, rows, row_length, k,
                                                             top_k_select::largest, output, s);
                           });
    for (std::int64_t row : {std::int64_t{0}, rows - 1})
      check_top_k_keys(keys.ptr + row * row_length, row_length, out.ptr + row * k, k);
  });
}

template <class Key>
void device_copy(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  guarded(state, [&] {
    device_array<Key> in(n), out(n);
    fill_logits(in.ptr, n);
    time_on_gpu(state, n, 2.0 * static_cast<double>(n) * sizeof(Key), [&](cudaStream_t s) {
      BENCH_CUDA(cudaMemcpyAsync(out.ptr, in.ptr, static_cast<std::size_t>(n) * sizeof(Key), cudaMemcpyDeviceToDevice, s));
    });
  });
}

template <class Key>
void register_top_k_case(const std::string& type) {
  for (const std::int64_t k : top_k_bench_ks()) {
    const std::string name = "topk/top_k_" + type + "_k" + std::to_string(k);
    add_row(name + "/upsweep", top_k_bench_sizes(), 0.1,
            [k](benchmark::State& state) { upsweep_top_k<Key>(state, k, top_k_output::unsorted); }, type);
    add_row(name + "/upsweep_sorted", top_k_bench_sizes(), 0.1,
            [k](benchmark::State& state) { upsweep_top_k<Key>(state, k, top_k_output::sorted); }, type);
  }
  add_row("topk/top_k_" + type + "/copy", top_k_bench_sizes(), 0.1, device_copy<Key>, type);
  const std::string rows = "topk/batched_top_k_" + type + "_" + std::to_string(top_k_bench_rows) + "rows_k" +
                           std::to_string(top_k_bench_row_k);
  add_row(rows + "/upsweep", {top_k_bench_rows * top_k_bench_row_length}, 0.1, [](benchmark::State& state) {
    upsweep_top_k_rows<Key>(state, top_k_bench_rows, top_k_bench_row_k, top_k_output::unsorted);
  }, type);
  add_row(rows + "/upsweep_sorted", {top_k_bench_rows * top_k_bench_row_length}, 0.1, [](benchmark::State& state) {
    upsweep_top_k_rows<Key>(state, top_k_bench_rows, top_k_bench_row_k, top_k_output::sorted);
  }, type);
}

const bool registered = register_later([] {
  register_top_k_case<float>("f32");
  register_top_k_case<__nv_bfloat16>("bf16");
});

}  // namespace
}  // namespace upsweep::bench
