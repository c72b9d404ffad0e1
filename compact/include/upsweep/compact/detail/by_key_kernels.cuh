// The by-key kernel: one tile routine serves reduce_by_key, the scans by key and unique_by_key. A
// tile loads its keys and values and flags the run heads (eq false against the key before, as
// unique does). reduce and the scans then scan pairs (run heads so far, reduction since the last
// head), one a thread through the core's block scan and across tiles by decoupled look-back,
// under an operator that restarts the reduction at a head, so runs may span any number of tiles
// and reduce_op sees a run's values in input order. unique_by_key needs only the heads' count, and
// reads no value but the heads' (reads_values_at_heads).
// Warp 0 looks back while the other warps stage or store the tile.
#pragma once

#include <upsweep/util/chained_launch.cuh>
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

// What the values' output holds: the values (reduce, unique) or the scans' accumulators.
template <by_key_output Output, class Value, class Acc>
using by_key_out_t =
    cuda::std::conditional_t<Output == by_key_output::unique || Output == by_key_output::reduce, Value, Acc>;

// A tile's buffers. Keys and values load through separate buffers (warps load both before any
// barrier, and their slices of differently sized buffers overlap); the scans' output reuses the
// values' buffer once the values are in registers, reduce and unique stage their runs in both.
template <class Policy, class Key, class Value, class Acc, class Out>
struct by_key_stage {
  static constexpr int threads = Policy::block_threads, ipt = Policy::items_per_thread;
  tile_exchange_storage<Key, threads, ipt> keys;  // then the staged run keys
  union {
    tile_exchange_storage<Value, threads, ipt> values;  // then unique's staged values
    tile_exchange_storage<Out, threads, ipt> out;
    Acc aggregates[threads * ipt + 1];  // reduce's staged aggregates
  } io;
};

template <by_key_output Output, class Acc, int Threads>
using by_key_scan_storage =
    typename cuda::std::conditional_t<Output == by_key_output::unique, block_scan<int, Threads>,
                                      block_scan<tile_run_sum<Acc>, Threads>>::storage;

// Shared storage of the block per tile.
template <class Policy, class Key, class Value, class Acc, class Out, by_key_output Output>
struct by_key_storage {
  by_key_stage<Policy, Key, Value, Acc, Out> tile;
  by_key_scan_storage<Output, Acc, Policy::block_threads> scan;
  long long tile_idx;
  count_t kept_first;             // unique: run heads before the tile
  maybe<run_sum<Acc>> tile_prefix;  // reduce and the scans: the pair before the tile (none in tile 0)
};

// Warp 0, while the other warps go on with the tile: publishes the tile's total (heads widened to
// 64 bits) unless Published (reduce-ahead did), looks back, and leaves the pair before the tile
// in shared memory (none in tile 0), read after the block's next barrier.
template <class Policy, bool Published, class Acc, class State, class Op>
__device__ __forceinline__ void look_back_runs(long long tile_idx, const tile_run_sum<Acc>& tile_total,
                                               const State& state, Op& op, maybe<run_sum<Acc>>& tile_prefix) {
  if (warp_id() != 0) return;
  const run_sum<Acc> total{tile_total.heads, tile_total.value};
  const maybe<run_sum<Acc>> none{run_sum<Acc>{}, false};
  maybe<run_sum<Acc>> before;
  if constexpr (Published) {
    before = prefix_after_publishing<run_sum<Acc>, Policy::look_back_delay_ns, false>(state, tile_idx, total, none,
                                                                                      segmented_op<Op>{op});
  } else {
    look_back_prefix<run_sum<Acc>, State, segmented_op<Op>, Policy::look_back_delay_ns, false,
                     Policy::look_back_settle_ns>
        prefix{state, tile_idx, segmented_op<Op>{op}, none};
    before = prefix(total);
  }
  if (lane_id() == 0) tile_prefix = before;
}

// A thread's part of the tile's scan: its run heads, and op over its values since the last of
// them (over all of them when it holds none), in input order.
template <class Acc, int IPT, class Value, class Op>
__device__ __forceinline__ tile_run_sum<Acc> thread_run_sum(const Value (&values)[IPT], const bool (&head)[IPT],
                                                            Op& op) {
  tile_run_sum<Acc> sum = {head[0] ? 1 : 0, static_cast<Acc>(values[0])};
#pragma unroll
  for (int i = 1; i < IPT; ++i) {
    const Acc value = static_cast<Acc>(values[i]);
    sum.heads += head[i] ? 1 : 0;
    sum.value = head[i] ? value : static_cast<Acc>(op(sum.value, value));
  }
  return sum;
}

// What precedes a thread's first item within the tile: the heads before it, and op over the
// values since the last of them (thread 0: no heads, and a value not to be used). Also yields the
// tile's total. Barrier before reusing the scan's storage.
template <class Policy, class Acc, class Op, class Storage>
__device__ __forceinline__ tile_run_sum<Acc> runs_before_thread(const tile_run_sum<Acc>& mine, Op& op, Storage& s,
                                                                tile_run_sum<Acc>& tile_total) {
  tile_run_sum<Acc> before[1] = {mine};
  tile_total =
      block_scan<tile_run_sum<Acc>, Policy::block_threads>(s.scan).exclusive_scan(before, segmented_op<Op>{op},
                                                                                  no_prefix{});
  if (threadIdx.x == 0) before[0].heads = 0;
  return before[0];
}

// The next value of a run walked item by item: `restart` (a head, or a first item with no run
// known before it) starts it afresh.
template <class Acc, class Op>
__device__ __forceinline__ Acc extend_run(bool restart, const Acc& run, const Acc& value, Op& op) {
  return restart ? value : static_cast<Acc>(op(run, value));
}

// reduce: a head stages its key at its run's slot in the tile, and the aggregate of the run it
// closes at the same slot of the aggregates; the input's last item stages the last run's, one
// slot past the tile's heads. Slot 0 holds only the tile's part of a run begun before the tile
// (nothing when the tile starts with a head): write_reduced_runs puts the look-back's value in
// front. Full: the tile holds tile_items items.
template <bool Full, class Policy, class Key, class Value, class Acc, class Op>
__device__ __forceinline__ void stage_reduced_runs(const Key (&keys)[Policy::items_per_thread],
                                                   const Value (&values)[Policy::items_per_thread],
                                                   const bool (&head)[Policy::items_per_thread],
                                                   const tile_run_sum<Acc>& before, int in_tile, bool last_tile,
                                                   int tile_heads, Op& op, Key* staged_keys, Acc* staged_aggregates) {
  int slot = before.heads;
  Acc run = before.value;
#pragma unroll
  for (int i = 0; i < Policy::items_per_thread; ++i) {
    if (head[i]) {
      staged_keys[slot] = keys[i];
      staged_aggregates[slot] = run;
      ++slot;
    }
    // Thread 0's run before its first item lies in earlier tiles: looked up meanwhile.
    run = extend_run(head[i] || (i == 0 && threadIdx.x == 0), run, static_cast<Acc>(values[i]), op);
    if (!Full && item_in_tile<Policy::items_per_thread>(i) == in_tile - 1) staged_aggregates[tile_heads] = run;
  }
  if (Full && last_tile && threadIdx.x == Policy::block_threads - 1) staged_aggregates[tile_heads] = run;
}

// reduce: the staged keys and aggregates go out as contiguous ranges (written from registers,
// each head was a scattered store), slot 0's behind the value of the run before the tile.
template <class Policy, class Key, class Acc, class KeyOutIt, class ValueOutIt, class Op>
__device__ __forceinline__ void write_reduced_runs(long long tile_idx, bool last_tile, int tile_heads,
                                                   const maybe<run_sum<Acc>>& prefix, bool starts_with_head,
                                                   const Key* staged_keys, const Acc* staged_aggregates,
                                                   KeyOutIt d_keys_out, ValueOutIt d_values_out,
                                                   count_t* d_num_runs, Op& op) {
  const long long base = prefix.valid ? prefix.value.heads : 0;  // runs begun before the tile
  if (last_tile && threadIdx.x == 0) *d_num_runs = base + tile_heads;
  for (int j = static_cast<int>(threadIdx.x); j < tile_heads; j += Policy::block_threads)
    d_keys_out[base + j] = staged_keys[j];
  const int first_slot = tile_idx == 0 ? 1 : 0, end_slot = tile_heads + (last_tile ? 1 : 0);
  for (int j = first_slot + static_cast<int>(threadIdx.x); j < end_slot; j += Policy::block_threads) {
    Acc aggregate = staged_aggregates[j];
    if (j == 0)  // thread 0 of a later tile, whose head[0] is starts_with_head
      aggregate = starts_with_head ? prefix.value.value : static_cast<Acc>(op(prefix.value.value, aggregate));
    d_values_out[base - 1 + j] = aggregate;
  }
}

// The scans' results for a thread's items, from op over the values since the last head before
// its first (`run`; none when `no_run`: the input's first item, a head).
template <by_key_output Output, class Acc, int IPT, class Value, class Out, class Op>
__device__ __forceinline__ void scan_thread_runs(const Value (&values)[IPT], const bool (&head)[IPT], Acc run,
                                                 bool no_run, const maybe<Acc>& init, Op& op, Out (&out)[IPT]) {
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    if constexpr (Output == by_key_output::exclusive_scan)
      out[i] = static_cast<Out>(head[i] ? init.value : static_cast<Acc>(op(init.value, run)));
    run = extend_run(head[i] || (i == 0 && no_run), run, static_cast<Acc>(values[i]), op);
    if constexpr (Output == by_key_output::inclusive_scan) out[i] = static_cast<Out>(run);
  }
}

// The scans: a thread's results from the run before its first item, stored by its warp.
template <class Policy, by_key_output Output, tile_io Io = Policy::io, class Acc, class Value, class OutIt, class Op,
          class Out>
__device__ __forceinline__ void store_scanned_runs(
    const Value (&values)[Policy::items_per_thread], const bool (&head)[Policy::items_per_thread], const Acc& run,
    bool no_run, const maybe<Acc>& init, Op& op, OutIt d_tile_out, long long valid,
    tile_exchange_storage<Out, Policy::block_threads, Policy::items_per_thread>& exchange) {
  Out out[Policy::items_per_thread];
  scan_thread_runs<Output>(values, head, run, no_run, init, op, out);
  store_tile<Io, Policy::block_threads>(d_tile_out, valid, out, exchange);
}

// The run before a thread's first item once the look-back is known: a thread with no head
// before it in the tile continues the run before the tile. Thread 0 of tile 0 has none.
template <class Acc, class Op>
__device__ __forceinline__ Acc join_run(const tile_run_sum<Acc>& before, const maybe<run_sum<Acc>>& prefix, Op& op) {
  if (before.heads != 0 || !prefix.valid) return before.value;
  return threadIdx.x == 0 ? prefix.value.value : static_cast<Acc>(op(prefix.value.value, before.value));
}

// reduce and the scans once the tile's pairs are scanned (`before` a thread, the tile's total):
// warp 0 looks back while the threads walk their items again, staging runs (reduce) or storing
// results (the scans); after a barrier only what continues a run from earlier tiles waits on the
// look-back (reduce: slot 0; the scans: the warps before the tile's first head, which store then).
template <bool Full, class Policy, by_key_output Output, class Key, class Value, class KeyOutIt, class ValueOutIt,
          class Acc, class Op, class State, class Stage>
__device__ __forceinline__ void finish_runs_of_tile(long long tile_idx, long long num_items,
                                                    const Key (&keys)[Policy::items_per_thread],
                                                    const Value (&values)[Policy::items_per_thread],
                                                    const bool (&head)[Policy::items_per_thread],
                                                    const tile_run_sum<Acc>& before,
                                                    const tile_run_sum<Acc>& tile_total, KeyOutIt d_keys_out,
                                                    ValueOutIt d_values_out, count_t* d_num_runs, Op& op,
                                                    const maybe<Acc>& init, const State& state, Stage& stage,
                                                    maybe<run_sum<Acc>>& tile_prefix) {
  const long long tile_first = tile_idx * Policy::tile_items;
  look_back_runs<Policy, false>(tile_idx, tile_total, state, op, tile_prefix);
  if constexpr (Output == by_key_output::reduce) {
    const bool last_tile = num_items - tile_first <= Policy::tile_items;
    stage_reduced_runs<Full, Policy>(keys, values, head, before, items_in_tile<Policy>(num_items - tile_first),
                                     last_tile, tile_total.heads, op, stage.keys.items, stage.io.aggregates);
    __syncthreads();
    write_reduced_runs<Policy>(tile_idx, last_tile, tile_total.heads, tile_prefix, head[0], stage.keys.items,
                               stage.io.aggregates, d_keys_out, d_values_out, d_num_runs, op);
  } else {
    // A warp with a thread that has no head before it in the tile (warp 0 always) stores after the
    // look-back; the others store at once. Store buffers are warp-private.
    const bool warp_joins = __any_sync(0xffffffffu, before.heads == 0);
    if (!warp_joins)
      store_scanned_runs<Policy, Output>(values, head, before.value, false, init, op, d_values_out + tile_first,
                                         num_items - tile_first, stage.io.out);
    __syncthreads();
    if (warp_joins)
      store_scanned_runs<Policy, Output>(values, head, join_run(before, tile_prefix, op),
                                         threadIdx.x == 0 && !tile_prefix.valid, init, op, d_values_out + tile_first,
                                         num_items - tile_first, stage.io.out);
  }
}

// reduce and the scans on a tile whose keys, values and heads are in registers: each thread
// reduces its items and the tile scans one (heads, value) pair a thread, with 32-bit heads.
template <bool Full, class Policy, by_key_output Output, class Key, class Value, class KeyOutIt, class ValueOutIt,
          class Acc, class Op, class State, class Storage>
__device__ __forceinline__ void scan_runs_of_tile(long long tile_idx, long long num_items,
                                                  const Key (&keys)[Policy::items_per_thread],
                                                  const Value (&values)[Policy::items_per_thread],
                                                  const bool (&head)[Policy::items_per_thread], KeyOutIt d_keys_out,
                                                  ValueOutIt d_values_out, count_t* d_num_runs, Op& op,
                                                  const maybe<Acc>& init, const State& state, Storage& s) {
  tile_run_sum<Acc> tile_total;
  const tile_run_sum<Acc> before = runs_before_thread<Policy>(thread_run_sum<Acc>(values, head, op), op, s, tile_total);
  finish_runs_of_tile<Full, Policy, Output>(tile_idx, num_items, keys, values, head, before, tile_total, d_keys_out,
                                            d_values_out, d_num_runs, op, init, state, s.tile, s.tile_prefix);
}

// Whether unique_by_key reads its heads' values alone, each with its own load, rather than every
// value as vectors beside the keys: for values wider than 4 bytes, and for 4-byte ones on tiles of
// up to 4096 items (the default's below 2^25 items). A/B harness against CUB 3.0 (H100,
// 2026-12-06, one call, runs of 1.5 / 16 / 1000): int32 on 384 x 14 tiles at 10^8 read at heads
// 0.96x / 0.99x / 1.26x against 1.05x / 1.01x / 1.06x with every value; int64 at 10^8 0.94x /
// 1.06x / 1.10x against 0.90x / 0.85x / 0.86x; int32 at 10^7 on 256 x 12 0.94x / 1.06x / 1.21x
// against 0.92x / 0.97x / 0.97x.
template <class Policy, class Value>
inline constexpr bool reads_values_at_heads = sizeof(Value) > 4 || Policy::tile_items <= 4096;

// unique_by_key: the values of a thread's heads, loaded once the heads are flagged (their loads in
// flight through the tile's count scan); no other value is read.
template <int IPT, class ValueIt>
__device__ __forceinline__ void load_values_at_heads(ValueIt d_tile_values, const bool (&head)[IPT],
                                                     it_value_t<ValueIt> (&values)[IPT]) {
#pragma unroll
  for (int i = 0; i < IPT; ++i)
    if (head[i]) values[i] = d_tile_values[item_in_tile<IPT>(i)];
}

// unique_by_key: each head's key and value staged at its run's slot in the tile (a count scan of
// the tile) while warp 0 looks back for the heads before the tile, then written as contiguous
// ranges.
template <class Policy, class Key, class Value, class KeyOutIt, class ValueOutIt, class State, class Storage>
__device__ __forceinline__ void write_first_of_runs(long long tile_idx, long long num_tiles,
                                                    const Key (&keys)[Policy::items_per_thread],
                                                    const Value (&values)[Policy::items_per_thread],
                                                    const bool (&head)[Policy::items_per_thread],
                                                    KeyOutIt d_keys_out, ValueOutIt d_values_out,
                                                    count_t* d_num_runs, const State& state, Storage& s) {
  int before[1] = {count_kept(head)};
  const int heads = block_scan<int, Policy::block_threads>(s.scan).exclusive_scan(before, cuda::std::plus<int>{},
                                                                                  no_prefix{});
  if (warp_id() == 0)
    tile_base_look_back<State, Policy::look_back_delay_ns, Policy::look_back_settle_ns>{state, tile_idx,
                                                                                        s.kept_first}(heads);
  int slot = threadIdx.x == 0 ? 0 : before[0];
#pragma unroll
  for (int i = 0; i < Policy::items_per_thread; ++i) {
    if (!head[i]) continue;
    s.tile.keys.items[slot] = keys[i];
    s.tile.io.values.items[slot] = values[i];
    ++slot;
  }
  __syncthreads();
  const long long base = s.kept_first;
  if (tile_idx == num_tiles - 1 && threadIdx.x == 0) *d_num_runs = base + heads;
  for (int j = static_cast<int>(threadIdx.x); j < heads; j += Policy::block_threads) {
    d_keys_out[base + j] = s.tile.keys.items[j];
    d_values_out[base + j] = s.tile.io.values.items[j];
  }
}

// One tile: loads its keys and values, flags its run heads, and writes its part of the output.
// Full: the tile holds tile_items items (no bounds checks an item).
template <bool Full, class Policy, by_key_output Output, class KeyIt, class ValueIt, class KeyOutIt, class ValueOutIt,
          class Acc, class Eq, class Op, class State, class Storage>
__device__ __forceinline__ void by_key_tile(long long tile_idx, long long num_tiles, KeyIt d_keys, ValueIt d_values,
                                            KeyOutIt d_keys_out, ValueOutIt d_values_out, count_t* d_num_runs,
                                            long long num_items, Eq& eq, Op& op, const maybe<Acc>& init,
                                            const State& state, Storage& s) {
  constexpr int ipt = Policy::items_per_thread;
  const long long tile_first = tile_idx * Policy::tile_items;
  const long long valid = Full ? Policy::tile_items : num_items - tile_first;
  it_value_t<KeyIt> keys[ipt];
  it_value_t<ValueIt> values[ipt];
  bool head[ipt];
  load_tile<Policy::io, Policy::block_threads>(d_keys + tile_first, valid, keys, s.tile.keys);
  const int in_tile = items_in_tile<Policy>(valid);
  if constexpr (Output == by_key_output::unique) {
    if constexpr (reads_values_at_heads<Policy, it_value_t<ValueIt>>) {
      // At runs of 16, 8-byte values are read in a quarter of their 32-byte sectors.
      mark_run_heads<Full>(d_keys, tile_first, in_tile, keys, head, eq);
      load_values_at_heads(d_values + tile_first, head, values);
    } else {
      load_tile<Policy::io, Policy::block_threads>(d_values + tile_first, valid, values, s.tile.io.values);
      mark_run_heads<Full>(d_keys, tile_first, in_tile, keys, head, eq);
    }
    write_first_of_runs<Policy>(tile_idx, num_tiles, keys, values, head, d_keys_out, d_values_out, d_num_runs, state,
                                s);
  } else {
    load_tile<Policy::io, Policy::block_threads>(d_values + tile_first, valid, values, s.tile.io.values);
    mark_run_heads<Full>(d_keys, tile_first, in_tile, keys, head, eq);
    scan_runs_of_tile<Full, Policy, Output>(tile_idx, num_items, keys, values, head, d_keys_out, d_values_out,
                                            d_num_runs, op, init, state, s);
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
  join_chain();
  using key_t = it_value_t<KeyIt>;
  using value_t = it_value_t<ValueIt>;
  __shared__ by_key_storage<Policy, key_t, value_t, Acc, by_key_out_t<Output, value_t, Acc>, Output> s;
  for_each_claimed_tile(state, s.tile_idx, num_tiles, [&](long long tile_idx) {
    if (num_items - tile_idx * Policy::tile_items >= Policy::tile_items)
      by_key_tile<true, Policy, Output>(tile_idx, num_tiles, d_keys, d_values, d_keys_out, d_values_out, d_num_runs,
                                        num_items, eq, op, init, state, s);
    else
      by_key_tile<false, Policy, Output>(tile_idx, num_tiles, d_keys, d_values, d_keys_out, d_values_out, d_num_runs,
                                         num_items, eq, op, init, state, s);
  });
}

}  // namespace upsweep::detail
