// The by-key kernel: one tile routine serves reduce_by_key, the scans by key and unique_by_key. A
// tile loads its keys and values and flags the run heads (eq false against the key before, as
// unique does). reduce and the scans then scan pairs (run heads so far, reduction since the last
// head) across the grid: the core's block scan with decoupled look-back under an operator that
// restarts the reduction at a head, so runs may span any number of tiles and reduce_op sees a
// run's values in input order. unique_by_key needs only the heads' count: select's count scan.
#pragma once

#include <upsweep/compact/detail/select_kernels.cuh>
#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/block_scan.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/util/maybe.cuh>

#include <cuda/std/iterator>
#include <cuda/std/type_traits>

#include <cstddef>

namespace upsweep::detail {

enum class by_key_output {
  inclusive_scan,  // values_out[i]: op over i's run from its head to i
  exclusive_scan,  // values_out[i]: init at a head, else init op (the run from its head to i - 1)
  reduce,          // per run: its first key, op over all its values
  unique,          // per run: its first key and first value
};

// A stretch of items: the run heads in it, and the reduction of its items from its last head
// (of all of them when it holds none). Padded explicitly to whole 8-byte words, the padding
// zeroed by every initialisation: the tile state copies values as words, and compute-sanitizer's
// initcheck reports padding a struct copy never wrote.
template <class Acc, std::size_t Pad = (8 - sizeof(Acc) % 8) % 8>
struct run_sum {
  long long heads;
  Acc value;
  unsigned char padding[Pad];
};
template <class Acc>
struct run_sum<Acc, 0> {
  long long heads;
  Acc value;
};

// The same within a tile, whose heads fit an int: half the bytes through the block scan's
// shuffles and registers when Acc has 4.
template <class Acc>
struct tile_run_sum {
  int heads;
  Acc value;
};

// The segmented operator on either: associative when op is, and never reorders op's operands.
template <class Op>
struct segmented_op {
  Op op;
  template <class Sum>
  __device__ __forceinline__ Sum operator()(const Sum& a, const Sum& b) {
    using acc_t = decltype(b.value);
    return {a.heads + b.heads, b.heads != 0 ? b.value : static_cast<acc_t>(op(a.value, b.value))};
  }
};

template <class It>
using it_value_t = typename cuda::std::iterator_traits<It>::value_type;

// Shared storage. Keys and values load through separate buffers (warps load both before any
// barrier, and their slices of differently sized buffers overlap); the scans' output reuses the
// values' buffer once the scan's barriers have passed.
template <class Policy, class Key, class Value, class Acc, class Out, by_key_output Output>
struct by_key_storage {
  static constexpr int threads = Policy::block_threads, ipt = Policy::items_per_thread;
  tile_exchange_storage<Key, threads, ipt> keys;  // then the staged run keys
  union {
    tile_exchange_storage<Value, threads, ipt> values;  // then unique's staged values
    tile_exchange_storage<Out, threads, ipt> out;
    Acc aggregates[threads * ipt + 1];  // reduce's staged aggregates
  } io;
  cuda::std::conditional_t<Output == by_key_output::unique, typename block_scan<int, threads>::storage,
                           typename block_scan<tile_run_sum<Acc>, threads>::storage>
      scan;
  long long tile_idx;
  count_t kept_first;             // unique: run heads before the tile
  maybe<run_sum<Acc>> tile_prefix;  // reduce and the scans: the pair before the tile (none in tile 0)
};

// block_scan prefix callback that keeps the tile's scan in 32-bit heads: widens the tile's total,
// publishes it and looks back over the tile state, and leaves the pair before the tile in shared
// memory (read after the block scan's barrier); the tile-local scan gets no prefix.
template <class Policy, class Acc, class State, class Op>
struct run_prefix_look_back {
  const State& state;
  long long tile_idx;
  segmented_op<Op> seg;
  maybe<run_sum<Acc>>& tile_prefix;

  __device__ maybe<tile_run_sum<Acc>> operator()(const tile_run_sum<Acc>& tile_total) {
    look_back_prefix<run_sum<Acc>, State, segmented_op<Op>, Policy::look_back_delay_ns, false,
                     Policy::look_back_settle_ns>
        prefix{state, tile_idx, seg, maybe<run_sum<Acc>>{run_sum<Acc>{}, false}};
    const maybe<run_sum<Acc>> before = prefix(run_sum<Acc>{tile_total.heads, tile_total.value});
    if (lane_id() == 0) tile_prefix = before;
    return {tile_total, false};
  }
};

// Item i's reduction since the last head before it, across tiles, from its tile-local exclusive
// pair: the tile's first item has none in the tile (the block scan left its own item there).
template <class Acc, class Op>
__device__ __forceinline__ Acc value_before(bool first_of_tile, const tile_run_sum<Acc>& local,
                                            const maybe<run_sum<Acc>>& tile_prefix, Op& op) {
  if (first_of_tile) return tile_prefix.value.value;  // unused in tile 0, whose first item is a head
  if (local.heads != 0 || !tile_prefix.valid) return local.value;
  return static_cast<Acc>(op(tile_prefix.value.value, local.value));
}

// The scans' result for item i from the reduction since its run's head (`before`, unused at a
// head).
template <by_key_output Output, class Acc, class Op>
__device__ __forceinline__ Acc scanned_value(bool head, const Acc& before, const Acc& value, const maybe<Acc>& init,
                                             Op& op) {
  if constexpr (Output == by_key_output::inclusive_scan)
    return head ? value : static_cast<Acc>(op(before, value));
  else return head ? init.value : static_cast<Acc>(op(init.value, before));
}

// reduce: a head stages its key at its run's slot in the tile, and the aggregate of the run it
// closes at the same slot of the aggregates (slot 0: a run begun before the tile); the input's
// last item stages the last run's, one slot past the tile's heads. Both then go out as
// contiguous ranges: written from registers, each head was a scattered store.
template <class Policy, class Key, class Value, class Acc, class KeyOutIt, class ValueOutIt, class Op, class Storage>
__device__ __forceinline__ void write_reduced_runs(long long tile_idx, long long num_items, int tile_heads,
                                                   const Key (&keys)[Policy::items_per_thread],
                                                   const Value (&values)[Policy::items_per_thread],
                                                   const bool (&head)[Policy::items_per_thread],
                                                   const int (&heads_before)[Policy::items_per_thread],
                                                   const Acc (&before)[Policy::items_per_thread],
                                                   KeyOutIt d_keys_out, ValueOutIt d_values_out, count_t* d_num_runs,
                                                   Op& op, Storage& s) {
  constexpr int ipt = Policy::items_per_thread;
  const long long tile_first = tile_idx * Policy::tile_items;
  const long long base = s.tile_prefix.valid ? s.tile_prefix.value.heads : 0;  // runs begun before the tile
  const bool last_tile = num_items - tile_first <= Policy::tile_items;
#pragma unroll
  for (int i = 0; i < ipt; ++i) {
    const long long index = tile_first + item_in_tile<ipt>(i);
    if (index >= num_items) break;
    const int slot = heads_before[i];
    if (head[i]) {
      s.keys.items[slot] = keys[i];
      s.io.aggregates[slot] = before[i];  // slot 0 of the input's first tile: never written out
    }
    if (index == num_items - 1) {
      const Acc value = static_cast<Acc>(values[i]);
      s.io.aggregates[tile_heads] = head[i] ? value : static_cast<Acc>(op(before[i], value));
      *d_num_runs = base + tile_heads;
    }
  }
  __syncthreads();
  for (int j = static_cast<int>(threadIdx.x); j < tile_heads; j += Policy::block_threads)
    d_keys_out[base + j] = s.keys.items[j];
  const int first_slot = tile_idx == 0 ? 1 : 0, end_slot = tile_heads + (last_tile ? 1 : 0);
  for (int j = first_slot + static_cast<int>(threadIdx.x); j < end_slot; j += Policy::block_threads)
    d_values_out[base - 1 + j] = s.io.aggregates[j];
}

// reduce and the scans on a tile whose keys, values and heads are in registers: the tile scans
// (heads, value) pairs with 32-bit heads, then applies the pair before the tile.
template <class Policy, by_key_output Output, class Out, class Key, class Value, class KeyOutIt, class ValueOutIt,
          class Acc, class Op, class State, class Storage>
__device__ __forceinline__ void scan_runs_of_tile(long long tile_idx, long long num_items,
                                                  const Key (&keys)[Policy::items_per_thread],
                                                  const Value (&values)[Policy::items_per_thread],
                                                  const bool (&head)[Policy::items_per_thread], KeyOutIt d_keys_out,
                                                  ValueOutIt d_values_out, count_t* d_num_runs, Op& op,
                                                  const maybe<Acc>& init, const State& state, Storage& s) {
  constexpr int ipt = Policy::items_per_thread;
  const long long tile_first = tile_idx * Policy::tile_items;
  tile_run_sum<Acc> local[ipt];
#pragma unroll
  for (int i = 0; i < ipt; ++i) local[i] = {head[i] ? 1 : 0, static_cast<Acc>(values[i])};
  segmented_op<Op> seg{op};
  run_prefix_look_back<Policy, Acc, State, Op> prefix{state, tile_idx, seg, s.tile_prefix};
  const tile_run_sum<Acc> tile_total =
      block_scan<tile_run_sum<Acc>, Policy::block_threads>(s.scan).exclusive_scan(local, seg, prefix);
  const maybe<run_sum<Acc>> tile_prefix = s.tile_prefix;
  Acc before[ipt];
  int heads_before[ipt];
#pragma unroll
  for (int i = 0; i < ipt; ++i) {
    const bool first_of_tile = threadIdx.x == 0 && i == 0;
    before[i] = value_before(first_of_tile, local[i], tile_prefix, op);
    heads_before[i] = first_of_tile ? 0 : local[i].heads;
  }
  if constexpr (Output == by_key_output::reduce) {
    write_reduced_runs<Policy>(tile_idx, num_items, tile_total.heads, keys, values, head, heads_before, before,
                               d_keys_out, d_values_out, d_num_runs, op, s);
  } else {
    Out out[ipt];
#pragma unroll
    for (int i = 0; i < ipt; ++i)
      out[i] = static_cast<Out>(scanned_value<Output>(head[i], before[i], static_cast<Acc>(values[i]), init, op));
    store_tile<Policy::io, Policy::block_threads>(d_values_out + tile_first, num_items - tile_first, out, s.io.out);
  }
}

// unique_by_key: the heads before each thread's first (select's count scan and look-back), then
// each head's key and value staged at its run's slot in the tile and written as contiguous
// ranges.
template <class Policy, class Key, class Value, class KeyOutIt, class ValueOutIt, class State, class Storage>
__device__ __forceinline__ void write_first_of_runs(long long tile_idx, long long num_tiles,
                                                    const Key (&keys)[Policy::items_per_thread],
                                                    const Value (&values)[Policy::items_per_thread],
                                                    const bool (&head)[Policy::items_per_thread],
                                                    KeyOutIt d_keys_out, ValueOutIt d_values_out,
                                                    count_t* d_num_runs, const State& state, Storage& s) {
  int thread_first = 0;
  const int heads = count_survivors_before<Policy>(tile_idx, head, thread_first, state, s.kept_first, s.scan);
  const long long base = s.kept_first;
  if (tile_idx == num_tiles - 1 && threadIdx.x == 0) *d_num_runs = base + heads;
  int slot = thread_first;
#pragma unroll
  for (int i = 0; i < Policy::items_per_thread; ++i) {
    if (!head[i]) continue;
    s.keys.items[slot] = keys[i];
    s.io.values.items[slot] = values[i];
    ++slot;
  }
  __syncthreads();
  for (int j = static_cast<int>(threadIdx.x); j < heads; j += Policy::block_threads) {
    d_keys_out[base + j] = s.keys.items[j];
    d_values_out[base + j] = s.io.values.items[j];
  }
}

// Outputs never overlap the keys (a tile's first head reads the key before it, which an earlier
// tile could have replaced); the scans may write their values in place, as each tile writes only
// its own items after loading them.
template <class Policy, by_key_output Output, class KeyIt, class ValueIt, class KeyOutIt, class ValueOutIt, class Acc,
          class Eq, class Op, class State>
__global__ void __launch_bounds__(Policy::block_threads, Policy::min_blocks_per_sm)
    by_key_kernel(KeyIt d_keys, ValueIt d_values, KeyOutIt d_keys_out, ValueOutIt d_values_out, count_t* d_num_runs,
                  long long num_items, long long num_tiles, Eq eq, Op op, maybe<Acc> init, State state) {
  using key_t = it_value_t<KeyIt>;
  using value_t = it_value_t<ValueIt>;
  using out_t = cuda::std::conditional_t<Output == by_key_output::unique || Output == by_key_output::reduce, value_t, Acc>;
  constexpr int ipt = Policy::items_per_thread;
  __shared__ by_key_storage<Policy, key_t, value_t, Acc, out_t, Output> s;
  for_each_claimed_tile(state, s.tile_idx, num_tiles, [&](long long tile_idx) {
    const long long tile_first = tile_idx * Policy::tile_items;
    key_t keys[ipt];
    value_t values[ipt];
    bool head[ipt];
    load_tile<Policy::io, Policy::block_threads>(d_keys + tile_first, num_items - tile_first, keys, s.keys);
    load_tile<Policy::io, Policy::block_threads>(d_values + tile_first, num_items - tile_first, values, s.io.values);
    mark_run_heads(d_keys, tile_first, items_in_tile<Policy>(num_items - tile_first), keys, head, eq);
    if constexpr (Output == by_key_output::unique) {
      write_first_of_runs<Policy>(tile_idx, num_tiles, keys, values, head, d_keys_out, d_values_out, d_num_runs, state,
                                  s);
    } else {
      scan_runs_of_tile<Policy, Output, out_t>(tile_idx, num_items, keys, values, head, d_keys_out, d_values_out,
                                               d_num_runs, op, init, state, s);
    }
  });
}

}  // namespace upsweep::detail
