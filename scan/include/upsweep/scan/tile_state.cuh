// Tile layer: per-tile status for single-pass scans with decoupled look-back (Merrill and Garland,
// "Single-pass Parallel Prefix Scan with Decoupled Look-back", 2016). Each tile publishes its
// aggregate (partial) as soon as it has it and its inclusive prefix once known; a successor's
// warp 0 inspects 32 predecessors at a time and stops at the nearest inclusive one.
// Tile ids come from an atomic counter, so progress never depends on block scheduling order.
// initialize() clears the state (util/chained_launch.cuh: a memset when small, else a chained
// kernel), so the kernel that uses it is launched chained and joins the chain at its first line.
// A single tile is neither claimed nor looked back on, so initialize leaves its state as it is:
// take tiles with claim_first_tile or for_each_claimed_tile, which give a lone tile 0 without a claim.
// A grid of 2 to 16 tiles may instead be one cluster with a cluster_tile_state
// (cluster_tile_state.cuh): the same kernels, the aggregates moving through shared memory.
#pragma once

#include <upsweep/scan/tile_claim.cuh>
#include <upsweep/scan/warp_reduce.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/chained_launch.cuh>
#include <upsweep/util/maybe.cuh>

#include <cuda/atomic>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <cuda_runtime_api.h>

#include <cstddef>

namespace upsweep {

enum class tile_status : unsigned { invalid = 0, partial = 1, inclusive = 2 };

namespace detail {

// Status and value share one 64-bit word when the value fits in 32 bits: a single relaxed
// atomic then publishes both, with no fence and no flag bits taken from the value.
template <class T>
inline constexpr bool packs_in_word_v = cuda::std::is_trivially_copyable_v<T> && sizeof(T) <= 4;

inline constexpr std::size_t tile_counter_bytes = 256;

template <class T>
__device__ __forceinline__ T load_from_l2(const T* ptr) {
  // Values of the split layout are read after an acquire of their status; .cg keeps them out of L1.
  constexpr int words = sizeof(T) / sizeof(unsigned);
  if constexpr (sizeof(T) % sizeof(unsigned) == 0 && alignof(T) >= alignof(unsigned)) {
    unsigned raw[words];
    const auto* src = reinterpret_cast<const unsigned*>(ptr);
#pragma unroll
    for (int i = 0; i < words; ++i) raw[i] = __ldcg(src + i);
    T value;
    memcpy(&value, raw, sizeof(T));
    return value;
  } else if constexpr (sizeof(T) == sizeof(unsigned short) && alignof(T) >= alignof(unsigned short)) {
    const unsigned short raw = __ldcg(reinterpret_cast<const unsigned short*>(ptr));
    T value;
    memcpy(&value, &raw, sizeof(T));
    return value;
  } else {
    return *static_cast<const volatile T*>(ptr);
  }
}

}  // namespace detail

template <class T, bool Packed = detail::packs_in_word_v<T>>
class tile_state;

// Shared by both layouts: the tile counter in front of the per-tile records.
class tile_counter {
 public:
  __host__ __device__ explicit tile_counter(void* storage)
      : counter_(static_cast<unsigned long long*>(storage)) {}
  // Next tile in claim order; every tile before it has been claimed by a running block.
  __device__ long long claim() const { return static_cast<long long>(atomicAdd(counter_, 1ull)); }

 private:
  unsigned long long* counter_;
};

template <class T>
class tile_state<T, true> {
  using word_t = unsigned long long;

 public:
  using value_type = T;
  // Relaxed stores carry the values but order nothing else.
  static constexpr bool orders_memory = false;

  static constexpr std::size_t bytes(long long num_tiles) {
    return detail::tile_counter_bytes + static_cast<std::size_t>(num_tiles) * sizeof(word_t);
  }
  // Zeroes the counter and marks every tile invalid: stream-ordered, graph-capturable.
  static cudaError_t initialize(void* storage, long long num_tiles, cudaStream_t stream) {
    return detail::clear_tiles_before_chained(storage, bytes(num_tiles), num_tiles, stream);
  }

  __host__ __device__ explicit tile_state(void* storage)
      : counter_(storage),
        words_(reinterpret_cast<word_t*>(static_cast<char*>(storage) + detail::tile_counter_bytes)) {}

  __device__ long long claim_tile() const { return counter_.claim(); }
  __device__ void publish_partial(long long tile, T value) const { publish(tile, tile_status::partial, value); }
  __device__ void publish_inclusive(long long tile, T value) const { publish(tile, tile_status::inclusive, value); }

  // Called by the look-back warp once it has its prefix; nothing to order here.
  __device__ void after_look_back() const {}

  __device__ tile_status read(long long tile, T& value) const {
    const word_t word = cuda::atomic_ref<word_t, cuda::thread_scope_device>(words_[tile]).load(cuda::std::memory_order_relaxed);
    const unsigned bits = static_cast<unsigned>(word);
    memcpy(&value, &bits, sizeof(T));
    return static_cast<tile_status>(word >> 32);
  }

 private:
  __device__ void publish(long long tile, tile_status status, T value) const {
    unsigned bits = 0;
    memcpy(&bits, &value, sizeof(T));
    const word_t word = (static_cast<word_t>(status) << 32) | bits;
    cuda::atomic_ref<word_t, cuda::thread_scope_device>(words_[tile]).store(word, cuda::std::memory_order_relaxed);
  }

  tile_counter counter_;
  word_t* words_;
};

// Values too wide to share a word with the status: a status array plus separate partial and
// inclusive arrays (a tile's partial never changes once published). Release on the status
// store, acquire on its load, orders the value with it.
template <class T>
class tile_state<T, false> {
 public:
  using value_type = T;
  static constexpr bool orders_memory = true;  // release on publish, acquire on every read

  static constexpr std::size_t bytes(long long num_tiles) {
    return detail::tile_counter_bytes + 2 * values_bytes(num_tiles) + status_bytes(num_tiles);
  }
  static cudaError_t initialize(void* storage, long long num_tiles, cudaStream_t stream) {
    // Only the counter and the statuses need clearing; they sit together at the front.
    return detail::clear_tiles_before_chained(storage, detail::tile_counter_bytes + status_bytes(num_tiles), num_tiles,
                                               stream);
  }

  __host__ __device__ tile_state(void* storage, long long num_tiles)
      : counter_(storage),
        status_(reinterpret_cast<unsigned*>(static_cast<char*>(storage) + detail::tile_counter_bytes)),
        partial_(reinterpret_cast<T*>(reinterpret_cast<char*>(status_) + status_bytes(num_tiles))),
        inclusive_(reinterpret_cast<T*>(reinterpret_cast<char*>(partial_) + values_bytes(num_tiles))) {}

  __device__ long long claim_tile() const { return counter_.claim(); }
  __device__ void publish_partial(long long tile, T value) const {
    partial_[tile] = value;
    status_ref(tile).store(static_cast<unsigned>(tile_status::partial), cuda::std::memory_order_release);
  }
  __device__ void publish_inclusive(long long tile, T value) const {
    inclusive_[tile] = value;
    status_ref(tile).store(static_cast<unsigned>(tile_status::inclusive), cuda::std::memory_order_release);
  }
  __device__ void after_look_back() const {}
  __device__ tile_status read(long long tile, T& value) const {
    const auto status = static_cast<tile_status>(status_ref(tile).load(cuda::std::memory_order_acquire));
    if (status == tile_status::partial) value = detail::load_from_l2(partial_ + tile);
    if (status == tile_status::inclusive) value = detail::load_from_l2(inclusive_ + tile);
    return status;
  }

 private:
  static constexpr std::size_t round16(std::size_t b) { return (b + 15) / 16 * 16; }
  static constexpr std::size_t status_bytes(long long num_tiles) {
    return round16(static_cast<std::size_t>(num_tiles) * sizeof(unsigned));
  }
  static constexpr std::size_t values_bytes(long long num_tiles) {
    return round16(static_cast<std::size_t>(num_tiles) * sizeof(T));
  }
  __device__ cuda::atomic_ref<unsigned, cuda::thread_scope_device> status_ref(long long tile) const {
    return cuda::atomic_ref<unsigned, cuda::thread_scope_device>(status_[tile]);
  }

  tile_counter counter_;
  unsigned* status_;
  T* partial_;
  T* inclusive_;
};

// Counts (compaction's survivors, which outgrow 32 bits past 2^32 items) below 2^62 with their
// status in the top two bits of one 64-bit word: one load per look-back poll, where the split
// layout needs the status and then, dependent on it, the value. Relaxed unless constructed
// `ordered`: then each publish is a release and each poll an acquire, so what a tile did before
// publishing (its loads) happens before what its successors do after looking back (in-place
// compaction overwrites earlier tiles' input). Measured on an H200 (select_if, 10^9 int32):
// the release/acquire pairs and fences cost more than the loads, so only in place pays them.
class count_tile_state {
  using word_t = unsigned long long;

 public:
  using value_type = cuda::std::int64_t;
  static constexpr bool orders_memory = true;  // when constructed ordered
  static constexpr int status_shift = 62;
  static constexpr value_type max_count = (value_type{1} << status_shift) - 1;

  static constexpr std::size_t bytes(long long num_tiles) {
    return detail::tile_counter_bytes + static_cast<std::size_t>(num_tiles) * sizeof(word_t);
  }
  static cudaError_t initialize(void* storage, long long num_tiles, cudaStream_t stream) {
    return detail::clear_tiles_before_chained(storage, bytes(num_tiles), num_tiles, stream);
  }

  __host__ __device__ count_tile_state(void* storage, bool ordered)
      : counter_(storage),
        words_(reinterpret_cast<word_t*>(static_cast<char*>(storage) + detail::tile_counter_bytes)),
        ordered_(ordered) {}

  __host__ __device__ static constexpr word_t encode(tile_status status, value_type count) {
    return (static_cast<word_t>(status) << status_shift) | static_cast<word_t>(count);
  }
  __host__ __device__ static constexpr tile_status status_of(word_t word) {
    return static_cast<tile_status>(word >> status_shift);
  }
  __host__ __device__ static constexpr value_type count_of(word_t word) {
    return static_cast<value_type>(word & static_cast<word_t>(max_count));
  }

  __device__ long long claim_tile() const { return counter_.claim(); }
  __device__ void publish_partial(long long tile, value_type count) const { publish(tile, tile_status::partial, count); }
  __device__ void publish_inclusive(long long tile, value_type count) const {
    publish(tile, tile_status::inclusive, count);
  }
  __device__ void after_look_back() const {}
  __device__ tile_status read(long long tile, value_type& count) const {
    const auto ref = word_ref(tile);
    const word_t word =
        ordered_ ? ref.load(cuda::std::memory_order_acquire) : ref.load(cuda::std::memory_order_relaxed);
    count = count_of(word);
    return status_of(word);
  }

 private:
  __device__ void publish(long long tile, tile_status status, value_type count) const {
    const auto ref = word_ref(tile);
    if (ordered_)
      ref.store(encode(status, count), cuda::std::memory_order_release);
    else
      ref.store(encode(status, count), cuda::std::memory_order_relaxed);
  }
  __device__ cuda::atomic_ref<word_t, cuda::thread_scope_device> word_ref(long long tile) const {
    return cuda::atomic_ref<word_t, cuda::thread_scope_device>(words_[tile]);
  }

  tile_counter counter_;
  word_t* words_;
  bool ordered_;
};

template <class T>
tile_state<T, true> make_tile_state(void* storage, long long, cuda::std::true_type) {
  return tile_state<T, true>(storage);
}
template <class T>
tile_state<T, false> make_tile_state(void* storage, long long num_tiles, cuda::std::false_type) {
  return tile_state<T, false>(storage, num_tiles);
}
// The tile state for T over `storage` (tile_state<T>::bytes(num_tiles) bytes).
template <class T>
tile_state<T> make_tile_state(void* storage, long long num_tiles) {
  return make_tile_state<T>(storage, num_tiles, cuda::std::bool_constant<detail::packs_in_word_v<T>>{});
}

namespace detail {

// Polls until every lane's tile has published something; `status` holds each lane's first read.
// Between polls the warp sleeps DelayNs: hundreds of waiting warps polling the same few status
// lines without a pause slow down the very stores they wait for.
template <int DelayNs, class T, class State>
__device__ __forceinline__ void wait_until_published(const State& state, long long tile, tile_status& status, T& value) {
  while (__any_sync(full_warp_mask, status == tile_status::invalid)) {
    if constexpr (DelayNs > 0) __nanosleep(DelayNs);
    if (status == tile_status::invalid) status = state.read(tile, value);
  }
}

// First read of a lane's predecessor. Lanes before tile 0 read as inclusive: tile 0 always
// publishes inclusive, so they never get combined.
template <class T, class State>
__device__ __forceinline__ tile_status read_predecessor(const State& state, long long tile, T& value) {
  return tile >= 0 ? state.read(tile, value) : tile_status::inclusive;
}

template <int DelayNs, class T, class State>
__device__ __forceinline__ tile_status wait_for_predecessor(const State& state, long long tile, T& value) {
  tile_status status = read_predecessor(state, tile, value);
  wait_until_published<DelayNs>(state, tile, status, value);
  return status;
}

}  // namespace detail

inline constexpr int default_look_back_delay_ns = 350;

namespace detail {

// Grids below this many blocks never settle: few tiles are in flight, so the nearest
// predecessors finish quickly and a pause would only add latency to small inputs.
inline constexpr unsigned settle_min_grid = 500;

// Pause between publishing a tile's partial and its first look-back read. With hundreds of tiles
// in flight, a look-back that starts at once finds its nearest predecessors still partial and walks
// back over every tile in flight, one 32-tile window per L2 round trip; a pause about as long as
// those predecessors need to publish their inclusive values ends most look-backs in the first
// window. CUB pauses likewise (its "L2 write latency" delay).
template <int SettleNs>
__device__ __forceinline__ void settle_before_look_back() {
  if constexpr (SettleNs > 0) {
    if (gridDim.x >= settle_min_grid) __nanosleep(SettleNs);
  }
}

}  // namespace detail

// Called by every lane of one warp: the combination, in order, of all tiles before `tile_idx`
// (tile_idx > 0). Sums each 32-tile window back to its nearest inclusive tile.
template <class T, int DelayNs = default_look_back_delay_ns, class State, class Op>
__device__ T look_back(const State& state, long long tile_idx, Op op) {
  const int lane = static_cast<int>(detail::lane_id());
  maybe<T> running = {T{}, false};
  for (long long window_last = tile_idx - 1;; window_last -= detail::warp_threads) {
    const long long tile = window_last - (detail::warp_threads - 1 - lane);
    T value;
    const tile_status status = detail::wait_for_predecessor<DelayNs>(state, tile, value);
    const unsigned inclusive_lanes = __ballot_sync(detail::full_warp_mask, status == tile_status::inclusive);
    const int nearest_inclusive = inclusive_lanes ? detail::warp_threads - 1 - __clz(inclusive_lanes) : 0;
    const maybe<T> window = warp_reduce(maybe<T>{value, lane >= nearest_inclusive}, op);
    running = detail::combine(window, running, op);
    if (inclusive_lanes) return running.value;
  }
}

// look_back with two changes that shorten each 32-tile step: the window is reduced by one value
// shuffle tree (warp_reduce_suffix) instead of a flagged one, and the next window's statuses are
// read before this window is reduced, so their latency overlaps the reduction. Same contract.
template <class T, int DelayNs = default_look_back_delay_ns, class State, class Op>
__device__ T look_back_pipelined(const State& state, long long tile_idx, Op op) {
  const int lane = static_cast<int>(detail::lane_id());
  long long tile = tile_idx - detail::warp_threads + lane;  // lane 31 holds tile_idx - 1
  T value;
  tile_status status = detail::wait_for_predecessor<DelayNs>(state, tile, value);
  maybe<T> running = {T{}, false};
  for (;;) {
    const unsigned inclusive_lanes = __ballot_sync(detail::full_warp_mask, status == tile_status::inclusive);
    const long long next_tile = tile - detail::warp_threads;
    T next_value;
    tile_status next_status = tile_status::inclusive;
    if (!inclusive_lanes) next_status = detail::read_predecessor(state, next_tile, next_value);
    const int nearest_inclusive = inclusive_lanes ? detail::warp_threads - 1 - __clz(inclusive_lanes) : 0;
    running = detail::combine(maybe<T>{warp_reduce_suffix(value, nearest_inclusive, op), true}, running, op);
    if (inclusive_lanes) return running.value;
    tile = next_tile;
    value = next_value;
    status = next_status;
    detail::wait_until_published<DelayNs>(state, tile, status, value);
  }
}

// Publishes a tile's aggregate: a partial one, or for tile 0 its inclusive value at once (with
// `seed`, an exclusive scan's init, in front). Called by one thread.
template <class T, class State, class Op>
__device__ __forceinline__ void publish_aggregate(const State& state, long long tile_idx, const T& aggregate,
                                                  const maybe<T>& seed, Op op) {
  if (tile_idx == 0)
    state.publish_inclusive(0, detail::apply_prefix(seed, aggregate, op));
  else
    state.publish_partial(tile_idx, aggregate);
}

namespace detail {

// What precedes a tile whose aggregate is published: looks back, then publishes the tile's
// inclusive value. Called by every lane of one warp.
template <class T, int DelayNs, bool Pipelined, class State, class Op>
__device__ __forceinline__ maybe<T> prefix_after_publishing(const State& state, long long tile_idx,
                                                            const T& aggregate, const maybe<T>& seed, Op op) {
  if (tile_idx == 0) return seed;
  if constexpr (in_one_cluster_v<State>) {
    return {state.look_back(tile_idx, op), true};
  } else {
    const T prefix = Pipelined ? look_back_pipelined<T, DelayNs>(state, tile_idx, op)
                               : look_back<T, DelayNs>(state, tile_idx, op);
    state.after_look_back();
    if (lane_id() == 0) state.publish_inclusive(tile_idx, op(prefix, aggregate));
    return {prefix, true};
  }
}

}  // namespace detail

// block_scan prefix callback for a device-wide scan: publishes this tile's aggregate, looks back,
// publishes the inclusive value. `seed` (an exclusive scan's init) goes in front of tile 0.
template <class T, class State, class Op, int DelayNs = default_look_back_delay_ns, bool Pipelined = false,
          int SettleNs = 0>
struct look_back_prefix {
  State state;
  long long tile_idx;
  Op op;
  maybe<T> seed;

  __device__ maybe<T> operator()(const T& block_total) {
    if constexpr (detail::in_one_cluster_v<State>)
      state.push_aggregate(tile_idx, tile_idx == 0 ? detail::apply_prefix(seed, block_total, op) : block_total);
    else if (detail::lane_id() == 0)
      publish_aggregate(state, tile_idx, block_total, seed, op);
    if (tile_idx != 0) detail::settle_before_look_back<SettleNs>();
    return detail::prefix_after_publishing<T, DelayNs, Pipelined>(state, tile_idx, block_total, seed, op);
  }
};

// block_scan prefix callback for a tile whose aggregate was published earlier (the reduce-ahead
// scan): looks back and publishes the inclusive value.
template <class T, class State, class Op, int DelayNs = default_look_back_delay_ns>
struct published_look_back_prefix {
  State state;
  long long tile_idx;
  Op op;
  maybe<T> seed;

  __device__ maybe<T> operator()(const T& block_total) {
    return detail::prefix_after_publishing<T, DelayNs, false>(state, tile_idx, block_total, seed, op);
  }
};

}  // namespace upsweep
