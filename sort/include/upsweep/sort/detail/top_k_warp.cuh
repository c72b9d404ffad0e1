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

}  // namespace upsweep::detail
