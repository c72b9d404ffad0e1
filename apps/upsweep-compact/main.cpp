// upsweep-compact: keep the items of a file (or of generated data) that match a --where predicate
// or a --mask, on the GPU; or partition them, or count them. An input larger than the device budget
// is streamed through the GPU chunk by chunk. Everything the user gives is read and checked before
// the first CUDA call, so bad input fails the same with or without a GPU.
#include "compact_gpu.hpp"

#include <upsweep/apps/input_source.hpp>
#include <upsweep/apps/report.hpp>
#include <upsweep/apps/tool_cli.hpp>
#include <upsweep/apps/where_predicate.hpp>
#include <upsweep/apps/write_numbers.hpp>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using namespace upsweep::apps;
constexpr const char* program = "upsweep-compact";

struct options {
  input_spec in;
  std::string where, mask, output, output_format;
  bool unique = false, partition = false, count = false, verify = false, json = false;
  int repeat = 1;
  double memory_limit_gib = 0;
};

int run(const options& o) {
  if (o.unique)
    throw usage_error("--unique is not available yet (select-unique is planned in the compaction library)");
  if (o.partition && !o.mask.empty()) throw usage_error("--partition with --mask is not available yet; use --where");
  const bool demo = o.in.path.empty() && o.in.generate.empty();
  if (!demo && o.where.empty() && o.mask.empty()) throw usage_error("give --where PREDICATE or --mask FILE");
  compact_job job;
  job.mode = o.partition ? compact_mode::partition : o.count ? compact_mode::count : compact_mode::select;
  job.verify = o.verify;
  job.repeat = o.repeat;
  job.memory_limit_gib = o.memory_limit_gib;
  try {
    if (!o.where.empty()) job.where = parse_where(o.where);
    else if (o.mask.empty()) job.where = parse_where("odd");  // the no-argument demo
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }

  // 1. Read or generate everything, before any CUDA call.
  loaded_input loaded = load_input(o.in, 100'000'000);
  const number_array& in = loaded.data;
  const file_format in_format = loaded.format;
  const std::string& source = loaded.source;
  const auto t_mask = std::chrono::steady_clock::now();
  const std::int64_t n = size_of(in);
  std::vector<std::uint8_t> mask;
  if (!o.mask.empty()) {
    const file_format mf = format_from_path(o.mask, file_format::binary);
    number_array m = read_input(o.mask, mf, mf == file_format::binary ? "u8" : (mf == file_format::npy ? "" : "f64"), "",
                                o.in.progress);
    mask.resize(static_cast<std::size_t>(size_of(m)));
    std::visit([&](const auto& v) { for (std::size_t i = 0; i < v.size(); ++i) mask[i] = v[i] != 0; }, m);
    if (size_of(m) != n)
      throw input_error(o.mask, fmt::format("the mask has {} flags but the input has {} items", size_of(m), n));
    job.mask = &mask;
  }
  const double read_ms = loaded.read_ms + (o.mask.empty() ? 0.0 : ms_since(t_mask));

  // 2. The GPU.
  number_array out;
  const compact_report r = run_compaction(in, job, job.mode == compact_mode::count ? nullptr : &out);

  // 3. Output, through a temporary file renamed on success.
  double write_ms = 0;
  if (!o.output.empty()) {
    const auto t_write = std::chrono::steady_clock::now();
    const file_format of = !o.output_format.empty() ? parse_format_name(o.output_format) : format_from_path(o.output, in_format);
    const bool named_column = !o.in.column.empty() && (o.in.column.find_first_not_of("0123456789") != std::string::npos);
    write_numbers(o.output, out, of, named_column ? o.in.column : "value");
    write_ms = ms_since(t_write);
  }

  // 4. The report: stdout, unless the data went there.
  std::FILE* report_to = o.output == "-" ? stderr : stdout;
  const char* what = job.mode == compact_mode::partition ? "partitioned" : job.mode == compact_mode::count ? "counted" : "kept";
  const std::string rule = job.where ? describe(*job.where) : "mask " + o.mask;
  const double bytes_moved = static_cast<double>(n) * static_cast<double>(type_size(type_of(in))) +
                             static_cast<double>(job.mode == compact_mode::count ? 0 : r.count) *
                                 static_cast<double>(type_size(type_of(in)));
  const double items_per_s = r.compute_min_ms > 0 ? static_cast<double>(n) / (r.compute_min_ms * 1e-3) : 0;
  const double gb_per_s = r.compute_min_ms > 0 ? bytes_moved / (r.compute_min_ms * 1e-3) / 1e9 : 0;
  if (o.json) {
    fmt::print(report_to,
               "{{\"tool\": \"upsweep-compact\", \"mode\": \"{}\", \"where\": {}, \"type\": \"{}\", \"items\": {}, "
               "\"selected\": {}, \"read_ms\": {:.3f}, \"h2d_ms\": {:.3f}, \"compute_ms\": {:.4f}, "
               "\"compute_median_ms\": {:.4f}, \"repeat\": {}, \"d2h_ms\": {:.3f}, \"write_ms\": {:.3f}, "
               "\"items_per_s\": {:.6g}, \"gb_per_s\": {:.4g}, \"need_gib\": {:.3f}, \"free_gib\": {:.3f}, "
               "\"gpu\": {}, \"verified\": {}, \"chunks\": {}, \"chunk_items\": {}, \"budget_gib\": {:.3f}}}\n",
               what, json_string(rule), type_name(type_of(in)), n, r.count, read_ms, r.h2d_ms, r.compute_min_ms, r.compute_median_ms,
               r.chunks ? 1 : o.repeat, r.d2h_ms, write_ms, items_per_s, gb_per_s, r.need_gib, r.free_gib,
               json_string(r.device_name), r.verified ? "true" : "false", r.chunks, r.chunk_items, r.budget_gib);
  } else {
    const double pct = n ? 100.0 * static_cast<double>(r.count) / static_cast<double>(n) : 0.0;
    fmt::print(report_to, "{}: {} {} items of {} {} ({}){}: {} selected ({:.2f}%)\n", program, what, n,
               type_name(type_of(in)), source, rule, n == 0 ? " [empty input: nothing to do]" : "", r.count, pct);
    fmt::print(report_to, "  read      {:10.3f} ms\n", read_ms);
    if (r.chunks) {
      fmt::print(report_to,
                 "  stream    {:10.3f} ms  host to host, copies included: {} chunks of {} items{}  {:.3g} items/s  "
                 "{:.1f} GB/s\n",
                 r.compute_min_ms, r.chunks, r.chunk_items, o.repeat > 1 ? " (--repeat applies to in-memory runs only)" : "",
                 items_per_s, gb_per_s);
    } else {
      fmt::print(report_to, "  h2d       {:10.3f} ms\n", r.h2d_ms);
      fmt::print(report_to, "  compute   {:10.4f} ms  (min of {}, median {:.4f} ms)  {:.3g} items/s  {:.1f} GB/s\n",
                 r.compute_min_ms, o.repeat, r.compute_median_ms, items_per_s, gb_per_s);
      fmt::print(report_to, "  d2h       {:10.3f} ms\n", r.d2h_ms);
    }
    fmt::print(report_to, "  write     {:10.3f} ms{}\n", write_ms, o.output.empty() ? "  (no --output)" : "");
    if (r.chunks)
      fmt::print(report_to, "  gpu       {} (held {:.2f} GiB of a {:.2f} GiB budget{}, {:.2f} GiB free; {:.2f} GiB pinned staging)\n",
                 r.device_name, r.need_gib, r.budget_gib, o.memory_limit_gib > 0 ? " (--memory-limit)" : "", r.free_gib,
                 r.staging_gib);
    else
      fmt::print(report_to, "  gpu       {} (needed {:.2f} GiB of {:.2f} GiB free)\n", r.device_name, r.need_gib, r.free_gib);
    if (o.verify) fmt::print(report_to, "  verify    matches {}\n", r.verify_detail);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  CLI::App app{
      "upsweep-compact: keep the items that match a predicate (or a mask) on the GPU, or partition or count them.\n"
      "With no arguments: generate 100M uniform u32, keep the odd ones and report."};
  app.set_version_flag("--version", std::string("upsweep-compact (Upsweep ") + UPSWEEP_VERSION + ")");
  add_input_options(app, o.in);
  auto* where = app.add_option("--where", o.where,
                               "keep items that match: '> 100', '<= -3.5', '== 7', '!= 0', even, odd, finite, "
                               "'in [a,b)'");
  auto* mask = app.add_option("--mask", o.mask, "keep item i where flag i is non-zero (binary: one byte a flag; .npy, text)");
  where->excludes(mask);
  app.add_flag("--unique", o.unique, "keep the first of each run of equal items: NOT AVAILABLE YET");
  auto* partition = app.add_flag("--partition", o.partition, "stable partition: matching items first, the rest after, both in input order");
  auto* count = app.add_flag("--count", o.count, "only count the matching items");
  partition->excludes(count);
  auto* output = app.add_option("-o,--output", o.output, "write the result ('-' for stdout); written to a temporary file, renamed when complete");
  count->excludes(output);
  app.add_option("--output-format", o.output_format, "output format (default: from the extension, else the input's)")
      ->check(CLI::IsMember(format_names_list));
  app.add_option("--memory-limit", o.memory_limit_gib,
                 "use at most this many GiB of device memory; a larger input is streamed through in chunks")
      ->check(CLI::PositiveNumber);
  app.add_flag("--verify", o.verify, "compare with Thrust (copy_if, stable_partition, count_if) on the GPU");
  app.add_flag("--json", o.json, "print the report as one JSON object");
  app.add_option("--repeat", o.repeat, "run the GPU work K times; report the fastest and the median")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  add_progress_option(app, o.in);
  return run_tool(program, app, argc, argv, [&] { return run(o); });
}
