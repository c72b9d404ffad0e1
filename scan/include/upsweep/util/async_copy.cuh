// Asynchronous global-to-shared copies (cp.async, sm_80+): the copy runs while the thread does
// other work; a thread waits for its own groups, then a barrier shares the data with others.
#pragma once

namespace upsweep::detail {

// Starts copying 16 bytes; both addresses 16-byte aligned. .cg: cached in L2 only, as the data
// is read once.
__device__ __forceinline__ void copy_16_bytes_async(void* shared_dst, const void* global_src) {
  const auto dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(global_src) : "memory");
}

// Closes the group of copies started since the last commit (an empty group is fine).
__device__ __forceinline__ void commit_async_copies() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

// Waits until at most `Pending` of this thread's most recent groups are still in flight.
template <int Pending>
__device__ __forceinline__ void wait_async_copies() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
}

}  // namespace upsweep::detail
