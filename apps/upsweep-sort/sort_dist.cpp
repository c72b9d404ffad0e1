// upsweep-sort across ranks, the front (sort_dist.hpp): what this build can do, --gpus N end to
// end, and the checks both modes share. Host C++; the NCCL and MPI parts are called only where
// the build has them.
#include "sort_dist.hpp"

#include "sort_gpu.hpp"

#include <upsweep/apps/report.hpp>

#include <fmt/core.h>

#include <chrono>

namespace upsweep::apps {
namespace {

#ifdef UPSWEEP_TOOL_NCCL
int run_on_gpus(const dist_options& o) {
  // 1. Everything read before any CUDA call, as the single-GPU sort does.
  const loaded_input in = load_input(o.in, o.demo_items, o.pairs && !o.output.empty());
  const element_type type = type_of(in.data);
  check_bits(o.bits, o.order, type);
  const output_plan plan = plan_output(o.output, o.output_format, in, o.pairs, o.in.column);
  if (size_of(in.data) == 0) return finish_empty_input(plan, in, o);

  // 2. The sort across the GPUs, gathered; 3. the checks; 4. the output.
  dist_summary s;
  s.ranks_text = std::to_string(o.gpus) + (o.gpus == 1 ? " GPU" : " GPUs") + " of this host";
  s.source = in.source;
  s.what = what_is_sorted(plan);
  s.type = type;
  s.items = size_of(in.data);
  s.read_ms = in.read_ms;
  number_array sorted, indices;
  s.ranks = sort_on_gpus(o.gpus, in.data, {o.order, o.pairs, o.repeat}, sorted, indices, s.setup_ms, s.gather_ms);
  if (o.verify) {
    const auto t_verify = std::chrono::steady_clock::now();
    s.verify_detail = verify_across_ranks(in.data, sorted, indices, o);
    s.verify_ms = ms_since(t_verify);
  }
  s.write_ms = write_result(plan, in, sorted, indices, o.in.progress);
  print_dist_report(s, o);
  return 0;
}
#endif

}  // namespace

bool sorts_across_ranks(int gpus, bool distributed) {
#ifdef UPSWEEP_TOOL_NCCL
  return distributed || gpus > 0;
#else
  return distributed || gpus > 1;
#endif
}

std::string across_ranks_build() {
#if defined(UPSWEEP_TOOL_NCCL) && defined(UPSWEEP_TOOL_MPI)
  return "--gpus: with NCCL; --distributed: with NCCL and MPI";
#elif defined(UPSWEEP_TOOL_NCCL)
  return "--gpus: with NCCL; --distributed: without MPI";
#else
  return "--gpus: without NCCL; --distributed: without NCCL";
#endif
}

int run_across_ranks(const dist_options& o) {
  if (o.distributed && o.gpus > 0)
    throw usage_error("--gpus and --distributed exclude each other (--distributed: one GPU for each MPI rank)");
  if (o.distributed) {
#if defined(UPSWEEP_TOOL_NCCL) && defined(UPSWEEP_TOOL_MPI)
    return run_distributed(o);
#else
#ifdef UPSWEEP_TOOL_NCCL
    const char* missing = "MPI";
#else
    const char* missing = "NCCL";
#endif
    throw usage_error(std::string("--distributed: this upsweep-sort was built without ") + missing +
                      " (it needs NCCL and MPI where it is configured: see apps/README.md)");
#endif
  }
#ifdef UPSWEEP_TOOL_NCCL
  return run_on_gpus(o);
#else
  throw usage_error("--gpus " + std::to_string(o.gpus) +
                    ": this upsweep-sort was built without NCCL (it needs NCCL where it is configured: see "
                    "apps/README.md); --gpus 1 sorts on one GPU");
#endif
}

std::string verify_across_ranks(const number_array& input, const number_array& sorted, const number_array& indices,
                                const dist_options& o) {
  const std::string checked = verify_result(input, sorted, indices, o.order, o.pairs);
  sort_job job;
  job.order = o.order;
  job.pairs = o.pairs;
  number_array one_gpu, one_gpu_indices;
  run_sort(input, job, one_gpu, o.pairs ? &one_gpu_indices : nullptr);
  if (!same_bits(one_gpu, sorted) || (o.pairs && !same_bits(one_gpu_indices, indices)))
    throw gpu_error("verification FAILED: the sort across ranks differs from the single-GPU sort");
  return checked + ", identical to the single-GPU upsweep sort";
}

int finish_empty_input(const output_plan& plan, const loaded_input& in, const dist_options& o) {
  const number_array none = make_array(type_of(in.data));
  write_result(plan, in, none, number_array(std::vector<std::uint32_t>{}), false);
  std::FILE* report_to = o.output == "-" ? stderr : stdout;
  if (o.json)
    fmt::print(report_to,
               "{{\"tool\": \"upsweep-sort\", \"algo\": \"upsweep\", \"across_ranks\": true, \"type\": \"{}\", "
               "\"items\": 0, \"empty\": true, \"source\": {}}}\n",
               type_name(type_of(in.data)), json_string(in.source));
  else
    fmt::print(report_to, "upsweep-sort: empty input ({}): nothing to sort, the result is empty{}\n", in.source,
               o.output.empty() ? "" : " (written to " + o.output + ")");
  return 0;
}

}  // namespace upsweep::apps
