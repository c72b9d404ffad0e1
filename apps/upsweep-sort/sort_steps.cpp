// The steps upsweep-sort's two paths share (sort_steps.hpp).
#include "sort_steps.hpp"

#include <upsweep/apps/gpu.hpp>
#include <upsweep/apps/progress.hpp>
#include <upsweep/apps/report.hpp>
#include <upsweep/apps/write_numbers.hpp>

#include <charconv>
#include <chrono>

namespace upsweep::apps {

sort_order parse_bits(const std::string& text, bool descending) {
  sort_order order;
  order.descending = descending;
  if (text.empty()) return order;
  const auto bad = [&] {
    return usage_error("--bits '" + text + "': expected B:E, the bit window [B, E) of the ordered key, such as 0:16");
  };
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) throw bad();
  const auto number = [&](std::size_t first, std::size_t last) {
    int value = -1;
    const auto r = std::from_chars(text.data() + first, text.data() + last, value);
    if (r.ec != std::errc() || r.ptr != text.data() + last || first == last) throw bad();
    return value;
  };
  order.begin_bit = number(0, colon);
  order.end_bit = number(colon + 1, text.size());
  if (order.begin_bit > order.end_bit) throw usage_error("--bits " + text + ": B must not exceed E");
  return order;
}

void check_bits(const std::string& text, const sort_order& order, element_type type) {
  if (order.end_bit > key_bits(type))
    throw usage_error("--bits " + text + ": a " + type_name(type) + " key has " + std::to_string(key_bits(type)) + " bits");
}

std::string describe_order(const sort_order& order, element_type type) {
  const int end = order.end_bit < 0 ? key_bits(type) : order.end_bit;
  std::string s = order.descending ? "descending" : "ascending";
  if (order.begin_bit != 0 || end != key_bits(type))
    s += ", bits " + std::to_string(order.begin_bit) + ":" + std::to_string(end);
  return s;
}

std::string key_name_for(const std::string& column, bool pairs) {
  const bool index = !column.empty() && column.find_first_not_of("0123456789") == std::string::npos;
  return index || column.empty() ? (pairs ? "key" : "value") : column;
}

std::string verify_result(const number_array& in, const number_array& sorted, const number_array& indices,
                          const sort_order& order, bool pairs) {
  std::string problem = check_sorted(sorted, order);
  if (problem.empty()) problem = pairs ? check_pairs(in, sorted, indices, order) : check_permutation(in, sorted);
  if (!problem.empty()) throw gpu_error("verification FAILED: " + problem);
  return pairs ? "sorted, stable, indices a permutation with their keys" : "sorted, permutation checksum equal";
}

output_plan plan_output(const std::string& output, const std::string& format_option, const loaded_input& in,
                        bool pairs, const std::string& column) {
  output_plan plan;
  plan.path = output;
  plan.format = output_format_for(output, format_option, in);
  plan.pairs = pairs;
  plan.csv_rows = pairs && in.format == file_format::csv && plan.format == file_format::csv && !output.empty();
  plan.key_name = key_name_for(column, pairs);
  if (pairs && output == "-" && (plan.format == file_format::binary || plan.format == file_format::npy))
    throw usage_error("--pairs writes binary and .npy output as two files (keys, and indices in FILE.index); "
                      "give --output FILE or a text or CSV --output-format");
  return plan;
}

std::string what_is_sorted(const output_plan& plan) {
  return plan.pairs ? (plan.csv_rows ? "CSV rows by key" : "keys with their input indices") : "keys";
}

double write_result(const output_plan& plan, const loaded_input& in, const number_array& sorted,
                    const number_array& indices, bool progress) {
  if (plan.path.empty()) return 0;
  const auto t_write = std::chrono::steady_clock::now();
  progress_bar bar("writing " + plan.path, progress && plan.path != "-", true);
  const progress_fn show = [&](std::int64_t done, std::int64_t total) { bar.update(done, total); };
  if (plan.csv_rows) write_csv_rows(plan.path, in.bytes, in.layout, indices, show);
  else if (plan.pairs) write_pairs(plan.path, sorted, indices, plan.format, plan.key_name, show);
  else write_numbers(plan.path, sorted, plan.format, plan.key_name, show);
  return ms_since(t_write);
}

}  // namespace upsweep::apps
