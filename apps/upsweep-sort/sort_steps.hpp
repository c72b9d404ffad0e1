// The steps of upsweep-sort that the single-GPU sort and the sort across ranks share: the bit
// window of --bits, the checks of a result, and writing it. Host C++ only.
#pragma once

#include <upsweep/apps/input_source.hpp>
#include <upsweep/apps/key_order.hpp>
#include <upsweep/apps/numbers.hpp>
#include <upsweep/apps/read_numbers.hpp>

#include <string>

namespace upsweep::apps {

// "B:E" -> [B, E) (empty: every bit); throws usage_error. The window against the key's width is
// checked by check_bits once the type is known.
sort_order parse_bits(const std::string& text, bool descending);
void check_bits(const std::string& text, const sort_order& order, element_type type);
std::string describe_order(const sort_order& order, element_type type);  // "ascending, bits 4:12"

// The CSV header of the sorted column: the --column name, else "key" (pairs) or "value".
std::string key_name_for(const std::string& column, bool pairs);

// Throws gpu_error("verification FAILED: ...") unless `sorted` is in order and holds the input's
// keys (with pairs: `indices` a permutation that maps each output item to its input item); what
// was checked, for the report.
std::string verify_result(const number_array& in, const number_array& sorted, const number_array& indices,
                   const sort_order& order, bool pairs);

// How the result goes out: whole CSV rows (--pairs, CSV in and out), keys with indices, or keys.
struct output_plan {
  std::string path;  // empty: not written; "-": stdout
  file_format format = file_format::binary;
  bool csv_rows = false, pairs = false;
  std::string key_name;
};
// Throws usage_error for binary pairs to stdout (two files cannot go there).
output_plan plan_output(const std::string& output, const std::string& format_option, const loaded_input& in,
                        bool pairs, const std::string& column);

// For the report: "keys", "keys with their input indices" or "CSV rows by key".
std::string what_is_sorted(const output_plan& plan);

// Writes through a temporary file renamed when complete, with a progress bar; its time in ms.
double write_result(const output_plan& plan, const loaded_input& in, const number_array& sorted,
                    const number_array& indices, bool progress);

}  // namespace upsweep::apps
