// Types of the host-to-host sort shared by the template layer (host_radix_sort.cuh) and the
// compiled API (<upsweep/host_sort.hpp>); plain C++, no nvcc needed.
#pragma once

#include <cstddef>
#include <cstdint>

namespace upsweep {

// Storage of the core layer of the host-to-host sort, all of it the caller's.
//  - d_storage, device_bytes: device memory, the budget the sort works in. Query: leave d_storage
//    null and set device_bytes to the budget (0: no limit); the call writes back the bytes it
//    will use (the whole budget when the input does not fit it) and the staging it wants.
//  - h_staging, staging_bytes: pinned host memory (cudaMallocHost): the plan's small transfers,
//    and the slots through which pageable arrays are copied. The query asks for 256 MB and a few
//    KB; with pinned arrays only the few KB are used, and a pageable array needs 8 MB at least.
//  - h_scratch, scratch_bytes: optional host memory (pinned is faster) for an input larger than
//    the budget. With it, out of core reads the input twice instead of three times: sorted runs
//    into the scratch, then groups gathered from the runs (and out == in is allowed). The query
//    writes the bytes it takes (keys, then values: n x (key + value) bytes and a little padding;
//    0 in core); leave h_scratch null to sort without it. It must not overlap the arrays. A
//    pageable scratch beside pinned arrays is used only in place (slower than none otherwise).
struct host_sort_storage {
  void* d_storage = nullptr;
  std::size_t device_bytes = 0;
  void* h_staging = nullptr;
  std::size_t staging_bytes = 0;
  void* h_scratch = nullptr;
  std::size_t scratch_bytes = 0;
};

// A host input or output that is not an array in memory: a file, a socket, a decompressor. The
// sort moves the array's bytes through host buffers of its own (pinned staging slots, or the host
// scratch): move(context, offset, buffer, bytes) reads the array's bytes [offset, offset + bytes)
// into `buffer` (an input) or writes them there from `buffer` (an output).
//  - offsets and sizes are whole items; the ranges of one pass are disjoint, and up to 8 threads
//    call at once (each on its own range).
//  - an input is read once, except out of core without a host scratch: once per counting level
//    and once more. An output range is written once; an output needs a scratch out of core (the
//    scratch-free path reads its output back).
//  - return 0, or a nonzero code (an errno, say) that stops the sort: the sort waits for the work
//    it started, keeps the first code in `error` and returns cudaErrorUnknown. Part of an output
//    may then be written.
struct host_stream_base {
  int (*move)(void* context, std::uint64_t offset, void* buffer, std::size_t bytes) = nullptr;
  void* context = nullptr;
  int error = 0;
};

// The same, for an array of T: the sort's overloads take the key and value types from it.
template <class T>
struct host_stream : host_stream_base {};

// Options of the convenience layer.
struct host_sort_options {
  std::size_t device_budget_bytes = 0;  // 0: free device memory, less 5 %
  void* host_scratch = nullptr;         // optional, as host_sort_storage::h_scratch
  std::size_t host_scratch_bytes = 0;
};

}  // namespace upsweep
