// upsweep-sort across ranks: --gpus N (the GPUs of this host, one thread each) and --distributed
// (one rank per MPI process). The plain C++ surface main.cpp and the report see; the NCCL and MPI
// parts behind it are compiled only in a build that has them (UPSWEEP_TOOL_NCCL, UPSWEEP_TOOL_MPI).
#pragma once

#include "sort_steps.hpp"

#include <upsweep/apps/input_source.hpp>
#include <upsweep/apps/key_order.hpp>
#include <upsweep/apps/numbers.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace upsweep::apps {

struct dist_options {
  input_spec in;
  std::string bits, output, output_format;
  sort_order order;
  bool pairs = false, verify = false, json = false;
  int repeat = 1;
  std::int64_t demo_items = 0;  // generated when there is neither a file nor --generate
  int gpus = 0;              // --gpus N
  bool distributed = false;  // --distributed
};

// True when the sort across ranks runs the job: --distributed, --gpus N > 1, and --gpus 1 in a
// build with NCCL (a build without it sorts --gpus 1 on one GPU, the usual way).
bool sorts_across_ranks(int gpus, bool distributed);

// What this build can do across ranks, for --version (the tests read it): "--gpus: with NCCL;
// --distributed: with NCCL and MPI", or "without NCCL", "without MPI".
std::string across_ranks_build();

// The whole run across ranks: read, sort, check, write, report; the exit code. Throws usage_error
// for what this build cannot do (--gpus N > 1 without NCCL, --distributed without NCCL and MPI).
int run_across_ranks(const dist_options& o);

// ---- the parts ---------------------------------------------------------------------------------

struct dist_job {
  sort_order order;
  bool pairs = false;
  int repeat = 1;
};

// One rank's account. Plain data: --distributed gathers it over MPI as bytes.
struct rank_report {
  int rank = 0, device = 0;
  char host[64] = {};
  char device_name[256] = {};  // cudaDeviceProp::name's size
  std::int64_t items_in = 0, items_out = 0;
  std::uint64_t bytes_sent = 0;  // keys and indices this rank sent to other ranks in the exchange
  double read_ms = 0;            // --distributed: this rank's read of its input
  double setup_ms = 0;           // the communicator (--distributed), device memory, the copy in
  double wall_ms = 0;            // host clock, from the ranks' common start to this rank's end
  double local_sort_ms = 0, plan_ms = 0, exchange_ms = 0, merge_ms = 0;  // its events, same run
  double copy_out_ms = 0;
  double device_gib = 0;  // device memory this rank held
};
static_assert(std::is_trivially_copyable_v<rank_report>);

// --gpus N: keys split over devices 0..N-1, sorted across them, gathered in rank order into
// `sorted` (and `indices`, u32 below 2^32 items, else u64). Adds the communicators' set-up to
// setup_ms and the copies back to gather_ms. Throws usage_error when N exceeds the devices.
std::vector<rank_report> sort_on_gpus(int gpus, const number_array& keys, const dist_job& job, number_array& sorted,
                                      number_array& indices, double& setup_ms, double& gather_ms);

// --distributed: the whole run on this MPI rank (it calls MPI_Init and MPI_Finalize).
int run_distributed(const dist_options& o);

// --verify: verify_result, then the single-GPU Upsweep sort of the same input, bit for bit; what
// was checked, for the report.
std::string verify_across_ranks(const number_array& input, const number_array& sorted, const number_array& indices,
                                const dist_options& o);

// What the report prints: the summary, each rank, the phases.
struct dist_summary {
  std::string ranks_text;  // "2 GPUs of this host" or "4 MPI ranks"
  std::string source, what;
  element_type type = element_type::u32;
  std::int64_t items = 0;
  std::vector<rank_report> ranks;
  double read_ms = 0, setup_ms = 0, gather_ms = 0, verify_ms = 0, write_ms = 0;
  std::string verify_detail;  // empty: not verified
};
void print_dist_report(const dist_summary& s, const dist_options& o);

// An empty input needs no GPU: the empty result written (a header for CSV) and the usual line.
int finish_empty_input(const output_plan& plan, const loaded_input& in, const dist_options& o);

}  // namespace upsweep::apps
