// Radix sort kernels, Onesweep design (Adinets and Merrill, "Onesweep: A Faster Least Significant
// Digit Radix Sort for GPUs", 2022): one kernel counts every digit position in one read of the
// keys, one block scans those counts and plans the passes, then one kernel per digit pass ranks a
// tile's keys, finds each digit's place across the grid by a per-digit decoupled look-back and
// scatters keys (and values) stably through shared memory.
#pragma once

#include <upsweep/scan/block_scan.cuh>
#include <upsweep/scan/tile_state.cuh>
#include <upsweep/sort/detail/radix_key_codec.cuh>
#include <upsweep/sort/detail/radix_sort_tuning.cuh>
#include <upsweep/sort/radix_traits.cuh>
#include <upsweep/util/arch.cuh>
#include <upsweep/util/chained_launch.cuh>

#include <cuda/atomic>
#include <cuda/std/cstdint>
#include <cuda/std/functional>
#include <cuda/std/type_traits>

#include <cstddef>

namespace upsweep::detail {

// Keys-only sorts carry this as their value type; no value is ever loaded or stored.
struct no_values {};

template <class Value>
inline constexpr bool has_values_v = !cuda::std::is_same_v<Value, no_values>;

// Passes one sort plans; a wider bit window (struct keys past 64 bits) is sorted by several
// sorts of at most max_radix_window_bits each, least significant window first.
inline constexpr int max_radix_passes = 64 / radix_bits;
inline constexpr int max_radix_window_bits = max_radix_passes * radix_bits;

// Digit positions the histogram counts for keys read through Codec.
template <class Codec>
inline constexpr int histogram_passes_v = (Codec::key_bits + radix_bits - 1) / radix_bits < max_radix_passes
                                              ? (Codec::key_bits + radix_bits - 1) / radix_bits
                                              : max_radix_passes;

// ---- the plan: which buffer each pass reads and writes --------------------------------------
enum sort_buffer : int { buffer_none = -1, buffer_in = 0, buffer_out = 1, buffer_alt = 2 };

struct radix_pass_plan {
  int src;  // buffer_none: every key has the same digit here, the pass does nothing
  int dst;
};

struct radix_sort_plan {
  radix_pass_plan pass[max_radix_passes];
  int copy_src;  // where the result lies when it is not already in out; buffer_none if it is
};

// Everything the passes share, cleared by one memset (with the look-back words) before the
// histogram.
struct radix_sort_control {
  unsigned long long digit_counts[max_radix_passes][radix_digits];  // exclusive-scanned in place
  unsigned long long tile_counters[max_radix_passes];
  radix_sort_plan plan;
};

template <class T>
struct sort_buffers {
  const T* in;
  T* out;
  T* alt;
  __device__ const T* source(int id) const { return id == buffer_in ? in : (id == buffer_out ? out : alt); }
  __device__ T* destination(int id) const { return id == buffer_out ? out : alt; }
};

// ---- look-back words: one per (tile, digit) ---------------------------------------------------
// Status in the top two bits, the pass that wrote the word in the next three, the count in the
// low 59, published by one relaxed 64-bit store, so the count is never read without its status.
// The pass stamp lets every pass of a sort share one buffer cleared once: a word left by an
// earlier pass reads as not ready. Range proof: a count is at most num_items, and the dispatch
// rejects num_items >= 2^59 (max_radix_sort_items).
inline constexpr int look_back_count_bits = 59;
inline constexpr unsigned long long look_back_partial = 1ull << 62;
inline constexpr unsigned long long look_back_inclusive = 2ull << 62;
inline constexpr unsigned long long look_back_status_mask = 3ull << 62;
inline constexpr unsigned long long look_back_pass_mask = 7ull << look_back_count_bits;
inline constexpr unsigned long long look_back_count_mask = (1ull << look_back_count_bits) - 1;
inline constexpr long long max_radix_sort_items = static_cast<long long>(look_back_count_mask);
static_assert(max_radix_passes <= 8, "the pass stamp has three bits");

__host__ __device__ constexpr unsigned long long look_back_stamp(int pass) {
  return static_cast<unsigned long long>(pass) << look_back_count_bits;
}

// Published by this pass (a status, and this pass's stamp). Tested on the word's high half: the
// same bits in 32-bit operations, which kept the pass kernel at 77 registers where the 64-bit
// masks took 95 (ptxas, ballot 256 x 16, u32 keys), one resident block fewer per SM.
__host__ __device__ constexpr bool look_back_ready(unsigned long long word, int pass) {
  const unsigned high = static_cast<unsigned>(word >> 32);
  return (high >> 30) != 0 && ((high >> (look_back_count_bits - 32)) & 7u) == static_cast<unsigned>(pass);
}

// The look-back word of (tile, digit).
__device__ __forceinline__ cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> look_back_word(
    unsigned long long* d_look_back, long long tile, unsigned digit) {
  return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(d_look_back[tile * radix_digits + digit]);
}

// Publishes this tile's count of a digit as soon as the tile is counted: the tiles after it wait
// on this word, so it goes up before the tile's own staging and look-back (Onesweep's early
// counts). Tile 0 has no predecessor, so its count is already inclusive.
__device__ __forceinline__ void publish_digit_count(unsigned long long* d_look_back, long long tile_idx,
                                                    unsigned digit, unsigned long long tile_count, int pass) {
  const unsigned long long status = tile_idx == 0 ? look_back_inclusive : look_back_partial;
  look_back_word(d_look_back, tile_idx, digit)
      .store(status | look_back_stamp(pass) | tile_count, cuda::std::memory_order_relaxed);
}

// Keys of this digit in all tiles before `tile_idx`, whose count publish_digit_count put up:
// walks back until an inclusive word (the tiles before it were claimed by running blocks, so each
// publishes eventually), then publishes this tile's inclusive count. The walk reads Window
// predecessors' words at once and then takes them nearest first: with Window 1 every step waits
// out a load's round trip; wider windows overlap them, at the cost of a few words read past the
// inclusive one.
template <int DelayNs, int Window, int SettleNs>
__device__ unsigned long long look_back_digit(unsigned long long* d_look_back, long long tile_idx, unsigned digit,
                                              unsigned long long tile_count, int pass) {
  if (tile_idx == 0) return 0;
  const auto word_of = [&](long long tile) { return look_back_word(d_look_back, tile, digit); };
  const unsigned long long stamp = look_back_stamp(pass);
  settle_before_look_back<SettleNs>();
  unsigned long long before = 0;
  for (long long nearest = tile_idx - 1;; nearest -= Window) {
    unsigned long long words[Window];
#pragma unroll
    for (int w = 0; w < Window; ++w)  // tile 0 is always inclusive: the walk never passes it
      words[w] = nearest - w >= 0 ? word_of(nearest - w).load(cuda::std::memory_order_relaxed)
                                  : look_back_inclusive | stamp;
#pragma unroll
    for (int w = 0; w < Window; ++w) {
      while (!look_back_ready(words[w], pass)) {
        if constexpr (DelayNs > 0) __nanosleep(DelayNs);
        words[w] = word_of(nearest - w).load(cuda::std::memory_order_relaxed);
      }
      before += words[w] & look_back_count_mask;
      if (words[w] & look_back_inclusive) {
        word_of(tile_idx).store(look_back_inclusive | stamp | (before + tile_count), cuda::std::memory_order_relaxed);
        return before;
      }
    }
  }
}

// ---- kernel 1: counts of every digit position in one read ------------------------------------
__host__ __device__ constexpr int pass_digit_bits(int bit, int end_bit) {
  return end_bit - bit < radix_bits ? end_bit - bit : radix_bits;
}

// Keys each histogram thread loads before counting them: the loads of a tile are all in flight
// at once (one key per thread between the counts left the kernel waiting on memory).
inline constexpr int histogram_items_per_thread = 16;

template <int Passes, bool Descending, class Key, class Codec>
__device__ __forceinline__ void count_key_digits(const Key& key, int begin_bit, int end_bit, int num_passes,
                                                 unsigned (&counts)[Passes][radix_digits], const Codec& codec) {
  const auto bits = codec.template sort_bits<Descending>(key);
#pragma unroll
  for (int p = 0; p < Passes; ++p) {
    if (p < num_passes) {
      const int bit = begin_bit + p * radix_bits;
      atomicAdd(&counts[p][Codec::digit(bits, bit, pass_digit_bits(bit, end_bit))], 1u);
    }
  }
}

// Blocks stride over tiles of block_threads x histogram_items_per_thread keys. Shared counters
// are 32-bit: the dispatch sizes the grid so that no block sees 2^32 keys.
template <class Policy, bool Descending, class Key, class Codec>
__global__ void __launch_bounds__(Policy::histogram_block_threads)
    radix_histogram_kernel(const Key* d_keys, long long num_items, int begin_bit, int end_bit, int num_passes,
                           radix_sort_control* d_control, Codec codec) {
  constexpr int passes_for_key = histogram_passes_v<Codec>;
  constexpr int threads = Policy::histogram_block_threads;
  constexpr int tile = threads * histogram_items_per_thread;
  __shared__ unsigned counts[passes_for_key][radix_digits];
  wait_for_previous_grid();  // every kernel of a sort launches chained (radix_sort_dispatch)
  let_next_grid_launch();
  for (int i = threadIdx.x; i < passes_for_key * radix_digits; i += blockDim.x) counts[i / radix_digits][i % radix_digits] = 0;
  __syncthreads();
  const auto count = [&](const Key& key) {
    count_key_digits<passes_for_key, Descending>(key, begin_bit, end_bit, num_passes, counts, codec);
  };
  for (long long first = static_cast<long long>(blockIdx.x) * tile; first < num_items;
       first += static_cast<long long>(gridDim.x) * tile) {
    const Key* d_tile = d_keys + first + threadIdx.x;
    if (num_items - first >= tile) {
      Key keys[histogram_items_per_thread];
#pragma unroll
      for (int i = 0; i < histogram_items_per_thread; ++i) keys[i] = d_tile[i * threads];
#pragma unroll
      for (int i = 0; i < histogram_items_per_thread; ++i) count(keys[i]);
    } else {
      const long long valid = num_items - first - threadIdx.x;
      for (int i = 0; i < histogram_items_per_thread && i * threads < valid; ++i) count(d_tile[i * threads]);
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < num_passes * radix_digits; i += blockDim.x) {
    const unsigned c = counts[i / radix_digits][i % radix_digits];
    if (c != 0) atomicAdd(&d_control->digit_counts[i / radix_digits][i % radix_digits], static_cast<unsigned long long>(c));
  }
}

// ---- kernel 2: digit offsets and the plan ----------------------------------------------------
// How the passes alternate between the buffers (see plan_passes).
enum radix_plan_kind : int {
  plan_out_last = 0,      // in != out: the last pass writes out, the input is only read
  plan_first_to_alt = 1,  // in == out (keys or values), or a double buffer keeping its selector
  plan_first_to_out = 2,  // a double buffer flipping its selector: alt is the input buffer itself
};

// A pass is trivial when one digit holds every key: it would move nothing, so it is skipped. The
// j-th of the m non-trivial passes reads where pass j-1 wrote (the input for j = 0) and writes:
//  - plan_out_last: out when m-1-j is even, else alt, so the last pass writes out;
//  - plan_first_to_alt: alt when j is even, else out, so no pass reads and writes one buffer;
//  - plan_first_to_out: out when j is even, else alt (alt == in: the input is consumed by pass 0).
// When the last non-trivial pass did not write out (or m = 0), the copy kernel moves the result
// from where it lies to out, unless that is out itself. Host and device: the host tests walk it.
__host__ __device__ inline void plan_passes(const bool (&trivial)[max_radix_passes], int num_passes, int kind,
                                            radix_sort_plan& plan) {
  int m = 0;
  for (int p = 0; p < num_passes; ++p) m += trivial[p] ? 0 : 1;
  int previous = buffer_in;
  int j = 0;
  for (int p = 0; p < max_radix_passes; ++p) {
    if (p >= num_passes || trivial[p]) {
      plan.pass[p] = {buffer_none, buffer_none};
      continue;
    }
    const bool to_out = kind == plan_first_to_alt ? (j % 2 == 1)
                        : kind == plan_first_to_out ? (j % 2 == 0)
                                                    : ((m - 1 - j) % 2 == 0);
    const int dst = to_out ? buffer_out : buffer_alt;
    plan.pass[p] = {previous, dst};
    previous = dst;
    ++j;
  }
  plan.copy_src = previous == buffer_out ? buffer_none : previous;
}

// A template (of nothing) like every kernel in a header: a weak definition, so two files that
// include this header link together (the compiled API instantiates sort in several files).
template <class = void>
__global__ void __launch_bounds__(radix_digits)
    radix_scan_kernel(radix_sort_control* d_control, long long num_items, int num_passes, int plan_kind) {
  using scan_t = block_scan<unsigned long long, radix_digits>;
  __shared__ typename scan_t::storage scan_storage;
  __shared__ bool trivial[max_radix_passes];
  wait_for_previous_grid();
  let_next_grid_launch();
  const int digit = threadIdx.x;
  for (int p = 0; p < num_passes; ++p) {
    unsigned long long count[1] = {d_control->digit_counts[p][digit]};
    const bool holds_all = count[0] == static_cast<unsigned long long>(num_items);
    const bool any_holds_all = __syncthreads_or(holds_all) != 0;
    if (digit == 0) trivial[p] = any_holds_all;
    scan_t(scan_storage).exclusive_scan(count, 0ull, cuda::std::plus<unsigned long long>{});
    d_control->digit_counts[p][digit] = count[0];
    __syncthreads();  // the scan storage is reused by the next pass
  }
  if (digit == 0) plan_passes(trivial, num_passes, plan_kind, d_control->plan);
}

// ---- kernel 3: one digit pass ---------------------------------------------------------------
// Values copied async (values_copied_async_v, radix_sort_tuning.cuh) go straight to their sorted
// slots once the keys are ranked, so their loads overlap the keys' staging and look-back.

// Bytes of a value one cp.async moves: as many as its alignment allows.
template <class Value>
inline constexpr int value_copy_chunk =
    static_cast<int>(alignof(Value) < sizeof(Value) ? alignof(Value) : sizeof(Value));

template <class Policy, class Key, class Value>
struct radix_pass_storage {
  static constexpr int warps = Policy::block_threads / warp_threads;
  static constexpr bool separate_values = values_copied_async_v<Value>;
  // Bytes a slot of the exchange takes: the key's, or the value's when values are wider and pass
  // through the exchange after the keys.
  static constexpr std::size_t exchanged_bytes =
      !has_values_v<Value> || separate_values || sizeof(Key) >= sizeof(Value) ? sizeof(Key) : sizeof(Value);
  // The counters serve until every thread has its slots in the sorted tile, the exchange after
  // that (a barrier apart), so they share their bytes: 12 KB more tile at 384 threads.
  union {
    // Keys of digit d seen by each warp while ranking; then, per digit, the slot in the sorted
    // tile of that warp's first key of digit d (the tile's keys of smaller digits and of d in
    // earlier warps).
    unsigned warp_digit_counts[warps][radix_digits];
    alignas(16) unsigned char exchange[Policy::tile_items * exchanged_bytes];  // the tile in digit order
  };
  // The values in digit order, copied in while the keys still use the exchange.
  alignas(16) unsigned char value_exchange[separate_values ? Policy::tile_items * sizeof(Value) : 16];
  // Per digit d, the byte address where sorted tile slot 0 would go if it held digit d, in the
  // keys' and the values' destinations: slot j of digit d goes to that address plus j elements.
  // Integers, not pointers: the address may lie before the array (only the slot's is an element).
  unsigned long long key_scatter[radix_digits];
  unsigned long long value_scatter[has_values_v<Value> ? radix_digits : 1];
  typename block_scan<unsigned, Policy::block_threads>::storage scan;
  long long tile_idx;
  unsigned long long zero;  // 0, read back by pass_digits::reread
};

// Where the values wait in digit order.
template <class Storage>
__device__ __forceinline__ unsigned char* value_staging(Storage& s) {
  if constexpr (Storage::separate_values) return s.value_exchange;
  else return s.exchange;
}

// The most shared memory sm_90 grants one block on request.
inline constexpr std::size_t max_block_shared_bytes = 227 * 1024;

// The pass and one-tile kernels keep their storage in dynamic shared memory: tiles of pairs need
// more than the 48 KB a static declaration may hold.
template <class Policy, class Key, class Value>
inline constexpr std::size_t radix_shared_bytes = sizeof(radix_pass_storage<Policy, Key, Value>);

template <class Storage>
__device__ __forceinline__ Storage& dynamic_storage() {
  static_assert(sizeof(Storage) <= max_block_shared_bytes,
                "the tile (items_per_thread x block_threads x key and value bytes) and the warp counters must fit "
                "in one block's shared memory");
  extern __shared__ __align__(16) unsigned char radix_dynamic_shared[];
  return *reinterpret_cast<Storage*>(radix_dynamic_shared);
}

// Item i of a thread sits at warp_first + i * 32 + lane in the tile: loads are coalesced, and
// walking a warp's items in (i, lane) order walks the input in order, which ranking relies on.
template <int IPT>
__device__ __forceinline__ int striped_slot(int i) {
  return static_cast<int>(warp_id() * warp_threads * IPT + i * warp_threads + lane_id());
}

// A copy of `p` the compiler cannot trace back to its parts.
template <class T>
__device__ __forceinline__ const T* opaque_pointer(const T* p) {
  asm volatile("mov.b64 %0, %0;" : "+l"(p));
  return p;
}

// Full tiles load without tests. In partial ones, slots past `valid` get a value too: left unset,
// they kept the previous tile's items alive across the pass kernel's tile loop (ptxas merges a
// predicated load with the register's old value), which spilled them at 56 registers.
// Item i is read at the thread's first item plus an immediate. The first item's address goes
// through opaque_pointer: otherwise nvcc hoists each item's address, less the tile's offset, out
// of the pass kernel's tile loop as a 64-bit value of its own (pairs: 40 registers, spilled).
template <bool Full, int IPT, class T>
__device__ __forceinline__ void load_striped(const T* d_tile, int valid, T (&items)[IPT]) {
  const int first = striped_slot<IPT>(0);
  const T* d_first = opaque_pointer(d_tile + first);
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    if constexpr (Full) items[i] = d_first[i * warp_threads];
    else items[i] = first + i * warp_threads < valid ? d_first[i * warp_threads] : T{};
  }
}

// One value from global to shared memory without a register, in chunks its alignment allows.
template <class Value>
__device__ __forceinline__ void copy_value_async(Value* shared_dst, const Value* global_src) {
  constexpr int chunk = value_copy_chunk<Value>;
  NV_IF_ELSE_TARGET(
      NV_PROVIDES_SM_80,
      (const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
       const char* src = reinterpret_cast<const char*>(global_src);
       for (int b = 0; b < static_cast<int>(sizeof(Value)); b += chunk) {  // at most 4 chunks, unrolled
         if constexpr (chunk == 16)  // only .cg (L2, not L1) takes 16 bytes
           asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst + b), "l"(src + b) : "memory");
         else
           asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(dst + b), "l"(src + b), "n"(chunk)
                        : "memory");
       }),
      (*shared_dst = *global_src;));
}

// Returns once this thread's copies have landed; a barrier after it makes them the block's.
__device__ __forceinline__ void wait_for_value_copies() {
  NV_IF_TARGET(NV_PROVIDES_SM_80, (asm volatile("cp.async.wait_all;" ::: "memory");));
}

// Item i of the thread's striped values straight into sorted slot slots[i] of `staging`.
template <bool Full, int IPT, class Value>
__device__ __forceinline__ void copy_values_to_slots(const Value* d_tile, int valid, const unsigned (&slots)[IPT],
                                                     unsigned char* staging) {
  const int first = striped_slot<IPT>(0);
  const Value* d_first = opaque_pointer(d_tile + first);
  Value* staged = reinterpret_cast<Value*>(staging);
#pragma unroll
  for (int i = 0; i < IPT; ++i)
    if (Full || first + i * warp_threads < valid) copy_value_async(staged + slots[i], d_first + i * warp_threads);
}

// Slots past the tile's `valid` items rank as the largest digit. They follow every real key in
// the (i, lane) order, so they rank after every real key of that digit and change no real rank;
// the digit's tile count drops them again (count_digit_in_tile). Only partial tiles test their
// slots (pass_digits); nothing else in the ranking knows about them.
inline constexpr unsigned padding_digit = radix_digits - 1;

// The pass's digit of a thread's item i, read from its key whenever it is needed: keeping the
// digits in registers beside the keys and the ranks held 20 registers more through the ranking
// (ptxas, 384 x 20, sm_90), which cost the pass kernel a resident block. Partial tiles give their
// slots past `valid` the padding digit; full tiles skip the test.
template <bool Descending, bool Full, int IPT, class Codec>
struct pass_digits {
  const Codec& codec;
  int bit;
  int digit_bits;
  int valid;
  unsigned long long mask = 0;  // XORed into plain keys' bits first: 0, but see reread
  template <class Key>
  __device__ __forceinline__ unsigned operator()(const Key& key, int i) const {
    const unsigned digit = Codec::digit(codec.template sort_bits<Descending>(masked(key)), bit, digit_bits);
    if constexpr (Full) return digit;
    else return striped_slot<IPT>(i) < valid ? digit : padding_digit;
  }
  // The same digits through a zero mask read from shared memory (`shared_zero` holds 0): the
  // compilers cannot tell these digits (and the keys' sort bits) equal the ranking's, so they
  // compute them again instead of keeping the ranking's alive (ptxas sees through a register
  // copy, even an asm one).
  __device__ __forceinline__ pass_digits reread(const unsigned long long& shared_zero) const {
    pass_digits copy = *this;
    copy.mask = *static_cast<const volatile unsigned long long*>(&shared_zero);
    return copy;
  }

 private:
  template <class Key>
  __device__ __forceinline__ Key masked(const Key& key) const {
    if constexpr (is_radix_key_v<Key>) {
      using traits = radix_traits<Key>;
      using bits_t = typename traits::bits_t;
      return traits::from_bits(static_cast<bits_t>(traits::to_bits(key) ^ static_cast<bits_t>(mask)));
    } else {
      return key;  // struct keys: their decomposer's members are not one word
    }
  }
};

// One ranking step per item: with `peers` the lanes whose item has this lane's digit, every lane
// reads the warp's counter of that digit, and the highest of them adds their number to it; each
// lane's rank is the counter plus its peers in lower lanes. Walking the items in order, then lanes
// upwards, walks the warp's part of the input in order, so keys of one digit keep their input
// order. The counters are the warp's own, so a plain read and a store by one lane suffice: the
// warp barriers order the read before the store and the store before the next item's read
// (a leader's atomic needed a branch around it and a shuffle of its result: five instructions a
// key more, sm_90).
__device__ __forceinline__ unsigned rank_among_peers(unsigned peers, unsigned digit, unsigned* counts) {
  const unsigned lane = lane_id();
  const unsigned rank = counts[digit] + __popc(peers & ((1u << lane) - 1));
  __syncwarp();
  if (lane == 31 - __clz(peers)) counts[digit] = rank + 1;
  __syncwarp();
  return rank;
}

// Lanes whose digit agrees with this lane's at `bit`: the ballot of lanes with the bit set,
// inverted where this lane's bit is clear. In PTX the predicate feeds both the ballot and the
// inversion, and ptxas sets a digit's predicates with one R2P: three SASS instructions a bit
// (ballot, predicated not, and), where nvcc 13 made seven of the C++ form (sm_90). Ranking is
// most of a pass's instructions.
__device__ __forceinline__ unsigned lanes_agreeing_at(unsigned digit, unsigned bit_mask) {
  unsigned lanes;
  asm volatile(
      "{\n\t.reg .pred set;\n\t"
      "and.b32 %0, %1, %2;\n\t"
      "setp.ne.u32 set, %0, 0;\n\t"
      "vote.sync.ballot.b32 %0, set, 0xffffffff;\n\t"
      "@!set not.b32 %0, %0;\n\t}"
      : "=r"(lanes)
      : "r"(digit), "r"(bit_mask));
  return lanes;
}

// Peers as the lanes agreeing at every digit bit, one ballot each (Onesweep's warp multisplit).
// Item i's rank goes above its digit, whose bits the later items' ballots do not read.
// Item i's rank goes to ranks[i]; its digit is read again from the key when needed.
template <int IPT, class Key, class Digits>
__device__ __forceinline__ void rank_by_ballots(const Key (&keys)[IPT], const Digits& digit_of, unsigned (&ranks)[IPT],
                                                unsigned* counts) {
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    const unsigned digit = digit_of(keys[i], i);
    unsigned peers = lanes_agreeing_at(digit, 1u);
#pragma unroll
    for (int bit = 1; bit < radix_bits; ++bit) peers &= lanes_agreeing_at(digit, 1u << bit);
    ranks[i] = rank_among_peers(peers, digit, counts);
  }
}

// Peers from one match per item.
template <int IPT, class Key, class Digits>
__device__ __forceinline__ void rank_by_match_any(const Key (&keys)[IPT], const Digits& digit_of,
                                                  unsigned (&ranks)[IPT], unsigned* counts) {
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    const unsigned digit = digit_of(keys[i], i);
    ranks[i] = rank_among_peers(__match_any_sync(full_warp_mask, digit), digit, counts);
  }
}

// ranks[i]: the keys of item i's digit before item i in its warp;
// warp_digit_counts[warp][d] = the warp's keys of digit d.
template <class Policy, int IPT, class Key, class Digits, class Storage>
__device__ __forceinline__ void rank_within_warp(const Key (&keys)[IPT], const Digits& digit_of, unsigned (&ranks)[IPT],
                                                 Storage& s) {
  unsigned* counts = s.warp_digit_counts[warp_id()];
  for (int d = lane_id(); d < radix_digits; d += warp_threads) counts[d] = 0;
  __syncwarp();
  if constexpr (Policy::rank_method == radix_rank_method::ballot)
    rank_by_ballots(keys, digit_of, ranks, counts);
  else
    rank_by_match_any(keys, digit_of, ranks, counts);
}

// Thread d: the tile's keys of digit d once every warp has ranked, without the padding.
template <class Policy, class Storage>
__device__ __forceinline__ unsigned count_digit_in_tile(int valid, const Storage& s) {
  if (threadIdx.x >= radix_digits) return 0;
  unsigned count = 0;
#pragma unroll
  for (int w = 0; w < Storage::warps; ++w) count += s.warp_digit_counts[w][threadIdx.x];
  if (threadIdx.x == padding_digit) count -= Policy::tile_items - valid;
  return count;
}

// Returns the tile's keys of smaller digits than thread d's (a block scan of the counts) and
// turns column d of the warp counts into each warp's first sorted slot of digit d. (The column is
// read twice rather than kept: registers across the scan cost the pass kernel occupancy.)
template <class Policy, class Storage>
__device__ __forceinline__ unsigned place_digit_in_tile(unsigned tile_count, Storage& s) {
  unsigned start[1] = {tile_count};
  block_scan<unsigned, Policy::block_threads>(s.scan).exclusive_scan(start, 0u, cuda::std::plus<unsigned>{});
  if (threadIdx.x < radix_digits) {
    unsigned slot = start[0];
#pragma unroll
    for (int w = 0; w < Storage::warps; ++w) {
      const unsigned count = s.warp_digit_counts[w][threadIdx.x];
      s.warp_digit_counts[w][threadIdx.x] = slot;
      slot += count;
    }
  }
  return start[0];
}

// ranks[i]: from item i's rank in its warp to its slot in the sorted tile.
template <int IPT, class Key, class Digits, class Storage>
__device__ __forceinline__ void rank_within_tile(const Key (&keys)[IPT], const Digits& digit_of, unsigned (&ranks)[IPT],
                                                 const Storage& s) {
  const unsigned* first_slot = s.warp_digit_counts[warp_id()];
  const Digits digit_again = digit_of.reread(s.zero);
#pragma unroll
  for (int i = 0; i < IPT; ++i) ranks[i] += first_slot[digit_again(keys[i], i)];
}

// Writes the items into the exchange in digit order (padding after the real keys of the largest
// digit), then the block reads it slot by slot, so consecutive threads write consecutive addresses
// of one digit's run.
template <int IPT, class T>
__device__ __forceinline__ void stage_in_digit_order(const T (&items)[IPT], const unsigned (&slots)[IPT],
                                                     unsigned char* staging) {
  T* staged = reinterpret_cast<T*>(staging);
#pragma unroll
  for (int i = 0; i < IPT; ++i) staged[slots[i]] = items[i];
}

template <class Policy, class Key, class Value, class Storage>
__device__ __forceinline__ void find_digit_base(long long tile_idx, unsigned tile_count, unsigned tile_start,
                                                const unsigned long long* d_digit_offsets,
                                                unsigned long long* d_look_back, int pass, Key* d_keys_dst,
                                                Value* d_values_dst, Storage& s) {
  if (threadIdx.x >= radix_digits) return;
  const unsigned digit = threadIdx.x;
  const unsigned long long before =
      look_back_digit<Policy::look_back_delay_ns, Policy::look_back_window, Policy::look_back_settle_ns>(
          d_look_back, tile_idx, digit, tile_count, pass);
  // The global index of sorted tile slot 0 for this digit: below 0 when the digit's first slot in
  // the tile comes before its first global index. Unsigned arithmetic wraps where it must.
  const unsigned long long slot0 = d_digit_offsets[digit] + before - tile_start;
  s.key_scatter[digit] = reinterpret_cast<unsigned long long>(d_keys_dst) + slot0 * sizeof(Key);
  if constexpr (has_values_v<Value>)
    s.value_scatter[digit] = reinterpret_cast<unsigned long long>(d_values_dst) + slot0 * sizeof(Value);
}

// The address of a thread's first staged slot of a digit, from that digit's address of slot 0.
// (A pointer from an integer: nvcc emits generic stores, ST.E, not STG; telling it
// __builtin_assume(__isGlobal(p)) changed nothing, sm_90, CUDA 13.)
template <class T>
__device__ __forceinline__ T* thread_slot(unsigned long long slot0_address) {
  return reinterpret_cast<T*>(slot0_address + static_cast<unsigned long long>(threadIdx.x) * sizeof(T));
}

// The digits of a thread's staged slots, four to a register: the values' scatter needs each slot's
// digit again, and 64-bit destinations kept instead cost the pairs kernel 32 registers.
template <int IPT>
struct slot_digits {
  unsigned packed[(IPT + 3) / 4] = {};
  __device__ void set(int j, unsigned digit) { packed[j / 4] |= digit << (8 * (j % 4)); }
  __device__ unsigned get(int j) const { return (packed[j / 4] >> (8 * (j % 4))) & 0xffu; }
};

// Thread t scatters slots t, t + block_threads, ...: each slot's address is its digit's slot-0
// address (shared memory) plus the thread's offset and an immediate (three instructions where a
// 64-bit index took five). Full tiles skip the bounds test, so the slots' loads need not wait on
// one another's branches.
template <class Policy, bool Full, bool Descending, int IPT, class Key, class Codec, class Storage>
__device__ __forceinline__ void scatter_key_slots(int valid, int bit, int digit_bits,
                                                  slot_digits<IPT>& digits_of_slots, const Codec& codec,
                                                  const Storage& s) {
  const Key* staged = reinterpret_cast<const Key*>(s.exchange) + threadIdx.x;
#pragma unroll
  for (int j = 0; j < IPT; ++j) {
    if (Full || j * Policy::block_threads + static_cast<int>(threadIdx.x) < valid) {
      const Key key = staged[j * Policy::block_threads];
      const unsigned digit = Codec::digit(codec.template sort_bits<Descending>(key), bit, digit_bits);
      digits_of_slots.set(j, digit);
      thread_slot<Key>(s.key_scatter[digit])[j * Policy::block_threads] = key;
    }
  }
}

template <class Policy, class Value, int IPT, class Storage>
__device__ __forceinline__ void scatter_values(int valid, const slot_digits<IPT>& digits_of_slots, Storage& s) {
  const Value* staged = reinterpret_cast<const Value*>(value_staging(s)) + threadIdx.x;
#pragma unroll
  for (int j = 0; j < IPT; ++j) {
    if (j * Policy::block_threads + static_cast<int>(threadIdx.x) < valid)
      thread_slot<Value>(s.value_scatter[digits_of_slots.get(j)])[j * Policy::block_threads] =
          staged[j * Policy::block_threads];
  }
}

template <class Key, class Value, class Codec>
struct radix_pass_args {
  sort_buffers<Key> keys;
  sort_buffers<Value> values;
  const radix_sort_control* d_control;
  unsigned long long* d_look_back;
  long long num_items;
  long long num_tiles;
  int pass;
  int bit;
  int digit_bits;
  Codec codec;
};

// One tile: rank, publish the counts, place and stage the keys, look back, scatter. The counts go
// up before the staging so that the tiles after this one find them sooner, and this tile's own
// look-back comes after the staging, when its predecessors have had longer to publish.
// Full: the tile holds tile_items keys (every tile but the last), so no slot needs a bounds test.
template <class Policy, bool Descending, bool Full, class Key, class Value, class Codec, class Storage>
__device__ __forceinline__ void radix_pass_tile(long long tile_idx, int valid,
                                                const radix_pass_args<Key, Value, Codec>& args,
                                                const radix_pass_plan& plan, Storage& s) {
  constexpr int ipt = Policy::items_per_thread;
  const long long tile_first = tile_idx * Policy::tile_items;
  const pass_digits<Descending, Full, ipt, Codec> digit_of{args.codec, args.bit, args.digit_bits, valid};

  Key keys[ipt];
  unsigned places[ipt];
  load_striped<Full>(args.keys.source(plan.src) + tile_first, valid, keys);
  rank_within_warp<Policy>(keys, digit_of, places, s);
  __syncthreads();  // every warp's counts are in
  const unsigned tile_count = count_digit_in_tile<Policy>(valid, s);
  if (threadIdx.x < radix_digits) publish_digit_count(args.d_look_back, tile_idx, threadIdx.x, tile_count, args.pass);
  const unsigned tile_start = place_digit_in_tile<Policy>(tile_count, s);
  __syncthreads();  // every warp's first slots are in
  rank_within_tile(keys, digit_of, places, s);
  // (The previous tile's values were scattered before the claim's barrier.)
  if constexpr (Storage::separate_values)
    copy_values_to_slots<Full>(args.values.source(plan.src) + tile_first, valid, places, s.value_exchange);
  __syncthreads();  // every slot is read from the counters, whose bytes the exchange reuses
  stage_in_digit_order(keys, places, s.exchange);
  find_digit_base<Policy>(tile_idx, tile_count, tile_start, args.d_control->digit_counts[args.pass],
                          args.d_look_back, args.pass, args.keys.destination(plan.dst),
                          args.values.destination(plan.dst), s);
  if constexpr (Storage::separate_values) wait_for_value_copies();
  __syncthreads();  // the staged keys (and values) and the bases are in
  slot_digits<ipt> digits_of_slots;
  scatter_key_slots<Policy, Full, Descending, ipt, Key>(valid, args.bit, args.digit_bits, digits_of_slots,
                                                        args.codec, s);
  if constexpr (has_values_v<Value> && !Storage::separate_values) {
    // Loaded only now: held through the look-back and the keys' scatter, as before session 11,
    // they made the pairs' tiles spill at 80 registers (384 x 23 and 384 x 14, ptxas).
    Value values[ipt];
    load_striped<Full>(args.values.source(plan.src) + tile_first, valid, values);
    __syncthreads();  // every staged key has been read
    stage_in_digit_order(values, places, s.exchange);
    __syncthreads();
  }
  if constexpr (has_values_v<Value>) scatter_values<Policy, Value>(valid, digits_of_slots, s);
}

template <class Policy, bool Descending, class Key, class Value, class Codec>
__global__ void __launch_bounds__(Policy::block_threads, Policy::pass_min_blocks) radix_pass_kernel(radix_pass_args<Key, Value, Codec> args) {
  auto& storage = dynamic_storage<radix_pass_storage<Policy, Key, Value>>();
  wait_for_previous_grid();
  let_next_grid_launch();
  const radix_pass_plan plan = args.d_control->plan.pass[args.pass];
  if (plan.src == buffer_none) return;  // one digit holds every key: nothing moves
  const tile_counter counter(const_cast<unsigned long long*>(&args.d_control->tile_counters[args.pass]));
  for (;;) {
    if (threadIdx.x == 0) {
      storage.tile_idx = counter.claim();
      storage.zero = 0;
    }
    __syncthreads();  // the tile's barriers keep the next claim from overtaking this read
    const long long tile_idx = storage.tile_idx;
    if (tile_idx >= args.num_tiles) return;
    const long long remaining = args.num_items - tile_idx * Policy::tile_items;
    if (remaining >= Policy::tile_items)
      radix_pass_tile<Policy, Descending, true>(tile_idx, Policy::tile_items, args, plan, storage);
    else
      radix_pass_tile<Policy, Descending, false>(tile_idx, static_cast<int>(remaining), args, plan, storage);
    if (one_claim_each(args.num_tiles)) return;
  }
}

// ---- small inputs: the whole sort in one block and one launch ----------------------------------
// Up to one tile: the block holds the keys (and values) in registers and runs every digit as a
// pass ranks a tile: rank, stage in digit order in shared memory, and read back in the striped
// layout, which walks the staged order as the next ranking needs. No histogram, no look-back, no
// temporaries. Everything is read before anything is written, so in == out is fine.
template <int IPT, class T>
__device__ __forceinline__ void read_staged_striped(const unsigned char* exchange, int valid, T (&items)[IPT]) {
  const T* staged = reinterpret_cast<const T*>(exchange);
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    const int slot = striped_slot<IPT>(i);
    if (slot < valid) items[i] = staged[slot];
  }
}

template <int IPT, class T>
__device__ __forceinline__ void store_striped(T* d_out, int valid, const T (&items)[IPT]) {
#pragma unroll
  for (int i = 0; i < IPT; ++i) {
    const int slot = striped_slot<IPT>(i);
    if (slot < valid) d_out[slot] = items[i];
  }
}

template <class Policy, bool Descending, class Key, class Value, class Codec>
__global__ void __launch_bounds__(Policy::block_threads)
    radix_sort_single_tile_kernel(const Key* d_keys_in, Key* d_keys_out, const Value* d_values_in,
                                  Value* d_values_out, int valid, int begin_bit, int end_bit, Codec codec) {
  constexpr int ipt = Policy::items_per_thread;
  constexpr bool has_values = has_values_v<Value>;
  auto& s = dynamic_storage<radix_pass_storage<Policy, Key, Value>>();
  Key keys[ipt];
  Value values[has_values ? ipt : 1];
  unsigned places[ipt];
  wait_for_previous_grid();
  let_next_grid_launch();
  load_striped<false>(d_keys_in, valid, keys);
  if constexpr (has_values) load_striped<false>(d_values_in, valid, values);
  if (threadIdx.x == 0) s.zero = 0;  // read after the first pass's first barrier
  for (int bit = begin_bit; bit < end_bit; bit += radix_bits) {
    const pass_digits<Descending, false, ipt, Codec> digit_of{codec, bit, pass_digit_bits(bit, end_bit), valid};
    rank_within_warp<Policy>(keys, digit_of, places, s);
    __syncthreads();  // every warp's counts are in
    place_digit_in_tile<Policy>(count_digit_in_tile<Policy>(valid, s), s);
    __syncthreads();  // every warp's first slots are in
    rank_within_tile(keys, digit_of, places, s);
    __syncthreads();  // every slot is read from the counters, whose bytes the exchange reuses
    stage_in_digit_order(keys, places, s.exchange);
    __syncthreads();
    read_staged_striped(s.exchange, valid, keys);
    if constexpr (has_values) {
      __syncthreads();  // every staged key has been read
      stage_in_digit_order(values, places, value_staging(s));
      __syncthreads();
      read_staged_striped(value_staging(s), valid, values);
    }
    __syncthreads();  // the next digit reuses the counters and the exchange
  }
  store_striped(d_keys_out, valid, keys);
  if constexpr (has_values) store_striped(d_values_out, valid, values);
}

// ---- kernel 4: the result into out, when the plan left it elsewhere --------------------------
template <class T>
__device__ __forceinline__ void copy_grid_stride(const T* d_from, T* d_to, long long num_items) {
  if (d_from == d_to) return;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < num_items; i += stride)
    d_to[i] = d_from[i];
}

template <class Key, class Value>
__global__ void radix_copy_result_kernel(sort_buffers<Key> keys, sort_buffers<Value> values, long long num_items,
                                         const radix_sort_control* d_control) {
  wait_for_previous_grid();
  let_next_grid_launch();
  const int src = d_control->plan.copy_src;
  if (src == buffer_none) return;
  copy_grid_stride(keys.source(src), keys.out, num_items);
  if constexpr (has_values_v<Value>) copy_grid_stride(values.source(src), values.out, num_items);
}

}  // namespace upsweep::detail
