// Warp-wide steps of top-k's radix select: claiming output slots with one atomic per warp,
// counting digits with one atomic per distinct digit, finding the digit that holds a rank.
#pragma once

namespace upsweep::detail {

// The lane's slot among this warp's `want` lanes, in a range claimed from `counter` by one atomic
// per warp. Every lane of the warp must call it.
template <class Count>
__device__ __forceinline__ Count claim_warp_slot(bool want, Count* counter) {
  const unsigned mask = __ballot_sync(0xffffffffu, want);
  if (mask == 0) return 0;
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int leader = __ffs(static_cast<int>(mask)) - 1;
  Count base = 0;
  if (lane == leader) base = atomicAdd(counter, static_cast<Count>(__popc(mask)));
  base = __shfl_sync(0xffffffffu, base, leader);
  return base + static_cast<unsigned>(__popc(mask & ((1u << lane) - 1u)));
}

// The calling lane's slot in a range claimed from `counter` by one atomic for the lanes that call
// it together (those in a rarely taken branch). Unlike claim_warp_slot, the other lanes need not
// call it.
template <class Count>
__device__ __forceinline__ Count claim_slot_among_active(Count* counter) {
  const unsigned active = __activemask();
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int leader = __ffs(static_cast<int>(active)) - 1;
  Count base = 0;
  if (lane == leader) base = atomicAdd(counter, static_cast<Count>(__popc(active)));
  base = __shfl_sync(active, base, leader);
  return base + static_cast<unsigned>(__popc(active & ((1u << lane) - 1u)));
}

// Adds `active` lanes' digits to shared counters, an atomic a lane. Grouping a warp's equal digits
// first (__match_any_sync, one atomic a group) cost more than it saved even when every digit was
// the same: a 4096-sample select of 32-bit keys took 5.7 us that way, 3.5 us with an atomic a lane
// (3.8 us all equal; H200, 2026-11-27). Every lane of the warp may call it, or only some.
__device__ __forceinline__ void count_digit(unsigned* counts, unsigned digit, bool active) {
  if (active) atomicAdd(&counts[digit], 1u);
}

// Where the rank-th (1-based) of the items counted in `counts` lies: its digit, and how many items
// the digits below it hold. Called by one whole warp; every lane gets the answer.
struct rank_digit {
  unsigned digit;
  unsigned long long below;
  unsigned long long count;
  unsigned long long total;  // of all digits
};

template <int Digits, class Count>
__device__ rank_digit find_rank_digit(const Count* counts, unsigned long long rank) {
  constexpr int per_lane = Digits / 32;
  static_assert(Digits % 32 == 0);
  const unsigned lane = threadIdx.x % 32;
  unsigned long long lane_total = 0;
#pragma unroll
  for (int i = 0; i < per_lane; ++i) lane_total += counts[lane * per_lane + i];
  unsigned long long below = lane_total;
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const unsigned long long lower = __shfl_up_sync(0xffffffffu, below, offset);
    if (lane >= static_cast<unsigned>(offset)) below += lower;
  }
  const unsigned long long total = __shfl_sync(0xffffffffu, below, 31);
  below -= lane_total;
  rank_digit found{0, 0, 0, total};
  const bool mine = below < rank && rank <= below + lane_total;
  if (mine) {
    for (int i = 0; i < per_lane; ++i) {
      const unsigned long long c = counts[lane * per_lane + i];
      if (rank <= below + c) {
        found = {lane * per_lane + i, below, c, total};
        break;
      }
      below += c;
    }
  }
  const int owner = __ffs(static_cast<int>(__ballot_sync(0xffffffffu, mine))) - 1;
  found.digit = __shfl_sync(0xffffffffu, found.digit, owner);
  found.below = __shfl_sync(0xffffffffu, found.below, owner);
  found.count = __shfl_sync(0xffffffffu, found.count, owner);
  return found;
}

// Inclusive sum over the warp's lanes.
__device__ __forceinline__ unsigned warp_inclusive_sum(unsigned value) {
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const unsigned lower = __shfl_up_sync(0xffffffffu, value, offset);
    if (static_cast<int>(threadIdx.x % 32) >= offset) value += lower;
  }
  return value;
}

// find_rank_digit with the whole block, and the counts zeroed for the next pass: each warp sums
// its threads' digits (thread t holds digits t * per_thread onward) in one reduction, then every
// warp scans the warp sums and the warp holding the rank-th item scans its lanes. Calls
// found(digit, count, below, total) in the thread holding it; barrier before reading what found
// wrote. One barrier inside: the finish's block scan of its 2048 counts took 1.5 to 1.9 us a
// pass, this about 0.8 (H200, 2026-11-27). warp_counts: a word of shared memory a warp. Every
// thread calls it.
template <int Threads, int Digits, class Found>
__device__ void block_find_rank_digit(unsigned* counts, unsigned* warp_counts, unsigned long long rank, Found&& found) {
  constexpr int warps = Threads / 32, per_thread = Digits >= Threads ? Digits / Threads : 1;
  static_assert(Threads % 32 == 0 && warps <= 32 && (Digits % Threads == 0 || Threads % Digits == 0));
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned mine[per_thread], sum = 0;
#pragma unroll
  for (int i = 0; i < per_thread; ++i) {
    const unsigned digit = threadIdx.x * per_thread + i;
    mine[i] = digit < Digits ? counts[digit] : 0u;
    if (digit < Digits) counts[digit] = 0;
    sum += mine[i];
  }
  const unsigned warp_sum = __reduce_add_sync(0xffffffffu, sum);
  if (lane == 0) warp_counts[warp] = warp_sum;
  __syncthreads();
  const unsigned of_lane_warp = lane < warps ? warp_counts[lane] : 0u;
  const unsigned through_lane_warp = warp_inclusive_sum(of_lane_warp);
  const unsigned total = __shfl_sync(0xffffffffu, through_lane_warp, 31);
  const unsigned holders = __ballot_sync(0xffffffffu, through_lane_warp >= rank);
  if (holders == 0 || warp != static_cast<unsigned>(__ffs(static_cast<int>(holders)) - 1)) return;
  unsigned below =
      __shfl_sync(0xffffffffu, through_lane_warp - of_lane_warp, static_cast<int>(warp)) + warp_inclusive_sum(sum) - sum;
#pragma unroll
  for (int i = 0; i < per_thread; ++i) {
    if (below < rank && rank <= static_cast<unsigned long long>(below) + mine[i])
      found(threadIdx.x * per_thread + i, mine[i], below, total);
    below += mine[i];
  }
}

}  // namespace upsweep::detail
