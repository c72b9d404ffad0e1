// The command-line surface the tools share (header-only; the tools link CLI11 and fmt): the input
// options, and main()'s frame that maps errors to GNU-style messages and exit codes (0 ok, 1 bad
// input or a GPU problem, 2 usage).
#pragma once

#include <upsweep/apps/gpu.hpp>
#include <upsweep/apps/input_source.hpp>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace upsweep::apps {

inline const std::vector<std::string> type_names_list = {"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64"};
inline const std::vector<std::string> format_names_list = {"binary", "npy", "text", "csv"};

// FILE, --generate, --dist, --seed, --type, --input-format, --column, --no-progress.
inline void add_input_options(CLI::App& app, input_spec& spec) {
  auto* input = app.add_option("input", spec.path,
                               "input file, '-' for stdin: .npy, .csv, .txt (one value a line, # comments) or raw "
                               "little-endian binary (.bin, .raw, or --input-format binary --type T)");
  auto* generate = app.add_option("--generate", spec.generate,
                                  "generate N items instead (10k, 4M, 1G: powers of 1000; 64Ki, 1Gi: of 1024)");
  input->excludes(generate);
  app.add_option("--dist", spec.dist, "distribution of --generate")
      ->check(CLI::IsMember({"uniform", "normal", "sorted", "reverse", "few-unique", "zipf", "all-equal"}))
      ->capture_default_str();
  app.add_option("--seed", spec.seed, "seed of --generate")->capture_default_str();
  app.add_option("--type", spec.type, "element type (default: u32 generated, f64 text/CSV, from the header for .npy)")
      ->check(CLI::IsMember(type_names_list));
  app.add_option("--input-format", spec.format, "input format (default: from the extension, else text)")
      ->check(CLI::IsMember(format_names_list));
  app.add_option("--column", spec.column, "CSV column: a header name or an index counted from 0 (header row detected)");
}

inline void add_progress_option(CLI::App& app, input_spec& spec) {
  app.add_flag_callback("--no-progress", [&spec] { spec.progress = false; },
                        "no progress bar (it is drawn only when stderr is a terminal)");
}

// Parses the command line and runs body(), turning every failure into `program: message` on
// stderr and an exit code.
template <class Body>
int run_tool(const char* program, CLI::App& app, int argc, char** argv, Body&& body) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;  // usage errors exit 2, as getopt programs do; --help and --version exit 0
  }
  try {
    return body();
  } catch (const usage_error& e) {
    fmt::print(stderr, "{}: {}\nRun with --help for more information.\n", program, e.what());
    return 2;
  } catch (const std::exception& e) {  // input_error, gpu_error and the rest: the message is complete
    fmt::print(stderr, "{}: {}\n", program, e.what());
    return 1;
  }
}

}  // namespace upsweep::apps
