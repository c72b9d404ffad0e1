// A radix digit pass's shared storage and its tile traffic: the warp counters and the exchange, the
// dynamic shared memory they live in, striped loads of keys and values, and cp.async copies of
// values straight to their sorted slots.
#pragma once

#include <upsweep/scan/block_scan.cuh>
#include <upsweep/sort/detail/radix_sort_control.cuh>
#include <upsweep/sort/detail/radix_sort_tuning.cuh>
#include <upsweep/sort/radix_traits.cuh>
#include <upsweep/util/arch.cuh>

#include <cstddef>

namespace upsweep::detail {

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

}  // namespace upsweep::detail
