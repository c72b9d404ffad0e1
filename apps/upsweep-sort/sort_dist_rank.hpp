// One rank of upsweep-sort's sort across ranks, over an NCCL communicator: its slice copied to its
// GPU, sorted together with every other rank's (a collective call), its share copied back. Used
// by --gpus (one host thread a rank) and --distributed (one process a rank).
#pragma once

#include "sort_dist.hpp"

#include <upsweep/apps/gpu.hpp>

#include <nccl.h>

#include <cstdint>
#include <functional>

namespace upsweep::apps {

// A rank's input: `count` host items of the key type, the first of them item `first` of `total`.
struct rank_slice {
  const void* keys = nullptr;
  std::int64_t count = 0, first = 0, total = 0;
};

struct rank_result {
  number_array keys, indices;  // this rank's share of the sorted sequence (indices: global)
  rank_report report;
};

// How the ranks meet. all_ready(mine): true when every rank passed mine == true; the ranks meet
// there before every sort (the common start of the timing), and a rank that failed to set up says
// so instead, so that no rank waits in a collective for it. failed (may be empty: the process
// ends, as MPI_Abort does): this rank failed during a sort; the ranks that wait for it at the next
// meeting are woken and fail too. A rank still inside NCCL's collectives is not woken.
using agree_fn = std::function<bool(bool mine)>;
struct rank_meeting {
  agree_fn all_ready;
  std::function<void()> failed;
};

// Another rank failed; its own error says why.
struct peer_failure : gpu_error {
  using gpu_error::gpu_error;
};

// Every rank of `comm` calls it. The sort runs job.repeat times after an untimed first call; the
// report keeps the fastest. Throws gpu_error (CUDA, NCCL through the exchange), nccl_error, or
// peer_failure.
rank_result sort_rank(ncclComm_t comm, int device, element_type type, const rank_slice& slice, const dist_job& job,
                      const rank_meeting& meet);

}  // namespace upsweep::apps
