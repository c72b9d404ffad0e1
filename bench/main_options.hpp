// upsweep-bench's command line: the usage text and its own options (the rows chosen, the reports
// asked for), parsed apart from Google Benchmark's flags, which pass through.
#pragma once

#include "bench_support.cuh"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace upsweep::bench::cli {

const char* const usage = R"(upsweep-bench: Upsweep against CUB, Thrust and a device copy of the same bytes
(Google Benchmark; CUDA-event times, L2 flushed before every iteration).

Usage: upsweep-bench [OPTIONS] [GOOGLE BENCHMARK FLAGS]

Rows are named suite/case/impl/n, e.g. core/inclusive_sum_i32/cub/1000000.
  --suite LIST     core, seeds, sort, compact, histogram, topk, segsort, host, dist, tune or all,
                   comma-separated; all is the five on-device comparative suites (topk, segsort,
                   host, dist and tune run only when named; topk: the k largest of 2^20, 2^26, 2^28
                   f32 and bf16 keys; segsort: segmented
                   sorts of 10^6 segments of 32 and 1000 items, 100 of 10^6, and rows; host: host-to-host
                   sorts of 2^28 and 2^32 items, up to 64 GB of host memory; dist: the sort across
                   1..8 logical ranks on one GPU). Without --suite every row
                   is registered and --benchmark_filter alone chooses. CUB 3.5's rows (core,
                   sort, compact, histogram, topk) come from upsweep-bench-cub35: when it lies
                   beside this program it runs after it on the same selection and flags
  --sizes LIST     comma-separated: a value (1000, 1e6, 2^28, 64k, 16M, 1G, 4Mi) runs every selected
                   row at exactly that n; a range A..B keeps each row's own sizes that lie inside it
                   (core, seeds: 1e2..1e9; compact: 1e2..1e8, 1e9 for the headline cases; sort: 2^16,
                   2^20, 2^24, 2^28, 2^30; host: 2^28, 2^32; dist: 2^24, 2^26, 2^28; histogram: 2^24, 2^28 (8-bit samples: 2^28, 2^30); tune:
                   1e8, 1e9 or the histogram sizes)
  --types LIST     keep only these element types: u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 bf16, comma-separated
                   (a row's type is its key or item type, pairs go by the key; seeds are i32)

Output (the JSON is Google Benchmark's; the rest is made from it by bench/report.py, python3).
After the run, without --markdown: the issues' bars, met or missed, and the rows behind CUB.
  --json FILE      write the JSON (= --benchmark_out=FILE --benchmark_out_format=json); CUB 3.5's
                   rows go to FILE without .json, plus .cub35.json
  --markdown FILE  markdown tables: median ms, throughput relative to CUB, fraction of copy GB/s,
                   the seed ladders, the issues' bars ('-' or left out: stdout, after the run)
  --csv FILE       one line per row: suite,case,impl,n,median_ms,gb_per_s,ratio_to_cub,error
  --plot DIR       PNG charts of GB/s against n (log x), one per case: Upsweep, CUB, Thrust and the
                   copy roofline; the seed ladders log-log. Needs matplotlib (python3-matplotlib):
                   checked before anything runs
  --headline FILE  the README's performance table (a fixed set of rows) with its caption: GPU,
                   date, commit, CUB versions
  --no-cub35       do not run upsweep-bench-cub35
  upsweep-bench runs report.py on the JSON after the run: the source tree's bench/report.py, else
  the copy beside this program, or $UPSWEEP_BENCH_REPORT; the interpreter is $UPSWEEP_PYTHON,
  default python3 (without them the bar table is left out, with a note). Without --json or
  --benchmark_out, the JSON goes to a temporary file, removed afterwards. For a saved JSON:
  tools/bench-report.sh FILE.json [FILE.cub35.json].

  --help           this text, then Google Benchmark's flags (--benchmark_repetitions=N,
                   --benchmark_report_aggregates_only=true, --benchmark_list_tests, ...)

Examples:
  upsweep-bench --suite all --json run.json --headline headline.md   (the README's table)
  upsweep-bench --suite core --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
                --json core.json --markdown core.md --csv core.csv --plot charts/
  upsweep-bench --suite sort --sizes 2^24..2^28 --types u32,f32
  upsweep-bench --suite seeds,core --sizes 1e2..1e6 --benchmark_list_tests   (no GPU needed)

Environment: UPSWEEP_BENCH_MAX_EXP caps the 10^k sizes, UPSWEEP_BENCH_MAX_LOG2 the sort sizes,
UPSWEEP_BENCH_MIN_TIME (seconds) each row's minimum time per repetition (rows ask 0.1 to 0.25).
)";

const char* const suites[] = {"core", "seeds", "sort", "compact", "histogram", "topk", "segsort", "host", "dist", "tune"};
const char* const types[] = {"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64", "bf16"};

struct usage_error {
  std::string message;
};

struct options {
  row_selection selection;
  std::optional<std::string> json, markdown, csv, plot, headline;
  bool help = false, no_cub35 = false;
  std::vector<std::string> benchmark_args;  // argv[0] and the flags for Google Benchmark
  std::vector<std::string> cub35_args;      // what upsweep-bench-cub35 gets: the selection, the flags

  bool wants_files() const { return markdown || csv || plot || headline; }
};

inline std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = text.find(',', begin);
    const std::string item = text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    if (!item.empty()) items.push_back(item);
    if (end == std::string::npos) return items;
    begin = end + 1;
  }
}

// "1000", "1e6", "2.5e6", "2^28", "64k", "16M", "1G" (powers of 1000), "4Ki", "4Mi", "1Gi" (of 1024).
inline std::optional<std::int64_t> parse_size(std::string text) {
  long double scale = 1;
  static const struct { const char* name; long double scale; } suffixes[] = {
      {"Ki", 1024.0L}, {"Mi", 1048576.0L}, {"Gi", 1073741824.0L}, {"k", 1e3L}, {"M", 1e6L}, {"G", 1e9L}};
  for (const auto& s : suffixes) {
    const std::size_t len = std::strlen(s.name);
    if (text.size() > len && text.compare(text.size() - len, len, s.name) == 0) {
      text.resize(text.size() - len);
      scale = s.scale;
      break;
    }
  }
  if (text.empty() || text.find_first_not_of("0123456789.e^") != std::string::npos) return std::nullopt;
  long double value = 0;
  const std::size_t caret = text.find('^');
  try {
    std::size_t used = 0;
    if (caret != std::string::npos) {
      const std::string base = text.substr(0, caret), exponent = text.substr(caret + 1);
      if (base.empty() || exponent.empty() || base.find_first_not_of("0123456789") != std::string::npos ||
          exponent.find_first_not_of("0123456789") != std::string::npos || exponent.size() > 3)
        return std::nullopt;
      value = std::pow(static_cast<long double>(std::stoll(base)), static_cast<long double>(std::stoi(exponent)));
    } else {
      value = std::stold(text, &used);
      if (used != text.size()) return std::nullopt;
    }
  } catch (const std::exception&) {
    return std::nullopt;
  }
  value *= scale;
  constexpr long double largest = 1099511627776.0L;  // 2^40 items: beyond any GPU's memory
  if (!(value >= 1 && value <= largest) || std::fabs(value - std::round(value)) > 1e-6L) return std::nullopt;
  return static_cast<std::int64_t>(std::llround(value));
}

inline void add_sizes(row_selection& sel, const std::string& list) {
  const auto bad = [](const std::string& item) {
    return usage_error{"--sizes: '" + item + "' is not a size or a range (examples: 1000, 1e6, 2^28, 16M, 1e3..1e6)"};
  };
  const std::vector<std::string> items = split_list(list);
  if (items.empty()) throw usage_error{"--sizes: empty list"};
  for (const std::string& item : items) {
    const std::size_t dots = item.find("..");
    if (dots == std::string::npos) {
      const auto n = parse_size(item);
      if (!n) throw bad(item);
      sel.sizes.push_back(*n);
      continue;
    }
    const auto lo = parse_size(item.substr(0, dots)), hi = parse_size(item.substr(dots + 2));
    if (!lo || !hi) throw bad(item);
    if (*lo > *hi) throw usage_error{"--sizes: range '" + item + "' is empty (its start is above its end)"};
    sel.ranges.emplace_back(*lo, *hi);
  }
}

inline void add_names(std::vector<std::string>& into, const std::string& option, const std::string& list,
               const char* const* known, std::size_t known_count, const char* extra = nullptr) {
  const std::vector<std::string> items = split_list(list);
  if (items.empty()) throw usage_error{option + ": empty list"};
  for (const std::string& item : items) {
    bool ok = extra && item == extra;
    for (std::size_t i = 0; i < known_count; ++i) ok = ok || item == known[i];
    if (!ok) {
      std::string names = extra ? extra : "";
      for (std::size_t i = 0; i < known_count; ++i) names += (names.empty() ? "" : " ") + std::string(known[i]);
      throw usage_error{option + ": unknown '" + item + "' (one of: " + names + ")"};
    }
    into.push_back(item);
  }
}

// Our options come out of argv (as "--opt VALUE" or "--opt=VALUE"); the rest is Google Benchmark's.
inline options parse_options(int argc, char** argv) {
  options opt;
  opt.benchmark_args.push_back(argv[0]);
  bool all_suites = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      opt.help = true;
      continue;
    }
    if (arg == "--no-cub35") {
      opt.no_cub35 = true;
      continue;
    }
    static const char* const ours[] = {"--suite", "--sizes", "--types", "--json", "--markdown", "--csv", "--plot",
                                       "--headline"};
    std::string name, value;
    for (const char* o : ours) {
      const std::string option = o;
      if (arg == option) {
        if (i + 1 >= argc) throw usage_error{option + " needs a value"};
        name = option;
        value = argv[++i];
      } else if (arg.rfind(option + "=", 0) == 0) {
        name = option;
        value = arg.substr(option.size() + 1);
      }
    }
    if (name.empty()) {
      opt.benchmark_args.push_back(arg);
      if (arg.rfind("--benchmark_out", 0) != 0) opt.cub35_args.push_back(arg);
      continue;
    }
    if (value.empty()) throw usage_error{name + " needs a value"};
    if (name == "--suite" || name == "--sizes" || name == "--types") opt.cub35_args.push_back(name + "=" + value);
    row_selection& sel = opt.selection;
    if (name == "--suite") {
      std::vector<std::string> named;
      add_names(named, name, value, suites, std::size(suites), "all");
      for (const std::string& s : named)
        if (s == "all") all_suites = true;
        else sel.suites.push_back(s);
    } else if (name == "--sizes") {
      add_sizes(sel, value);
    } else if (name == "--types") {
      add_names(sel.types, name, value, types, std::size(types));
    } else if (name == "--json") {
      opt.json = value;
    } else if (name == "--markdown") {
      opt.markdown = value;
    } else if (name == "--csv") {
      opt.csv = value;
    } else if (name == "--headline") {
      opt.headline = value;
    } else {
      opt.plot = value;
    }
  }
  if (all_suites)  // the comparative suites; tune's rows are for choosing policies, not for reports
    for (const char* s : {"core", "seeds", "sort", "compact", "histogram"})
      if (!upsweep::bench::contains(opt.selection.suites, s)) opt.selection.suites.push_back(s);
  return opt;
}

// The value of a Google Benchmark flag ("--benchmark_out=FILE"), last one wins as in the library.
inline std::optional<std::string> flag_value(const std::vector<std::string>& args, const std::string& flag) {
  std::optional<std::string> value;
  for (const auto& arg : args)
    if (arg.rfind(flag + "=", 0) == 0) value = arg.substr(flag.size() + 1);
  return value;
}

// Listing touches no CUDA: rows are registered without it and allocate only when they run.
inline bool only_listing(const std::vector<std::string>& args) {
  for (const auto& arg : args)
    if (arg == "--benchmark_list_tests" || arg == "--benchmark_list_tests=true" || arg == "--benchmark_list_tests=1")
      return true;
  return false;
}

}  // namespace upsweep::bench::cli
