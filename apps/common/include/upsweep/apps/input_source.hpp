// The tools' input, from a file or generated: the options they share (`FILE`, `--generate N`,
// `--dist`, `--seed`, `--type`, `--input-format`, `--column`) turned into a typed array, with the
// time it took. Everything is read and checked here, before any CUDA call. Host C++ only.
#pragma once

#include <upsweep/apps/numbers.hpp>
#include <upsweep/apps/read_numbers.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace upsweep::apps {

// A mistake in the command line (exit 2), as opposed to bad data (input_error, exit 1).
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct input_spec {
  std::string path;      // empty: generated
  std::string generate;  // the count of --generate ("10k", "1Gi"); empty: the tool's demo count
  std::string dist = "uniform";
  std::uint64_t seed = 1;
  std::string type;    // empty: u32 generated, f64 text and CSV, the header's for .npy
  std::string format;  // empty: from the extension, else text
  std::string column;  // CSV
  bool progress = true;
};

struct loaded_input {
  number_array data;
  file_format format = file_format::binary;  // the file's; binary for generated data
  bool generated = false;
  std::string source;  // for the report: the path, or "generated uniform 100000000, seed 1"
  std::string bytes;   // the file's content, kept only for keep_csv_rows
  csv_layout layout;   // CSV rows, filled only for keep_csv_rows
  double read_ms = 0;
};

// Reads spec.path (or generates demo_count items when there is neither a path nor --generate).
// Throws input_error for bad data and usage_error for bad options.
loaded_input load_input(const input_spec& spec, std::int64_t demo_count, bool keep_csv_rows = false);

// The format of an output: `option` (--output-format) if given, else from the output's extension,
// else the input's; generated data written to stdout is text, to a file without a known
// extension binary.
file_format output_format_for(const std::string& output, const std::string& option, const loaded_input& in);

// n items split into `parts` slices that differ by at most one item: part p is
// [part_begin(n, parts, p), part_begin(n, parts, p + 1)).
inline std::int64_t part_begin(std::int64_t n, int parts, int part) {
  return n / parts * part + n % parts * part / parts;  // floor(n part / parts) without overflow
}

// Part `part` of `parts` of the raw binary file `path` of n `type` items, read at its offset (each
// rank of a sort across processes reads its own part); `total` gets n. Throws input_error as
// read_input does.
number_array read_binary_part(const std::string& path, element_type type, int part, int parts, std::int64_t& total);

// One file with a progress bar: `type` may be empty (f64 for text and CSV, the header's for .npy;
// binary needs one).
number_array read_input(const std::string& path, file_format format, const std::string& type, const std::string& column,
                        bool progress, csv_layout* layout = nullptr, std::string* keep_bytes = nullptr);

}  // namespace upsweep::apps
