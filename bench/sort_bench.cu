// Suite `sort`: LSD radix sort by Upsweep (core layer, caller temporary storage), CUB
// (cub::DeviceRadixSort with 32-bit and with 64-bit item counts, rows cub32 and cub64: report.py
// takes the faster as the reference) and Thrust (thrust::sort / sort_by_key, par_nosync), n = 2^16
// .. 2^30: keys u32, f32, u64, pairs u32/u32 and u64/u32, u32 at reduced bit entropy and u32 with
// only the 8 low bits random; and at 2^20, 2^24, 2^28 the other types users sort: keys u8, u16,
// i64, f64, half, bf16, pairs u32 with 8- and 16-byte values, pairs u64/u64. Counters: keys/s, and GB/s of one read and one write of every key
// and value (the algorithmic bytes, as CUB's benchmarks count them). Every row checks its last
// output after the timing (keys in order, same pairs as the input); a wrong one is an error.
// Suite `tune`, rows tune/sort_<case>/<policy>: Upsweep with its ranking method and tile shape
// chosen by the row, 2^16 to 2^28, to pick the default policies.
#include "bench_support.cuh"

#include <upsweep/sort/device_radix_sort.cuh>

#include <cub/device/device_radix_sort.cuh>
#include <cuda/std/functional>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/sort.h>
#include <thrust/transform_reduce.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace upsweep::bench {
namespace {

struct no_values {};  // the Value of keys-only rows
template <class Value>
inline constexpr bool has_values_v = !std::is_same_v<Value, no_values>;

enum class key_pattern {
  uniform,     // every bit random (non-zero keys)
  and_3,       // AND of 3 random words: each bit is 1 with probability 1/8, bit entropy 0.544
  and_5,       // AND of 5 random words: probability 1/32, bit entropy 0.201 (zeros are common here)
  low_8_bits,  // a constant high part and 8 random low bits: 3 of 4 digit passes are trivial
};

enum class sorter { upsweep, cub32, cub64, thrust };

constexpr std::uint32_t low_8_bits_high_part = 0x9e377900u;

__global__ void fill_pattern_kernel(std::uint32_t* out, std::int64_t n, std::uint64_t seed, key_pattern pattern) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const auto index = static_cast<std::uint64_t>(i);
    std::uint32_t key = 0;
    if (pattern == key_pattern::low_8_bits) {
      key = low_8_bits_high_part | test::random_value<std::uint32_t>(seed, index, 0, 0xffu);
    } else {
      const int words = pattern == key_pattern::and_3 ? 3 : 5;
      key = ~0u;
      for (int w = 0; w < words; ++w)
        key &= test::random_value<std::uint32_t>(seed + 0x632be59bd9b4e019ull * (w + 1), index, 0, ~0u);
    }
    out[i] = key;
  }
}

template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;

// Half and bf16 keys: floats of both signs in [-1000, 1000), rounded (no NaN).
template <class Key>
__global__ void fill_half_kernel(Key* out, std::int64_t n, std::uint64_t seed) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = Key(test::random_value<float>(seed, static_cast<std::uint64_t>(i), -1000.0f, 1000.0f));
}

// 16-byte values.
struct value16 {
  std::uint64_t low, high;
};
__global__ void fill_value16_kernel(value16* out, std::int64_t n, std::uint64_t seed) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x)
    out[i] = {test::mix64(seed ^ static_cast<std::uint64_t>(i)), test::mix64(~seed ^ static_cast<std::uint64_t>(i))};
}

template <class T, class Kernel>
void fill_with(Kernel kernel, T* d, std::int64_t n) {
  auto& ctx = bench_context::get();
  kernel<<<1024, 256, 0, ctx.stream>>>(d, n, ++ctx.seed);
  BENCH_CUDA(cudaGetLastError());
  BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
}

template <class Value>
void fill_values(Value* d, std::int64_t n) {
  if constexpr (std::is_same_v<Value, value16>) fill_with(fill_value16_kernel, d, n);
  else fill_input<Value>(d, n, Value{1}, std::numeric_limits<Value>::max());
}

template <class Key>
void fill_keys(Key* d, std::int64_t n, key_pattern pattern) {
  if (pattern != key_pattern::uniform && !std::is_same_v<Key, std::uint32_t>)
    throw std::invalid_argument("patterned keys are u32 only");
  if constexpr (is_half_v<Key>) {
    fill_with(fill_half_kernel<Key>, d, n);
  } else if constexpr (std::is_signed_v<Key> && std::is_integral_v<Key>) {
    fill_input<Key>(d, n, std::numeric_limits<Key>::min(), std::numeric_limits<Key>::max());  // both signs
  } else if constexpr (std::is_floating_point_v<Key>) {
    fill_input<Key>(d, n, Key(-1.0e6), Key(1.0e6));  // both signs, so the sign twiddle is exercised
  } else if constexpr (std::is_same_v<Key, std::uint32_t>) {
    if (pattern == key_pattern::uniform) {
      fill_input<Key>(d, n, 1u, ~0u);
      return;
    }
    auto& ctx = bench_context::get();
    fill_pattern_kernel<<<1024, 256, 0, ctx.stream>>>(d, n, ++ctx.seed, pattern);
    BENCH_CUDA(cudaGetLastError());
    BENCH_CUDA(cudaStreamSynchronize(ctx.stream));
  } else {
    fill_input<Key>(d, n, Key{1}, std::numeric_limits<Key>::max());
  }
}

// Every timed iteration must sort unsorted data. Upsweep and CUB sort out of place and leave
// their input untouched, but Thrust sorts in place, so its second iteration would otherwise sort
// sorted keys. So every implementation sorts `keys_in` (and `values_in`), which `prepare` refills
// from the pristine random arrays before each iteration; time_on_gpu_prepared runs that copy
// before the L2 flush and the start event, so it is neither timed nor left warm in L2.
template <class Key, class Value>
struct sort_arrays {
  static constexpr std::int64_t values_count(std::int64_t n) { return has_values_v<Value> ? n : 0; }
  std::int64_t n;
  device_array<Key> pristine_keys, keys_in, keys_out;
  device_array<Value> pristine_values, values_in, values_out;
  sort_arrays(std::int64_t count, bool needs_out, key_pattern pattern)
      : n(count),
        pristine_keys(count),
        keys_in(count),
        keys_out(needs_out ? count : 0),
        pristine_values(values_count(count)),
        values_in(values_count(count)),
        values_out(needs_out ? values_count(count) : 0) {
    fill_keys(pristine_keys.ptr, n, pattern);
    if constexpr (has_values_v<Value>) fill_values(pristine_values.ptr, n);
  }
  void restore_input(cudaStream_t s) const {
    BENCH_CUDA(cudaMemcpyAsync(keys_in.ptr, pristine_keys.ptr, n * sizeof(Key), cudaMemcpyDeviceToDevice, s));
    if constexpr (has_values_v<Value>)
      BENCH_CUDA(cudaMemcpyAsync(values_in.ptr, pristine_values.ptr, n * sizeof(Value), cudaMemcpyDeviceToDevice, s));
  }
};

template <class Key, class Value>
constexpr double bytes_per_item() {
  return static_cast<double>(sizeof(Key)) + (has_values_v<Value> ? sizeof(Value) : 0);
}

// Upsweep's core layer: temporary storage sized and allocated once, outside the timing. Policy
// void is the library's default.
template <class Policy, class Key, class Value>
void upsweep_sort(benchmark::State& state, sort_arrays<Key, Value>& a) {
  const std::int64_t n = a.n;
  const Key* keys_in = a.keys_in.ptr;
  const Value* values_in = a.values_in.ptr;
  std::size_t bytes = 0;
  auto run = [&](void* temp, cudaStream_t s) {
    if constexpr (has_values_v<Value>)
      return upsweep::sort_pairs<Policy>(temp, bytes, keys_in, a.keys_out.ptr, values_in, a.values_out.ptr, n, 0,
                                         upsweep::key_bits_v<Key>, s);
    else
      return upsweep::sort_keys<Policy>(temp, bytes, keys_in, a.keys_out.ptr, n, 0, upsweep::key_bits_v<Key>, s);
  };
  BENCH_CUDA(run(nullptr, 0));
  device_array<char> temp(static_cast<std::int64_t>(bytes));
  time_on_gpu_prepared(
      state, n, 2.0 * n * bytes_per_item<Key, Value>(), [&](cudaStream_t s) { a.restore_input(s); },
      [&](cudaStream_t s) { BENCH_CUDA(run(temp.ptr, s)); });
}

// CUB two-phase, temporary storage allocated once outside the timing. Offset is the type of the
// item count, which selects CUB's 32- or 64-bit offset configuration.
template <class Offset, class Key, class Value>
void cub_sort(benchmark::State& state, sort_arrays<Key, Value>& a) {
  const std::int64_t n = a.n;
  const Offset count = static_cast<Offset>(n);
  constexpr int end_bit = static_cast<int>(sizeof(Key) * 8);
  const Key* keys_in = a.keys_in.ptr;
  const Value* values_in = a.values_in.ptr;
  std::size_t bytes = 0;
  auto run = [&](void* temp, cudaStream_t s) {
    if constexpr (has_values_v<Value>)
      return cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, a.keys_out.ptr, values_in, a.values_out.ptr, count,
                                             0, end_bit, s);
    else
      return cub::DeviceRadixSort::SortKeys(temp, bytes, keys_in, a.keys_out.ptr, count, 0, end_bit, s);
  };
  BENCH_CUDA(run(nullptr, 0));
  device_array<char> temp(static_cast<std::int64_t>(bytes));
  time_on_gpu_prepared(
      state, n, 2.0 * n * bytes_per_item<Key, Value>(), [&](cudaStream_t s) { a.restore_input(s); },
      [&](cudaStream_t s) { BENCH_CUDA(run(temp.ptr, s)); });
}

// Thrust sorts in place and allocates its temporary storage inside the call, so inside the timed
// region: with par_nosync that is a stream-ordered cudaMallocAsync/cudaFreeAsync pair per call
// (CCCL 3.0), whose cost the row includes. Thrust has no caller-storage form to avoid it.
template <class Key, class Value>
void thrust_sort(benchmark::State& state, sort_arrays<Key, Value>& a) {
  const std::int64_t n = a.n;
  time_on_gpu_prepared(
      state, n, 2.0 * n * bytes_per_item<Key, Value>(), [&](cudaStream_t s) { a.restore_input(s); },
      [&](cudaStream_t s) {
        if constexpr (has_values_v<Value>)
          thrust::sort_by_key(thrust::cuda::par_nosync.on(s), a.keys_in.ptr, a.keys_in.ptr + n, a.values_in.ptr);
        else
          thrust::sort(thrust::cuda::par_nosync.on(s), a.keys_in.ptr, a.keys_in.ptr + n);
        BENCH_CUDA(cudaGetLastError());
      });
}

// Order-free fingerprint of the (key, value) pairs: equal sums for a permutation of the input.
template <class Key, class Value>
struct pair_fingerprint {
  const Key* keys;
  const Value* values;
  __device__ std::uint64_t operator()(std::int64_t i) const {
    std::uint64_t key = 0, value[2] = {0, 0};
    static_assert(sizeof(Key) <= 8 && (!has_values_v<Value> || sizeof(Value) <= 16), "keys to 8 bytes, values to 16");
    std::memcpy(&key, keys + i, sizeof(Key));
    if constexpr (has_values_v<Value>) std::memcpy(value, values + i, sizeof(Value));
    return test::mix64(key ^ test::mix64(value[0] ^ test::mix64(value[1])));
  }
};

template <class Key, class Value>
std::uint64_t fingerprint(const Key* keys, const Value* values, std::int64_t n, cudaStream_t s) {
  return thrust::transform_reduce(thrust::cuda::par.on(s), thrust::counting_iterator<std::int64_t>(0),
                                  thrust::counting_iterator<std::int64_t>(n), pair_fingerprint<Key, Value>{keys, values},
                                  std::uint64_t{0}, cuda::std::plus<std::uint64_t>());
}

// After the timing (the last iteration's output): keys in order, and the same pairs as the input.
// Not a stability check; the tests do that. A wrong row is reported as an error, not as a time.
template <class Key, class Value>
void check_sorted(const sort_arrays<Key, Value>& a, const Key* keys, const Value* values) {
  const cudaStream_t s = bench_context::get().stream;
  if (!thrust::is_sorted(thrust::cuda::par.on(s), keys, keys + a.n))
    throw std::runtime_error("wrong result: keys out of order");
  if (fingerprint(keys, values, a.n, s) != fingerprint(a.pristine_keys.ptr, a.pristine_values.ptr, a.n, s))
    throw std::runtime_error("wrong result: not a permutation of the input pairs");
}

template <class Key, class Value, class Policy = void>
void sort_row(benchmark::State& state, sorter impl, key_pattern pattern) {
  const std::int64_t n = state.range(0);
  // pristine + input (+ output) + the alternate buffers in temporary storage (Thrust's own for Thrust).
  const bool needs_out = impl != sorter::thrust;
  const double data = static_cast<double>(n) * bytes_per_item<Key, Value>();
  guarded(state, [&] {
    if (skip_unless_memory_fits(state, data * (needs_out ? 4 : 3))) return;
    sort_arrays<Key, Value> a(n, needs_out, pattern);
    if constexpr (cub_rows_only) {
      if (impl == sorter::cub32) cub_sort<int>(state, a);
      else cub_sort<std::int64_t>(state, a);
    } else {
      switch (impl) {
        case sorter::upsweep: upsweep_sort<Policy>(state, a); break;
        case sorter::cub32: cub_sort<int>(state, a); break;
        case sorter::cub64: cub_sort<std::int64_t>(state, a); break;
        case sorter::thrust: thrust_sort(state, a); break;
      }
    }
    state.counters["keys/s"] =
        benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
    if (needs_out) check_sorted(a, a.keys_out.ptr, a.values_out.ptr);
    else check_sorted(a, a.keys_in.ptr, a.values_in.ptr);
  });
}

// 2^16, 2^20, 2^24, 2^28, 2^30 (capped by UPSWEEP_BENCH_MAX_LOG2 for quick runs). Rows whose
// arrays do not fit in device memory are skipped with the reason, not run.
std::vector<std::int64_t> sort_sizes() {
  int max_log2 = 30;
  if (const char* cap = std::getenv("UPSWEEP_BENCH_MAX_LOG2")) max_log2 = std::atoi(cap);
  std::vector<std::int64_t> sizes;
  for (int log2 : {16, 20, 24, 28, 30})
    if (log2 <= max_log2) sizes.push_back(std::int64_t{1} << log2);
  return sizes;
}

// 2^20, 2^24, 2^28 (capped likewise): the rows of the other key and value types.
std::vector<std::int64_t> type_sizes() {
  std::vector<std::int64_t> sizes;
  for (const std::int64_t n : sort_sizes())
    if (n >= (std::int64_t{1} << 20) && n <= (std::int64_t{1} << 28)) sizes.push_back(n);
  return sizes;
}

template <class Key, class Value = no_values>
void register_sort_case(const std::string& row, key_pattern pattern = key_pattern::uniform,
                        const std::vector<std::int64_t>& sizes = sort_sizes()) {
  // upsweep-bench-cub35 keeps the two CUB rows (cub35_32, cub35_64).
  const std::pair<sorter, const char*> impls[] = {
      {sorter::upsweep, "upsweep"}, {sorter::cub32, "cub32"}, {sorter::cub64, "cub64"}, {sorter::thrust, "thrust"}};
  for (const auto& [impl, name] : impls) {
    add_row("sort/" + row + "/" + name, sizes, 0.1, [impl = impl, pattern](benchmark::State& state) {
      sort_row<Key, Value>(state, impl, pattern);
    });
  }
}

// A tuning row: Upsweep with `Policy` on uniform keys, 2^16 to 2^28 (the shapes of large tiles
// lose at the smaller sizes).
template <class Key, class Value, class Policy>
void register_sort_tuning(const std::string& sort_case, const std::string& name) {
  const std::vector<std::int64_t> sizes = {std::int64_t{1} << 16, std::int64_t{1} << 20, std::int64_t{1} << 24,
                                           std::int64_t{1} << 28};
  add_row("tune/" + sort_case + "/" + name, sizes, 0.25, [](benchmark::State& state) {
    sort_row<Key, Value, Policy>(state, sorter::upsweep, key_pattern::uniform);
  });
}

// Ballot ranking at Threads x Items tiles, Window look-back words per digit read at once, DelayNs
// between polls of a predecessor not yet published, at least MinBlocks pass blocks per SM (a
// register cap). (Match ranking measured slower throughout, on 2026-11-21 and again with the
// ballots in PTX on 2026-11-22: docs/performance.md.)
template <class Key, class Value, int Threads, int Items, int Window, int DelayNs, int MinBlocks,
          upsweep::radix_rank_method Rank = upsweep::radix_rank_method::ballot>
void register_sort_shape(const std::string& sort_case) {
  const std::string rank = Rank == upsweep::radix_rank_method::ballot ? "ballot" : "match";
  register_sort_tuning<Key, Value,
                       upsweep::radix_sort_policy<Threads, Items, 256, DelayNs, Rank, Window, true, 0, MinBlocks>>(
      sort_case, rank + "_t" + std::to_string(Threads) + "_i" + std::to_string(Items) + "_window" +
                     std::to_string(Window) + "_delay" + std::to_string(DelayNs) + "_min" + std::to_string(MinBlocks));
}

// The defaults (default_radix_tile_shape, large_input_radix_tile_shape) beside the 2026-11-22 (58223cd)
// defaults and the next shapes tried. Bytes spilled at the register cap (ptxas, sm_90,
// 2026-11-22): u32 keys 384 x 32 at 80 registers (20), 384 x 20 at 56 (12), 768 x 24 at 80 (none); u64
// keys 384 x 22 at 80 (24), 384 x 14 at 56 (none), 768 x 18 at 80 (none); u32 pairs 384 x 32 at 80
// (28), 768 x 28 at 80 (4), 768 x 24 and 384 x 23 at 80 (none); u64/u32 pairs 384 x 20 at 80 (36),
// 768 x 18 at 80 (none), 768 x 20 at 80 (4), 384 x 14 at 80 (none).
template <class Key, class Value, int Window, int DelayNs>
void register_sort_tuning_case(const std::string& sort_case) {
  constexpr bool keys_alone = std::is_same_v<Value, no_values>;
  if constexpr (keys_alone && sizeof(Key) == 4) {
    register_sort_shape<Key, Value, 384, 32, Window, DelayNs, 2>(sort_case);
    register_sort_shape<Key, Value, 384, 20, Window, DelayNs, 3>(sort_case);
    register_sort_shape<Key, Value, 768, 24, Window, DelayNs, 1>(sort_case);
  } else if constexpr (keys_alone && sizeof(Key) == 8) {
    register_sort_shape<Key, Value, 384, 22, Window, DelayNs, 2>(sort_case);
    register_sort_shape<Key, Value, 384, 14, Window, DelayNs, 3>(sort_case);
    register_sort_shape<Key, Value, 768, 18, Window, DelayNs, 1>(sort_case);
  } else if constexpr (sizeof(Key) == 4) {
    register_sort_shape<Key, Value, 384, 32, Window, DelayNs, 2>(sort_case);
    register_sort_shape<Key, Value, 768, 28, Window, DelayNs, 1>(sort_case);
    register_sort_shape<Key, Value, 768, 24, Window, DelayNs, 1>(sort_case);
    register_sort_shape<Key, Value, 384, 23, Window, DelayNs, 2>(sort_case);
  } else {
    register_sort_shape<Key, Value, 384, 20, Window, DelayNs, 2>(sort_case);
    register_sort_shape<Key, Value, 768, 18, Window, DelayNs, 1>(sort_case);
    register_sort_shape<Key, Value, 768, 20, Window, DelayNs, 1>(sort_case);
    register_sort_shape<Key, Value, 384, 14, Window, DelayNs, 2>(sort_case);
  }
}

const bool registered = register_later([] {
  register_sort_case<std::uint32_t>("keys_u32");
  register_sort_case<float>("keys_f32");
  register_sort_case<std::uint64_t>("keys_u64");
  register_sort_case<std::uint32_t, std::uint32_t>("pairs_u32_u32");
  register_sort_case<std::uint64_t, std::uint32_t>("pairs_u64_u32");
  register_sort_case<std::uint32_t>("keys_u32_and3", key_pattern::and_3);
  register_sort_case<std::uint32_t>("keys_u32_and5", key_pattern::and_5);
  register_sort_case<std::uint32_t>("keys_u32_low8", key_pattern::low_8_bits);
  const auto uniform = key_pattern::uniform;
  register_sort_case<std::uint8_t>("keys_u8", uniform, type_sizes());
  register_sort_case<std::uint16_t>("keys_u16", uniform, type_sizes());
  register_sort_case<std::int64_t>("keys_i64", uniform, type_sizes());
  register_sort_case<double>("keys_f64", uniform, type_sizes());
  register_sort_case<__half>("keys_f16", uniform, type_sizes());
  register_sort_case<__nv_bfloat16>("keys_bf16", uniform, type_sizes());
  register_sort_case<std::uint32_t, std::uint64_t>("pairs_u32_u64", uniform, type_sizes());
  register_sort_case<std::uint32_t, value16>("pairs_u32_v16", uniform, type_sizes());
  register_sort_case<std::uint64_t, std::uint64_t>("pairs_u64_u64", uniform, type_sizes());

#ifndef UPSWEEP_BENCH_CUB35
  register_sort_tuning_case<std::uint32_t, no_values, 4, 350>("sort_keys_u32");
  register_sort_tuning_case<std::uint64_t, no_values, 4, 350>("sort_keys_u64");
  register_sort_tuning_case<std::uint32_t, std::uint32_t, 1, 0>("sort_pairs_u32_u32");
  register_sort_tuning_case<std::uint64_t, std::uint32_t, 1, 0>("sort_pairs_u64_u32");
#endif
});

}  // namespace
}  // namespace upsweep::bench
