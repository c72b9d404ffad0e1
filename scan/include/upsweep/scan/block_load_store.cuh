// Block layer: moving a tile between global memory and a blocked arrangement in registers
// (thread t holds items [t * IPT, (t + 1) * IPT) of the tile).
// Two ways: `direct` loads each thread's run itself (16-byte vectors when aligned); `transpose`
// loads warp-striped, so every instruction reads contiguous bytes, and reorders through a
// warp-private, swizzled shared-memory buffer (no block barrier needed).
#pragma once

#include <upsweep/util/arch.cuh>

#include <cuda/std/cstdint>
#include <cuda/std/iterator>
#include <cuda/std/type_traits>

namespace upsweep {

enum class tile_io { direct, transpose };

namespace detail {

inline constexpr int vector_bytes = 16;

template <class T>
__device__ __forceinline__ bool is_vector_aligned(const T* ptr) {
  return reinterpret_cast<cuda::std::uintptr_t>(ptr) % vector_bytes == 0;
}

template <class It>
inline constexpr bool is_plain_pointer_v = cuda::std::is_pointer_v<It>;

// Whether a run of IPT items of T can move as whole 16-byte vectors.
template <class T, int IPT>
inline constexpr bool vectorizable_v = cuda::std::is_trivially_copyable_v<T> && sizeof(T) <= vector_bytes &&
                                       vector_bytes % sizeof(T) == 0 && (IPT * sizeof(T)) % vector_bytes == 0;

template <class T>
inline constexpr int items_per_vector = vector_bytes / sizeof(T);

// Slot of item `i` of a warp's segment in its shared buffer. Items keep their 16-byte chunk
// together; chunks are XOR-swizzled within each 128-byte row so that both the warp-striped
// writes and the blocked reads spread over all 32 banks.
__device__ __forceinline__ int swizzled_chunk(int chunk) { return chunk ^ ((chunk >> 3) & 7); }

template <class T, int IPT>
__device__ __forceinline__ int swizzled_slot(int i) {
  // The XOR stays inside a warp's buffer only when that buffer is whole 128-byte rows.
  if constexpr (vector_bytes % sizeof(T) == 0 && (warp_threads * IPT * sizeof(T)) % 128 == 0) {
    constexpr int per_chunk = items_per_vector<T>;
    return swizzled_chunk(i / per_chunk) * per_chunk + i % per_chunk;
  } else {
    return i;
  }
}

// Whether this thread's items move as 16-byte vectors: a whole tile does; in a partial tile, a
// thread loading directly does when its whole run is valid (warp-striped ones share vectors).
template <tile_io Io, int IPT>
__device__ __forceinline__ bool moves_as_vectors(bool full, long long valid) {
  if constexpr (Io == tile_io::direct) return full || (static_cast<long long>(threadIdx.x) + 1) * IPT <= valid;
  return full;
}

struct alignas(16) vector16 {
  unsigned words[4];
};

// Unpacks 16-byte vectors of In into items converted to T.
template <class In, int Vectors, class T, int IPT>
__device__ __forceinline__ void vectors_to_items(const vector16 (&v)[Vectors], T (&items)[IPT]) {
  static_assert(Vectors * items_per_vector<In> == IPT, "the vectors hold exactly the items");
  In loaded[IPT];
  memcpy(loaded, v, sizeof(loaded));
#pragma unroll
  for (int i = 0; i < IPT; ++i) items[i] = static_cast<T>(loaded[i]);
}

// Second half of a transposed load: a warp's swizzled buffer, filled warp-striped, to blocked
// registers. Ends with __syncwarp, so the buffer may be reused right after.
template <class In, class T, int IPT>
__device__ __forceinline__ void read_blocked_vectors(const vector16* buffer, T (&items)[IPT]) {
  constexpr int vectors = IPT / items_per_vector<In>;
  vector16 v[vectors];
#pragma unroll
  for (int k = 0; k < vectors; ++k) v[k] = buffer[swizzled_chunk(static_cast<int>(lane_id()) * vectors + k)];
  __syncwarp();
  vectors_to_items<In>(v, items);
}

}  // namespace detail

// Shared storage for moving tiles of T through the transpose path.
template <class T, int BlockThreads, int IPT>
struct tile_exchange_storage {
  alignas(16) T items[BlockThreads * IPT];
};

// What a tile moving directly needs of shared memory: nothing.
struct no_tile_exchange {};

template <tile_io Io, class T, int BlockThreads, int IPT>
using tile_exchange_t =
    cuda::std::conditional_t<Io == tile_io::direct, no_tile_exchange, tile_exchange_storage<T, BlockThreads, IPT>>;

// Loads the `valid` first items of a tile (all of it when valid >= tile size) into blocked
// registers. Items past `valid` are copies of the tile's first item, so scans may run over them
// and simply not store their results.
// `exchange` is a tile_exchange_storage of the input's type (any type when loading directly).
template <tile_io Io, int BlockThreads, int IPT, class InputIt, class T, class Exchange>
__device__ __forceinline__ void load_tile(InputIt tile_begin, long long valid, T (&items)[IPT], Exchange& exchange) {
  using in_t = typename cuda::std::iterator_traits<InputIt>::value_type;
  constexpr int tile_items = BlockThreads * IPT;
  const bool full = valid >= tile_items;
  const int lane = detail::lane_id();
  const int warp = detail::warp_id();
  if constexpr (detail::is_plain_pointer_v<InputIt> && detail::vectorizable_v<in_t, IPT>) {
    if (detail::moves_as_vectors<Io, IPT>(full, valid) && detail::is_vector_aligned(tile_begin)) {
      constexpr int vectors = IPT / detail::items_per_vector<in_t>;
      const auto* src = reinterpret_cast<const detail::vector16*>(tile_begin);
      detail::vector16 v[vectors];
      if constexpr (Io == tile_io::direct) {
#pragma unroll
        for (int k = 0; k < vectors; ++k) v[k] = src[threadIdx.x * vectors + k];
      } else {
        auto* buffer = reinterpret_cast<detail::vector16*>(exchange.items + warp * detail::warp_threads * IPT);
        const int warp_first = warp * detail::warp_threads * vectors;
#pragma unroll
        for (int k = 0; k < vectors; ++k) v[k] = src[warp_first + k * detail::warp_threads + lane];
#pragma unroll
        for (int k = 0; k < vectors; ++k) {
          const int chunk = k * detail::warp_threads + lane;
          buffer[detail::swizzled_chunk(chunk)] = v[k];
        }
        __syncwarp();
        detail::read_blocked_vectors<in_t>(buffer, items);
        return;
      }
      detail::vectors_to_items<in_t>(v, items);
      return;
    }
  }
  // Scalar path: any iterator, any alignment, partial tiles.
  const in_t first = tile_begin[0];
  if constexpr (Io == tile_io::direct) {
#pragma unroll
    for (int i = 0; i < IPT; ++i) {
      const long long idx = static_cast<long long>(threadIdx.x) * IPT + i;
      items[i] = static_cast<T>(idx < valid ? tile_begin[idx] : first);
    }
  } else {
    in_t* buffer = exchange.items + warp * detail::warp_threads * IPT;
    const long long warp_first = static_cast<long long>(warp) * detail::warp_threads * IPT;
#pragma unroll
    for (int k = 0; k < IPT; ++k) {
      const int i = k * detail::warp_threads + lane;
      buffer[detail::swizzled_slot<in_t, IPT>(i)] = warp_first + i < valid ? tile_begin[warp_first + i] : first;
    }
    __syncwarp();
#pragma unroll
    for (int i = 0; i < IPT; ++i) items[i] = static_cast<T>(buffer[detail::swizzled_slot<in_t, IPT>(lane * IPT + i)]);
    __syncwarp();
  }
}

// Stores the `valid` first items of a blocked tile (all of it when valid >= tile size).
template <tile_io Io, int BlockThreads, int IPT, class OutputIt, class T, class Exchange>
__device__ __forceinline__ void store_tile(OutputIt tile_begin, long long valid, const T (&items)[IPT],
                                           Exchange& exchange) {
  constexpr int tile_items = BlockThreads * IPT;
  const bool full = valid >= tile_items;
  const int lane = detail::lane_id();
  const int warp = detail::warp_id();
  using out_t = cuda::std::remove_cv_t<cuda::std::remove_pointer_t<OutputIt>>;
  if constexpr (detail::is_plain_pointer_v<OutputIt> && cuda::std::is_same_v<out_t, T> &&
                detail::vectorizable_v<T, IPT>) {
    if (detail::moves_as_vectors<Io, IPT>(full, valid) && detail::is_vector_aligned(tile_begin)) {
      constexpr int vectors = IPT / detail::items_per_vector<T>;
      auto* dst = reinterpret_cast<detail::vector16*>(tile_begin);
      detail::vector16 v[vectors];
      memcpy(v, items, sizeof(v));
      if constexpr (Io == tile_io::direct) {
#pragma unroll
        for (int k = 0; k < vectors; ++k) dst[threadIdx.x * vectors + k] = v[k];
      } else {
        auto* buffer = reinterpret_cast<detail::vector16*>(exchange.items + warp * detail::warp_threads * IPT);
#pragma unroll
        for (int k = 0; k < vectors; ++k) {
          const int chunk = lane * vectors + k;
          buffer[detail::swizzled_chunk(chunk)] = v[k];
        }
        __syncwarp();
        const int warp_first = warp * detail::warp_threads * vectors;
#pragma unroll
        for (int k = 0; k < vectors; ++k) {
          const int chunk = k * detail::warp_threads + lane;
          dst[warp_first + chunk] = buffer[detail::swizzled_chunk(chunk)];
        }
        __syncwarp();
      }
      return;
    }
  }
  if constexpr (Io == tile_io::direct) {
#pragma unroll
    for (int i = 0; i < IPT; ++i) {
      const long long idx = static_cast<long long>(threadIdx.x) * IPT + i;
      if (idx < valid) tile_begin[idx] = items[i];
    }
  } else {
    T* buffer = exchange.items + warp * detail::warp_threads * IPT;
#pragma unroll
    for (int i = 0; i < IPT; ++i) buffer[detail::swizzled_slot<T, IPT>(lane * IPT + i)] = items[i];
    __syncwarp();
    const long long warp_first = static_cast<long long>(warp) * detail::warp_threads * IPT;
#pragma unroll
    for (int k = 0; k < IPT; ++k) {
      const int i = k * detail::warp_threads + lane;
      if (warp_first + i < valid) tile_begin[warp_first + i] = buffer[detail::swizzled_slot<T, IPT>(i)];
    }
    __syncwarp();
  }
}

}  // namespace upsweep
