// upsweep_sort_reference: the CPU reference for upsweep-sort's end-to-end tests. Same input
// options and the same writers as the tool, but the order comes from std::stable_sort over the
// host key order (key_order.hpp, written apart from the library), so a byte comparison of the two
// outputs checks the GPU sort. Needs no GPU.
#include <upsweep/apps/input_source.hpp>
#include <upsweep/apps/key_order.hpp>
#include <upsweep/apps/tool_cli.hpp>
#include <upsweep/apps/write_numbers.hpp>

#include <cstdio>
#include <limits>
#include <string>
#include <vector>

using namespace upsweep::apps;

int main(int argc, char** argv) {
  input_spec spec;
  std::string bits, output, output_format;
  bool descending = false, pairs = false;
  CLI::App app{"upsweep_sort_reference: sort a file on the CPU as upsweep-sort does on the GPU (tests)."};
  add_input_options(app, spec);
  app.add_flag("--descending", descending);
  app.add_flag("--pairs", pairs);
  app.add_option("--bits", bits);
  app.add_option("-o,--output", output)->required();
  app.add_option("--output-format", output_format);
  // The tool's other options change nothing here. Those taking a value are declared, or their
  // value would be taken for an input file; flags (--verify, --json, --distributed) pass as extras.
  std::string ignored_algo, ignored_repeat, ignored_memory_limit, ignored_gpus;
  app.add_option("--algo", ignored_algo);
  app.add_option("--gpus", ignored_gpus);
  app.add_option("--repeat", ignored_repeat);
  app.add_option("--memory-limit", ignored_memory_limit);
  app.allow_extras();
  return run_tool("upsweep_sort_reference", app, argc, argv, [&] {
    sort_order order;
    order.descending = descending;
    if (!bits.empty()) {
      const std::size_t colon = bits.find(':');
      order.begin_bit = std::stoi(bits.substr(0, colon));
      order.end_bit = std::stoi(bits.substr(colon + 1));
    }
    const loaded_input in = load_input(spec, 100'000'000, pairs);
    const std::vector<std::uint64_t> permutation = reference_order(in.data, order);
    const number_array sorted = gather(in.data, permutation);
    number_array indices;
    if (permutation.size() <= std::numeric_limits<std::uint32_t>::max())
      indices = std::vector<std::uint32_t>(permutation.begin(), permutation.end());
    else
      indices = permutation;
    const file_format format = output_format_for(output, output_format, in);
    const bool named = !spec.column.empty() && spec.column.find_first_not_of("0123456789") != std::string::npos;
    const std::string key_name = named ? spec.column : (pairs ? "key" : "value");
    if (pairs && in.format == file_format::csv && format == file_format::csv)
      write_csv_rows(output, in.bytes, in.layout, indices);
    else if (pairs)
      write_pairs(output, sorted, indices, format, key_name);
    else
      write_numbers(output, sorted, format, key_name);
    return 0;
  });
}
