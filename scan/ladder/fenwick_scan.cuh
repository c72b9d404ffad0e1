// Scan rung 1: prefix sums through a Fenwick tree (binary indexed tree), after seed 000.
// Build: a block folds its nodes in shared memory at strides 1, 2, 4 .. block/2; the same kernel
// runs again over every block-th node (node stride block, block^2, ...) until one tree spans the
// array. Query: each item adds the O(log n) nodes that cover its prefix.
// Cost: the build is work-efficient, the query is not (n log n adds, scattered loads), and the
// tree is a temporary copy of the input; that gap is what this rung is here to show.
#pragma once

#include "ladder_common.cuh"

namespace upsweep::ladder {

struct fenwick_config {
  static constexpr int block_threads = 512;
};
static_assert((fenwick_config::block_threads & (fenwick_config::block_threads - 1)) == 0,
              "the in-block fold needs a power-of-two block");

// After the fold, the node of thread t (1-based rank t + 1 in its block) holds the sum of
// lowbit(t + 1) nodes of the level below ending at it. The block's first node is a multiple of
// the block size, so the block-local rank has the same low bits as the global one.
template <int BlockThreads, class T>
__device__ void fold_nodes_in_block(T* nodes) {
  const unsigned t = threadIdx.x;
  for (unsigned span = 2; span <= BlockThreads; span *= 2) {
    __syncthreads();  // the previous span's sums (or the loads) are visible
    // Right children are multiples of span; they read left children, which nobody writes now.
    if (((t + 1) & (span - 1)) == 0) nodes[t] += nodes[t - span / 2];
  }
  __syncthreads();
}

// One level of the build: nodes are the items at (node + 1) * node_stride - 1.
template <class T>
__global__ void __launch_bounds__(fenwick_config::block_threads)
    fenwick_build_level_kernel(const T* d_src, T* d_tree, std::int64_t num_items, std::int64_t node_stride) {
  constexpr int block_threads = fenwick_config::block_threads;
  __shared__ T nodes[block_threads];
  const std::int64_t num_nodes = num_items / node_stride;
  const std::int64_t num_tiles = ceil_div<std::int64_t>(num_nodes, block_threads);
  for (std::int64_t tile = blockIdx.x; tile < num_tiles; tile += gridDim.x) {
    const std::int64_t node = tile * block_threads + threadIdx.x;
    const std::int64_t item = (node + 1) * node_stride - 1;
    const bool present = node < num_nodes;
    // Absent nodes are zeros: a present node only ever reads nodes below it.
    nodes[threadIdx.x] = present ? d_src[item] : T{};
    fold_nodes_in_block<block_threads>(nodes);  // ends with a barrier, so the next tile may store
    if (present) d_tree[item] = nodes[threadIdx.x];
  }
}

// Sum of the first `count` items: the nodes at count, count - lowbit(count), ... (1-based).
template <class T>
__device__ T prefix_from_tree(const T* d_tree, std::int64_t count) {
  if (count == 0) return T{};
  T sum = d_tree[count - 1];
  for (std::int64_t node = count & (count - 1); node > 0; node &= node - 1) sum = d_tree[node - 1] + sum;
  return sum;
}

template <bool Exclusive, class T>
__global__ void __launch_bounds__(fenwick_config::block_threads)
    fenwick_query_kernel(const T* d_tree, T* d_out, std::int64_t num_items) {
  for (std::int64_t i = global_thread_index(); i < num_items; i += grid_threads())
    d_out[i] = prefix_from_tree(d_tree, Exclusive ? i : i + 1);
}

template <bool Exclusive, class T>
cudaError_t fenwick_scan(void* d_temp_storage, std::size_t& temp_storage_bytes, const T* d_in, T* d_out,
                         std::int64_t num_items, cudaStream_t stream) {
  constexpr int block_threads = fenwick_config::block_threads;
  if (num_items < 0) return cudaErrorInvalidValue;
  void* allocations[1] = {};
  const std::size_t sizes[1] = {static_cast<std::size_t>(num_items) * sizeof(T)};
  UPSWEEP_CUDA_RETURN(detail::alias_temporaries(d_temp_storage, temp_storage_bytes, allocations, sizes));
  if (d_temp_storage == nullptr || num_items == 0) return cudaSuccess;
  T* d_tree = static_cast<T*>(allocations[0]);

  // The first level reads the input, so the tree needs no copy of it.
  const T* d_src = d_in;
  for (std::int64_t node_stride = 1;; node_stride *= block_threads) {
    const std::int64_t num_tiles = ceil_div<std::int64_t>(num_items / node_stride, block_threads);
    fenwick_build_level_kernel<<<loop_grid(num_tiles), block_threads, 0, stream>>>(d_src, d_tree, num_items,
                                                                                   node_stride);
    UPSWEEP_CUDA_RETURN(cudaGetLastError());
    d_src = d_tree;
    // Done once a node's span (node_stride * block) can reach back over the whole array.
    if (node_stride >= ceil_div<std::int64_t>(num_items, block_threads)) break;
  }
  const unsigned grid = loop_grid(ceil_div<std::int64_t>(num_items, block_threads));
  fenwick_query_kernel<Exclusive><<<grid, block_threads, 0, stream>>>(d_tree, d_out, num_items);
  return cudaGetLastError();
}

}  // namespace upsweep::ladder
