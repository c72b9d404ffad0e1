// upsweep-sort: sort the numbers of a file (or generated ones) on the GPU with Upsweep's radix
// sort, or CUB's or Thrust's to compare; keys alone or with their input order (whole CSV rows).
// Everything the user gives is read and checked before the first CUDA call, so bad input fails
// the same with or without a GPU; an empty input is sorted without one.
#include "sort_dist.hpp"
#include "sort_gpu.hpp"
#include "sort_steps.hpp"

#include <upsweep/apps/input_source.hpp>
#include <upsweep/apps/key_order.hpp>
#include <upsweep/apps/report.hpp>
#include <upsweep/apps/tool_cli.hpp>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace upsweep::apps;
constexpr const char* program = "upsweep-sort";
constexpr std::int64_t demo_items = 100'000'000;

struct options {
  input_spec in;
  std::string bits, output, output_format;
  sort_algo algo = sort_algo::upsweep;
  bool descending = false, pairs = false, verify = false, json = false;
  int repeat = 1;
  double memory_limit_gib = 0;
  int gpus = 0;              // --gpus N
  bool distributed = false;  // --distributed
};

// --gpus and --distributed: Upsweep's sort across ranks, in core on every GPU.
dist_options across_ranks(const options& o, const sort_order& order) {
  if (o.algo != sort_algo::upsweep)
    throw usage_error("--algo " + std::string(algo_name(o.algo)) +
                      " sorts on one GPU: not available with --gpus or --distributed");
  if (o.memory_limit_gib > 0) throw usage_error("--memory-limit is not available with --gpus or --distributed");
  dist_options d;
  d.in = o.in;
  d.bits = o.bits;
  d.output = o.output;
  d.output_format = o.output_format;
  d.order = order;
  d.pairs = o.pairs;
  d.verify = o.verify;
  d.json = o.json;
  d.repeat = o.repeat;
  d.demo_items = demo_items;
  d.gpus = o.gpus;
  d.distributed = o.distributed;
  return d;
}

// A binary file to a binary file, keys alone, no verification: streamed through the host sort
// (read into its pinned staging, written from it; the common case, and the fastest path).
bool is_file_to_file(const options& o, file_format& format) {
  if (o.in.path.empty() || o.in.path == "-" || o.output.empty() || o.output == "-" || o.in.type.empty()) return false;
  if (o.algo != sort_algo::upsweep || o.pairs || o.verify || o.repeat != 1) return false;
  try {
    format = o.in.format.empty() ? format_from_path(o.in.path, file_format::text) : parse_format_name(o.in.format);
    const file_format out = o.output_format.empty() ? format_from_path(o.output, format) : parse_format_name(o.output_format);
    return format == file_format::binary && out == file_format::binary;
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
}

int run_file_to_file(const options& o, const sort_order& order) {
  element_type type{};
  try {
    type = parse_type_name(o.in.type);
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
  check_bits(o.bits, order, type);
  sort_job job;
  job.order = order;
  job.memory_limit_gib = o.memory_limit_gib;
  file_sort_times t;
  const sort_report r = sort_binary_file(o.in.path, o.output, type, job, t);
  const double bytes = static_cast<double>(t.items) * type_size(type);
  const double total_ms = t.open_ms + r.setup_ms + r.host_sort_min_ms + t.publish_ms;
  const auto gb_per_s = [](double b, double ms) { return ms > 0 ? b / (ms * 1e6) : 0.0; };
  if (o.json) {
    fmt::print("{{\"tool\": \"upsweep-sort\", \"algo\": \"upsweep\", \"type\": \"{}\", \"items\": {}, \"source\": {}, "
               "\"file_to_file\": true, \"open_ms\": {:.3f}, \"setup_ms\": {:.3f}, \"context_ms\": {:.3f}, "
               "\"first_call_ms\": {:.3f}, \"host_sort_ms\": {:.3f}, "
               "\"in_core\": {}, \"budget_gib\": {:.4f}, \"publish_ms\": {:.3f}, \"total_ms\": {:.3f}, "
               "\"peak_device_gib\": {:.4f}, \"gpu\": {}}}\n",
               type_name(type), t.items, json_string(o.in.path), t.open_ms, r.setup_ms, r.context_ms, r.first_call_ms,
               r.host_sort_min_ms,
               r.in_core ? "true" : "false", r.budget_gib, t.publish_ms, total_ms,
               static_cast<double>(r.peak_bytes) / bytes_per_gib, json_string(r.device_name));
    return 0;
  }
  fmt::print("{}: sorted {} {} keys ({}), {}, upsweep, file to file\n", program, t.items,
             type_name(type), o.in.path, describe_order(order, type));
  fmt::print("  open      {:10.3f} ms  (the input opened, the output file's blocks reserved)\n", t.open_ms);
  fmt::print("  setup     {:10.3f} ms  (CUDA context {:.1f}; device storage, pinned staging and first call {:.1f}, "
             "the first call alone {:.1f})\n",
             r.setup_ms, r.context_ms, r.setup_ms - r.context_ms, r.first_call_ms);
  fmt::print("  sort      {:10.3f} ms  file to file: read, sorted and written in pieces, {} (device budget {:.2f} GiB), "
             "{:.2f} GB/s of keys\n",
             r.host_sort_min_ms, r.host_path, r.budget_gib,
             gb_per_s(bytes, r.host_sort_min_ms));
  fmt::print("  publish   {:10.3f} ms  (closed and renamed to {})\n", t.publish_ms, o.output);
  fmt::print("  total     {:10.3f} ms  {:.3f} Gkeys/s end to end\n", total_ms,
             total_ms > 0 ? static_cast<double>(t.items) / (total_ms * 1e6) : 0.0);
  fmt::print("  memory    {:.3f} GiB peak on the device\n", static_cast<double>(r.peak_bytes) / bytes_per_gib);
  fmt::print("  gpu       {}\n", r.device_name.empty() ? "(not used: empty input)" : r.device_name);
  return 0;
}

int run(const options& o) {
  const bool demo = o.in.path.empty() && o.in.generate.empty();
  sort_order order = parse_bits(o.bits, o.descending);
  if (o.algo == sort_algo::thrust && !o.bits.empty()) throw usage_error("--bits is not available with --algo thrust");
  if (sorts_across_ranks(o.gpus, o.distributed)) return run_across_ranks(across_ranks(o, order));
  file_format file_format_in{};
  if (is_file_to_file(o, file_format_in)) return run_file_to_file(o, order);

  // 1. Read or generate everything, before any CUDA call.
  const bool csv_rows_wanted = o.pairs && !o.output.empty();
  loaded_input in = load_input(o.in, demo_items, csv_rows_wanted);
  const element_type type = type_of(in.data);
  const std::int64_t n = size_of(in.data);
  check_bits(o.bits, order, type);
  const output_plan out = plan_output(o.output, o.output_format, in, o.pairs, o.in.column);

  // 2. The GPU (not for an empty input: its result is empty).
  sort_job job;
  job.algo = o.algo;
  job.order = order;
  job.pairs = o.pairs;
  job.compare_with_cub = o.verify || demo;
  job.time_device_sort = o.verify || demo || o.repeat > 1;
  job.repeat = o.repeat;
  job.memory_limit_gib = o.memory_limit_gib;
  number_array sorted = make_array(type), indices = o.pairs ? number_array(std::vector<std::uint32_t>{}) : number_array{};
  sort_report r;
  if (n > 0) r = run_sort(in.data, job, sorted, o.pairs ? &indices : nullptr);

  // 3. The checks on the host: sorted, and a permutation of the input (by checksum, or by index).
  std::string verify_detail;
  double verify_ms = 0;
  if (job.compare_with_cub) {
    const auto t_verify = std::chrono::steady_clock::now();
    verify_detail = verify_result(in.data, sorted, indices, order, o.pairs);
    verify_ms = ms_since(t_verify);
    if (r.compared_with_cub) verify_detail += ", identical to cub::DeviceRadixSort";
    else if (o.algo == sort_algo::cub) verify_detail += " (the sort is CUB's: no second CUB run)";
    else if (n == 0) verify_detail += " (empty)";
  }

  // 4. Output, through a temporary file renamed on success.
  const double write_ms = write_result(out, in, sorted, indices, o.in.progress);

  // 5. The report: stdout, unless the data went there.
  std::FILE* report_to = o.output == "-" ? stderr : stdout;
  const double key_bytes = static_cast<double>(n) * type_size(type);
  const double keys_per_s = r.sort_min_ms > 0 ? static_cast<double>(n) / (r.sort_min_ms * 1e-3) : 0;
  const double host_keys_per_s = r.host_sort_min_ms > 0 ? static_cast<double>(n) / (r.host_sort_min_ms * 1e-3) : 0;
  const double sort_ms = r.host_sort ? r.host_sort_min_ms : r.h2d_ms + r.sort_min_ms + r.d2h_ms;
  const double total_ms = in.read_ms + sort_ms + verify_ms + write_ms;
  const double end_to_end_keys_per_s = total_ms > 0 ? static_cast<double>(n) / (total_ms * 1e-3) : 0;
  const double peak_gib = static_cast<double>(r.peak_bytes) / bytes_per_gib;
  const int end_bit = order.end_bit < 0 ? key_bits(type) : order.end_bit;
  const std::string what = what_is_sorted(out);
  const auto gb_per_s = [](double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e6) : 0.0; };
  if (o.json) {
    fmt::print(report_to,
               "{{\"tool\": \"upsweep-sort\", \"algo\": \"{}\", \"type\": \"{}\", \"items\": {}, \"empty\": {}, "
               "\"source\": {}, \"pairs\": {}, \"index_type\": \"{}\", \"descending\": {}, \"begin_bit\": {}, "
               "\"end_bit\": {}, \"read_ms\": {:.3f}, \"setup_ms\": {:.3f}, \"host_sort_ms\": {:.3f}, "
               "\"host_sort_median_ms\": {:.3f}, \"in_core\": {}, \"budget_gib\": {:.4f}, \"h2d_ms\": {:.3f}, "
               "\"sort_ms\": {:.4f}, \"sort_median_ms\": {:.4f}, \"repeat\": {}, \"d2h_ms\": {:.3f}, "
               "\"verify_ms\": {:.3f}, \"write_ms\": {:.3f}, \"total_ms\": {:.3f}, \"keys_per_s\": {:.6g}, "
               "\"host_keys_per_s\": {:.6g}, \"end_to_end_keys_per_s\": {:.6g}, \"peak_device_gib\": {:.4f}, "
               "\"need_gib\": {:.4f}, \"free_gib\": {:.3f}, \"gpu\": {}, \"verified\": {}, \"compared_with_cub\": {}}}\n",
               algo_name(o.algo), type_name(type), n, n == 0 ? "true" : "false", json_string(in.source),
               o.pairs ? "true" : "false", r.index_type, order.descending ? "true" : "false", order.begin_bit, end_bit,
               in.read_ms, r.setup_ms, r.host_sort_min_ms, r.host_sort_median_ms, r.in_core ? "true" : "false",
               r.budget_gib, r.h2d_ms, r.sort_min_ms, r.sort_median_ms, o.repeat, r.d2h_ms, verify_ms, write_ms,
               total_ms, keys_per_s, host_keys_per_s, end_to_end_keys_per_s, peak_gib, r.need_gib, r.free_gib,
               json_string(r.device_name), job.compare_with_cub ? "true" : "false", r.compared_with_cub ? "true" : "false");
    return 0;
  }
  if (n == 0) {
    fmt::print(report_to, "{}: empty input ({}): nothing to sort, the result is empty{}\n", program, in.source,
               o.output.empty() ? "" : " (written to " + o.output + ")");
    return 0;
  }
  fmt::print(report_to, "{}: sorted {} {} {} ({}), {}, {}\n", program, n, type_name(type), what, in.source,
             describe_order(order, type), algo_name(o.algo));
  fmt::print(report_to, "  read      {:10.3f} ms  {:.2f} GB/s\n", in.read_ms, gb_per_s(key_bytes, in.read_ms));
  if (r.host_sort) {
    fmt::print(report_to, "  setup     {:10.3f} ms  (CUDA context, device storage, pinned staging, first call: untimed below)\n",
               r.setup_ms);
    fmt::print(report_to, "  sort      {:10.3f} ms  host to host, {} (device budget {:.2f} GiB), {:.2f} GB/s of keys, "
               "{:.3f} Gkeys/s  (min of {}, median {:.3f} ms)\n",
               r.host_sort_min_ms, r.host_path, r.budget_gib,
               gb_per_s(key_bytes, r.host_sort_min_ms), host_keys_per_s / 1e9, o.repeat, r.host_sort_median_ms);
  }
  if (r.device_sort_timed || !r.host_sort) {
    fmt::print(report_to, "  gpu sort  {:10.4f} ms  on the device alone, {:.3f} Gkeys/s{}  (min of {}, median {:.4f} ms, "
               "after an untimed first call)\n",
               r.sort_min_ms, keys_per_s / 1e9, o.pairs ? fmt::format(" with {} indices", r.index_type) : "", o.repeat,
               r.sort_median_ms);
    fmt::print(report_to, "  h2d, d2h  {:10.3f} ms, {:.3f} ms  ({:.2f} and {:.2f} GB/s of keys, pageable memory)\n", r.h2d_ms,
               r.d2h_ms, gb_per_s(key_bytes, r.h2d_ms), gb_per_s(key_bytes, r.d2h_ms));
  } else {
    fmt::print(report_to, "  gpu sort  not timed alone ({})\n",
               r.in_core ? "--repeat, --verify or the demo time it" : "the keys do not fit the device budget");
  }
  if (job.compare_with_cub) fmt::print(report_to, "  verify    {}\n", verify_detail);
  fmt::print(report_to, "  write     {:10.3f} ms{}\n", write_ms,
             o.output.empty() ? "  (no --output)" : fmt::format("  {:.2f} GB/s", gb_per_s(key_bytes, write_ms)));
  fmt::print(report_to, "  total     {:10.3f} ms  read, sort, verify and write: {:.3f} Gkeys/s end to end\n", total_ms,
             end_to_end_keys_per_s / 1e9);
  fmt::print(report_to, "  memory    {:.3f} GiB peak on the device ({:.2f} GiB free)\n", peak_gib, r.free_gib);
  fmt::print(report_to, "  gpu       {}\n", r.device_name);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  CLI::App app{
      "upsweep-sort: sort numbers on the GPU with Upsweep's radix sort (or CUB's or Thrust's, to compare).\n"
      "With no arguments: generate 100M uniform u32, sort them, verify against CUB and report."};
  app.set_version_flag("--version",
                       std::string("upsweep-sort (Upsweep ") + UPSWEEP_VERSION + "; " + across_ranks_build() + ")");
  add_input_options(app, o.in);
  app.add_flag("--descending", o.descending, "largest first (equal keys still keep their input order)");
  app.add_flag("--pairs", o.pairs,
               "sort keys with their input indices: a CSV input written as CSV keeps whole rows, sorted by the key "
               "column; otherwise the output is key and index (CSV 'key,index', text 'key index', binary/.npy: "
               "the indices as u64 in FILE.index)");
  app.add_option("--bits", o.bits, "sort by the bits [B, E) of the ordered key only, B:E (such as 0:16)");
  app.add_option("-o,--output", o.output,
                 "write the result ('-' for stdout); written to a temporary file, renamed when complete");
  app.add_option("--output-format", o.output_format, "output format (default: from the extension, else the input's)")
      ->check(CLI::IsMember(format_names_list));
  app.add_flag("--verify", o.verify,
               "check the result: sorted, a permutation of the input (checksum, or the indices), and identical to "
               "cub::DeviceRadixSort on the GPU (always on with no input and no --generate); with --gpus or "
               "--distributed: identical to the single-GPU Upsweep sort");
  std::string algo = "upsweep";
  app.add_option("--algo", algo, "the sort to run: upsweep, cub (cub::DeviceRadixSort) or thrust (thrust::stable_sort)")
      ->check(CLI::IsMember({"upsweep", "cub", "thrust"}))
      ->capture_default_str()
      ->each([&o](const std::string& name) {
        o.algo = name == "cub" ? sort_algo::cub : name == "thrust" ? sort_algo::thrust : sort_algo::upsweep;
      });
  app.add_option("--repeat", o.repeat, "sort K times; report the fastest and the median")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_option("--memory-limit", o.memory_limit_gib,
                 "use at most GIB of device memory (default: 95 % of what is free); Upsweep sorts data larger than "
                 "that out of core, through the device in parts")
      ->check(CLI::Range(0.0, 1e6));
  app.add_option("--gpus", o.gpus,
                 "sort across N GPUs of this host (devices 0 to N-1, one NCCL rank and host thread each): the input "
                 "split into N equal slices, sorted by Upsweep's sort across ranks, gathered in rank order (needs a "
                 "build with NCCL; without it --gpus 1 sorts on one GPU)")
      ->check(CLI::Range(1, 1024));
  app.add_flag("--distributed", o.distributed,
               "one rank per MPI process: mpirun -np N upsweep-sort --distributed ...; rank r sorts on GPU (its local "
               "rank mod the GPUs of its host) and reads its slice of a binary file at its offset (other inputs: "
               "every rank reads all); rank 0 gathers the result for --output and --verify and prints every rank's "
               "report (needs a build with NCCL and MPI)");
  app.add_flag("--json", o.json, "print the report as one JSON object");
  add_progress_option(app, o.in);
  return run_tool(program, app, argc, argv, [&] { return run(o); });
}
