// Host side of the device-wide top-k: temporary storage, the chain of select passes, and the sort
// of the winners when a sorted result is asked for.
#pragma once

#include <upsweep/sort/detail/batched_top_k_kernel.cuh>
#include <upsweep/sort/detail/radix_sort_control.cuh>
#include <upsweep/sort/detail/row_offsets.cuh>
#include <upsweep/sort/detail/top_k_finish.cuh>
#include <upsweep/sort/detail/top_k_kernels.cuh>
#include <upsweep/sort/detail/top_k_sample.cuh>
#include <upsweep/sort/device_radix_sort.cuh>
#include <upsweep/util/chained_launch.cuh>
#include <upsweep/util/cooperative_launch.cuh>
#include <upsweep/util/error.hpp>
#include <upsweep/util/occupancy.hpp>
#include <upsweep/util/temp_storage.hpp>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>

namespace upsweep::detail {

// Candidates a buffer holds. A chosen digit with more ties than this is not copied out: the next
// pass reads the input again through the prefix instead (many equal keys, or a skewed digit).
constexpr long long top_k_candidate_capacity(long long num_items) {
  return std::min(num_items, std::max(8192ll, num_items / 8));
}

// Sorts the k winners' indices by (select bits, index): indices ascending first, then a stable
// sort by select bits; then gathers keys and values in that order.
template <bool Largest, class Key, class Index, class ValueIn, class Value>
struct top_k_sorter {
  using bits_t = typename radix_traits<Key>::bits_t;
  long long k;
  int index_bits;

  cudaError_t storage_bytes(std::size_t& bytes) const {
    std::size_t index_sort = 0, bits_sort = 0;
    UPSWEEP_CUDA_RETURN(sort_keys(nullptr, index_sort, static_cast<const Index*>(nullptr), static_cast<Index*>(nullptr),
                                  k, 0, index_bits));
    UPSWEEP_CUDA_RETURN(sort_pairs(nullptr, bits_sort, static_cast<const bits_t*>(nullptr),
                                   static_cast<bits_t*>(nullptr), static_cast<const Index*>(nullptr),
                                   static_cast<Index*>(nullptr), k));
    bytes = std::max(index_sort, bits_sort);
    return cudaSuccess;
  }

  // indices: the winners (overwritten with their sorted order); spare_indices, bits, spare_bits:
  // k each; d_sort_temp: storage_bytes().
  cudaError_t run(const Key* d_keys_in, ValueIn values_in, Key* d_keys_out, Value* d_values_out, Index* d_indices,
                  Index* d_spare_indices, bits_t* d_bits, bits_t* d_spare_bits, void* d_sort_temp,
                  cudaStream_t stream) const {
    std::size_t bytes = 0;
    UPSWEEP_CUDA_RETURN(storage_bytes(bytes));
    UPSWEEP_CUDA_RETURN(sort_keys(d_sort_temp, bytes, d_indices, d_spare_indices, k, 0, index_bits, stream));
    const unsigned blocks = static_cast<unsigned>((k + 255) / 256);
    UPSWEEP_CUDA_RETURN(launch_chained(top_k_gather_bits_kernel<Largest, Key, Index>, blocks, 256, stream, d_keys_in,
                                       static_cast<const Index*>(d_spare_indices), k, d_bits));
    UPSWEEP_CUDA_RETURN(sort_pairs(d_sort_temp, bytes, static_cast<const bits_t*>(d_bits), d_spare_bits,
                                   static_cast<const Index*>(d_spare_indices), d_indices, k, 0, key_bits_v<Key>,
                                   stream));
    return launch_chained(top_k_gather_kernel<Key, Index, ValueIn, Value>, blocks, 256, stream, d_keys_in, values_in,
                          static_cast<const Index*>(d_indices), k, d_keys_out, d_values_out);
  }
};

// The grid of a filter or split kernel: its resident blocks, at most one a tile of the input.
template <auto Kernel>
cudaError_t top_k_grid(long long num_items, unsigned& blocks) {
  const long long tiles = (num_items + top_k_split_tile - 1) / top_k_split_tile;
  int resident = 0;
  UPSWEEP_CUDA_RETURN((resident_blocks<Kernel, top_k_split_threads>(resident)));
  blocks = static_cast<unsigned>(std::max(1ll, std::min<long long>(resident, tiles)));
  return cudaSuccess;
}

// The splits after the sample's filter (and finish): one cooperative launch for them all, or,
// where the GPU refuses it (fewer blocks fit than the occupancy query said, as in a partition, or
// no cooperative launch at all), one launch a pass.
template <bool Largest, class Key, class Index, class ValueIn, class Value>
cudaError_t enqueue_top_k_splits(const top_k_buffers<Key, Index, ValueIn, Value>& io, long long num_items,
                                 long long capacity, int index_bits, top_k_state* d_state, cudaStream_t stream) {
  constexpr int key_bits = key_bits_v<Key>;
  constexpr auto split = top_k_split_kernel<Largest, Key, Index, ValueIn, Value>;
  unsigned blocks = 0;
  UPSWEEP_CUDA_RETURN((top_k_grid<split>(num_items, blocks)));
  const int last = top_k_max_digits(key_bits, index_bits);
  const cudaError_t status = launch_chained_cooperative(split, blocks, top_k_split_threads, stream, io, num_items,
                                                        d_state, 0, last, capacity, key_bits, index_bits);
  if (status != cudaErrorCooperativeLaunchTooLarge && status != cudaErrorNotSupported) return status;
  (void)cudaGetLastError();  // the refusal is no fault of the stream's
  for (int step = 0; step <= last; ++step)
    UPSWEEP_CUDA_RETURN(launch_chained(split, blocks, top_k_split_threads, stream, io, num_items, d_state, step, step,
                                       capacity, key_bits, index_bits));
  return cudaSuccess;
}

template <bool Largest, class Key, class Index, class ValueIn, class Value>
cudaError_t enqueue_top_k_select(const top_k_buffers<Key, Index, ValueIn, Value>& io, long long num_items, long long k,
                                 top_k_state* d_state, cudaStream_t stream) {
  constexpr int key_bits = key_bits_v<Key>;
  const int index_bits = top_k_index_bits(num_items);
  const long long capacity = top_k_candidate_capacity(num_items);
  constexpr auto filter = top_k_filter_kernel<Largest, Key, Index, ValueIn, Value>;
  unsigned filter_blocks = 0;
  UPSWEEP_CUDA_RETURN((top_k_grid<filter>(num_items, filter_blocks)));
  // The first kernel launches plainly (see dispatch_batched_top_k); the rest chain on it.
  top_k_sample_kernel<Largest, Key>
      <<<1, top_k_sample_threads, 0, stream>>>(io.keys_in, num_items, k, capacity, index_bits, d_state);
  UPSWEEP_CUDA_RETURN(cudaGetLastError());
  UPSWEEP_CUDA_RETURN(launch_chained(filter, filter_blocks, top_k_split_threads, stream, io, num_items, k, capacity,
                                     index_bits, d_state));
  // The finish, where the sample's candidates are expected to fit it (the sample's own test).
  const int samples = top_k_sample_count(num_items);
  if (top_k_sample_fits(top_k_sample_rank(k, num_items, samples), num_items, samples,
                        std::min(capacity, top_k_finish_capacity)))
    UPSWEEP_CUDA_RETURN(launch_chained_shared(top_k_finish_kernel<Largest, Key, Index, ValueIn, Value>, 1,
                                              top_k_finish_threads, top_k_finish_shared_bytes<Key, Index>(), stream, io,
                                              capacity, key_bits, index_bits, d_state));
  return enqueue_top_k_splits<Largest>(io, num_items, capacity, index_bits, d_state, stream);
}

// values_out == nullptr: keys only.
template <bool Largest, class Key, class Index, class ValueIn, class Value>
cudaError_t dispatch_top_k(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in, Key* d_keys_out,
                           ValueIn values_in, Value* d_values_out, long long num_items, long long k, bool sorted,
                           bool has_values, cudaStream_t stream) {
  using bits_t = typename radix_traits<Key>::bits_t;
  if (num_items < 0 || k < 0 || k > num_items) return cudaErrorInvalidValue;
  const long long capacity = top_k_candidate_capacity(num_items);
  const long long sorted_k = sorted ? k : 0;
  const top_k_sorter<Largest, Key, Index, ValueIn, Value> sorter{k, top_k_index_bits(num_items)};
  std::size_t sort_bytes = 0;
  if (sorted_k > 0) UPSWEEP_CUDA_RETURN(sorter.storage_bytes(sort_bytes));
  void* pieces[10] = {};
  const auto keys_bytes = static_cast<std::size_t>(capacity) * sizeof(Key);
  const auto index_bytes = static_cast<std::size_t>(capacity) * sizeof(Index);
  const std::size_t sizes[10] = {sizeof(top_k_state),
                                 keys_bytes,
                                 keys_bytes,
                                 index_bytes,
                                 index_bytes,
                                 static_cast<std::size_t>(sorted_k) * sizeof(Index),
                                 static_cast<std::size_t>(sorted_k) * sizeof(Index),
                                 static_cast<std::size_t>(sorted_k) * sizeof(bits_t),
                                 static_cast<std::size_t>(sorted_k) * sizeof(bits_t),
                                 sort_bytes};
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, pieces, sizes));
  if (d_temp_storage == nullptr || k == 0) return cudaSuccess;
  if (d_keys_in == nullptr || d_keys_out == nullptr || (has_values && d_values_out == nullptr))
    return cudaErrorInvalidValue;
  auto* const d_indices = static_cast<Index*>(pieces[5]);
  const top_k_buffers<Key, Index, ValueIn, Value> io{d_keys_in,
                                                     values_in,
                                                     sorted ? nullptr : d_keys_out,
                                                     sorted || !has_values ? nullptr : d_values_out,
                                                     sorted ? d_indices : nullptr,
                                                     {static_cast<Key*>(pieces[1]), static_cast<Key*>(pieces[2])},
                                                     {static_cast<Index*>(pieces[3]), static_cast<Index*>(pieces[4])}};
  auto* const d_state = static_cast<top_k_state*>(pieces[0]);
  UPSWEEP_CUDA_RETURN((enqueue_top_k_select<Largest>(io, num_items, k, d_state, stream)));
  if (!sorted) return cudaSuccess;
  return sorter.run(d_keys_in, values_in, d_keys_out, has_values ? d_values_out : nullptr, d_indices,
                    static_cast<Index*>(pieces[6]), static_cast<bits_t*>(pieces[7]), static_cast<bits_t*>(pieces[8]),
                    pieces[9], stream);
}

// Blocks a segment: one, or while two blocks a segment still leave SMs idle, up to 8 (a cluster)
// that share the read of a long segment's filter.
inline cudaError_t batched_top_k_parts(long long num_segments, int& parts) {
  int device = 0, sms = 0;
  UPSWEEP_CUDA_RETURN(cudaGetDevice(&device));
  UPSWEEP_CUDA_RETURN(sm_count(device, sms));
  parts = 1;
  while (parts < 8 && num_segments * parts * 2 <= sms) parts *= 2;
  return cudaSuccess;
}

// One cluster per segment; no temporary storage beyond the minimum the size query reports.
template <bool Largest, class Key, class BeginOffsets, class EndOffsets, class ValueIn, class Value>
cudaError_t dispatch_batched_top_k(void* d_temp_storage, std::size_t& temp_storage_bytes, const Key* d_keys_in,
                                   Key* d_keys_out, ValueIn values_in, Value* d_values_out, long long num_segments,
                                   BeginOffsets begin_offsets, EndOffsets end_offsets, long long k, bool sorted,
                                   bool has_values, cudaStream_t stream) {
  if (num_segments < 0 || num_segments > INT_MAX || k < 0 || (sorted && k > batched_top_k_max_sorted))
    return cudaErrorInvalidValue;
  void* none[1] = {};
  const std::size_t no_bytes[1] = {0};
  UPSWEEP_CUDA_RETURN(alias_temporaries(d_temp_storage, temp_storage_bytes, none, no_bytes));
  if (d_temp_storage == nullptr || num_segments == 0 || k == 0) return cudaSuccess;
  if (d_keys_in == nullptr || d_keys_out == nullptr || (has_values && d_values_out == nullptr))
    return cudaErrorInvalidValue;
  const batched_top_k_output<Key, ValueIn, Value> out{values_in, d_keys_out, has_values ? d_values_out : nullptr, k,
                                                      sorted};
  int parts = 0;
  UPSWEEP_CUDA_RETURN(batched_top_k_parts(num_segments, parts));
  // Not chained: a lone kernel gains nothing from an early start, and launched chained after a
  // memset it measured six times slower (H200, 2026-11-27).
  cudaLaunchAttribute cluster = {};
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = static_cast<unsigned>(parts);
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  return launch_with_attributes(batched_top_k_kernel<Largest, Key, BeginOffsets, EndOffsets, ValueIn, Value>,
                                dim3(static_cast<unsigned>(num_segments * parts)), dim3(batched_top_k_threads), 0,
                                stream, &cluster, parts > 1 ? 1u : 0u, d_keys_in, begin_offsets, end_offsets, out);
}

}  // namespace upsweep::detail
