// upsweep-bench: Google Benchmark main with the GPU in the context block. Its own options choose
// the rows before they are registered (--suite, --sizes, --types) and the report after the run
// (--markdown, --csv, --plot: bench/report.py on the JSON); everything else goes to Google
// Benchmark. --help and --benchmark_list_tests need no GPU; running without one exits with 1.
#include "bench_support.cuh"

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

extern char** environ;

namespace {

using upsweep::bench::row_selection;

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
                   is registered and --benchmark_filter alone chooses. CUB 3.5's rows of the
                   sort and topk suites come from upsweep-bench-cub35
  --sizes LIST     comma-separated: a value (1000, 1e6, 2^28, 64k, 16M, 1G, 4Mi) runs every selected
                   row at exactly that n; a range A..B keeps each row's own sizes that lie inside it
                   (core, seeds: 1e2..1e9; compact: 1e2..1e8, 1e9 for the headline cases; sort: 2^16,
                   2^20, 2^24, 2^28, 2^30; host: 2^28, 2^32; dist: 2^24, 2^26, 2^28; histogram: 2^24, 2^28 (8-bit samples: 2^28, 2^30); tune:
                   1e8, 1e9 or the histogram sizes)
  --types LIST     keep only these element types: u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 bf16, comma-separated
                   (a row's type is its key or item type, pairs go by the key; seeds are i32)

Output (the JSON is Google Benchmark's; the rest is made from it by bench/report.py, python3):
  --json FILE      write the JSON (= --benchmark_out=FILE --benchmark_out_format=json)
  --markdown FILE  markdown tables: median ms, throughput relative to CUB, fraction of copy GB/s,
                   the seed ladders, the issues' bars ('-' or left out: stdout, after the run)
  --csv FILE       one line per row: suite,case,impl,n,median_ms,gb_per_s,ratio_to_cub,error
  --plot DIR       PNG charts of GB/s against n (log x), one per case: Upsweep, CUB, Thrust and the
                   copy roofline; the seed ladders log-log. Needs matplotlib (python3-matplotlib):
                   checked before anything runs
  With --markdown, --csv or --plot, upsweep-bench runs report.py on the JSON after the run: the
  source tree's bench/report.py, else the copy beside this program, or $UPSWEEP_BENCH_REPORT; the
  interpreter is $UPSWEEP_PYTHON, default python3. Without --json or --benchmark_out, the JSON
  goes to a temporary file, removed afterwards. For a saved JSON: tools/bench-report.sh FILE.json.

  --help           this text, then Google Benchmark's flags (--benchmark_repetitions=N,
                   --benchmark_report_aggregates_only=true, --benchmark_list_tests, ...)

Examples:
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
  std::optional<std::string> json, markdown, csv, plot;
  bool help = false;
  std::vector<std::string> benchmark_args;  // argv[0] and the flags for Google Benchmark

  bool wants_report() const { return markdown || csv || plot; }
};

std::vector<std::string> split_list(const std::string& text) {
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
std::optional<std::int64_t> parse_size(std::string text) {
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

void add_sizes(row_selection& sel, const std::string& list) {
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

void add_names(std::vector<std::string>& into, const std::string& option, const std::string& list,
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
options parse_options(int argc, char** argv) {
  options opt;
  opt.benchmark_args.push_back(argv[0]);
  bool all_suites = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      opt.help = true;
      continue;
    }
    static const char* const ours[] = {"--suite", "--sizes", "--types", "--json", "--markdown", "--csv", "--plot"};
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
      continue;
    }
    if (value.empty()) throw usage_error{name + " needs a value"};
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
std::optional<std::string> flag_value(const std::vector<std::string>& args, const std::string& flag) {
  std::optional<std::string> value;
  for (const auto& arg : args)
    if (arg.rfind(flag + "=", 0) == 0) value = arg.substr(flag.size() + 1);
  return value;
}

// Listing touches no CUDA: rows are registered without it and allocate only when they run.
bool only_listing(const std::vector<std::string>& args) {
  for (const auto& arg : args)
    if (arg == "--benchmark_list_tests" || arg == "--benchmark_list_tests=true" || arg == "--benchmark_list_tests=1")
      return true;
  return false;
}

std::string directory_of_executable() {
  char path[4096];
  const ssize_t len = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (len <= 0) return "";
  const std::string exe(path, static_cast<std::size_t>(len));
  return exe.substr(0, exe.rfind('/'));
}

bool readable(const std::string& path) { return !path.empty() && access(path.c_str(), R_OK) == 0; }

// $UPSWEEP_BENCH_REPORT, else the source tree's copy named at configure time, else the copy the
// build puts beside the executable, else bench/report.py under the current directory (a build
// folder carried to another machine and run from the repository root).
std::string find_report_script() {
  if (const char* env = std::getenv("UPSWEEP_BENCH_REPORT")) return readable(env) ? env : "";
#ifdef UPSWEEP_BENCH_REPORT_SCRIPT
  if (readable(UPSWEEP_BENCH_REPORT_SCRIPT)) return UPSWEEP_BENCH_REPORT_SCRIPT;
#endif
  const std::string beside = directory_of_executable() + "/report.py";
  if (readable(beside)) return beside;
  if (readable("bench/report.py")) return "bench/report.py";
  return "";
}

// Runs `python3 script args...` and returns its exit status (127 when it cannot start).
int run_report(const std::string& script, std::vector<std::string> args) {
  const char* python = std::getenv("UPSWEEP_PYTHON");
  args.insert(args.begin(), {python ? python : "python3", script});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::cout.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = 0;
  if (const int err = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ)) {
    std::fprintf(stderr, "upsweep-bench: cannot run %s: %s (the reports need python3)\n", argv[0], std::strerror(err));
    return 127;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

std::vector<std::string> report_outputs(const options& opt) {
  std::vector<std::string> args;
  args.insert(args.end(), {"--markdown", opt.markdown ? *opt.markdown : "-"});
  if (opt.csv) args.insert(args.end(), {"--csv", *opt.csv});
  if (opt.plot) args.insert(args.end(), {"--plot", *opt.plot});
  return args;
}

void add_gpu_context() {
  int device = 0, runtime = 0, driver = 0;
  cudaDeviceProp prop{};
  BENCH_CUDA(cudaGetDevice(&device));
  BENCH_CUDA(cudaGetDeviceProperties(&prop, device));
  BENCH_CUDA(cudaRuntimeGetVersion(&runtime));
  BENCH_CUDA(cudaDriverGetVersion(&driver));
  benchmark::AddCustomContext("gpu", prop.name);
  benchmark::AddCustomContext("sm_count", std::to_string(prop.multiProcessorCount));
  benchmark::AddCustomContext("l2_bytes", std::to_string(prop.l2CacheSize));
  benchmark::AddCustomContext("cuda_runtime", std::to_string(runtime));
  benchmark::AddCustomContext("cuda_driver", std::to_string(driver));
}

}  // namespace

int main(int argc, char** argv) {
  options opt;
  try {
    opt = parse_options(argc, argv);
  } catch (const usage_error& e) {
    std::fprintf(stderr, "upsweep-bench: %s\nRun with --help for more information.\n", e.message.c_str());
    return 2;
  }
  if (opt.help) {
    std::fputs(usage, stdout);
    std::fputs("\nGoogle Benchmark's flags:\n", stdout);
    std::fflush(stdout);
    opt.benchmark_args.push_back("--help");  // the library prints its flags and exits 0
  }

  // The JSON the report reads: --json, else --benchmark_out, else a temporary file.
  std::vector<std::string>& args = opt.benchmark_args;
  const bool listing = only_listing(args);
  std::string json_path, temporary_json;
  if (opt.json) {
    args.push_back("--benchmark_out=" + *opt.json);
    args.push_back("--benchmark_out_format=json");
  }
  if (opt.wants_report() && !listing && !opt.help) {
    const auto format = flag_value(args, "--benchmark_out_format");
    if (format && *format != "json") {
      std::fprintf(stderr, "upsweep-bench: --markdown, --csv and --plot read JSON, not --benchmark_out_format=%s\n",
                   format->c_str());
      return 2;
    }
    if (const auto out = flag_value(args, "--benchmark_out")) {
      json_path = *out;
    } else {
      char name[] = "/tmp/upsweep-bench-XXXXXX.json";
      const int fd = mkstemps(name, 5);
      if (fd < 0) {
        std::fprintf(stderr, "upsweep-bench: cannot create a temporary JSON file: %s\n", std::strerror(errno));
        return 1;
      }
      close(fd);
      json_path = temporary_json = name;
      args.push_back("--benchmark_out=" + json_path);
      args.push_back("--benchmark_out_format=json");
    }
  }

  upsweep::bench::selection() = opt.selection;
  upsweep::bench::register_rows();

  std::vector<char*> raw;
  for (auto& a : args) raw.push_back(a.data());
  int raw_argc = static_cast<int>(raw.size());
  benchmark::Initialize(&raw_argc, raw.data());
  if (benchmark::ReportUnrecognizedArguments(raw_argc, raw.data())) return 2;

  // A missing script or matplotlib is reported before minutes of measuring, not after.
  std::string script;
  if (opt.wants_report() && !listing) {
    script = find_report_script();
    if (script.empty()) {
      std::fprintf(stderr, "upsweep-bench: bench/report.py not found (UPSWEEP_BENCH_REPORT, the source tree, "
                           "beside the program, ./bench); set UPSWEEP_BENCH_REPORT to its path\n");
      return 2;
    }
    std::vector<std::string> check = {"--check"};
    if (opt.plot) check.insert(check.end(), {"--plot", *opt.plot});
    if (const int status = run_report(script, check)) {
      if (!temporary_json.empty()) std::remove(temporary_json.c_str());
      return status;
    }
  }
  if (!listing) {
    try {
      add_gpu_context();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "upsweep-bench: no usable CUDA device, nothing measured: %s\n", e.what());
      if (!temporary_json.empty()) std::remove(temporary_json.c_str());
      return 1;
    }
  }
  const std::size_t rows = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (rows == 0) {
    std::fprintf(stderr, "upsweep-bench: no rows selected (check --suite, --sizes, --types, --benchmark_filter)\n");
    if (!temporary_json.empty()) std::remove(temporary_json.c_str());
    return 1;
  }
  int status = 0;
  if (opt.wants_report() && !listing) {
    std::vector<std::string> report_args = {json_path};
    const std::vector<std::string> outputs = report_outputs(opt);
    report_args.insert(report_args.end(), outputs.begin(), outputs.end());
    status = run_report(script, report_args);
  }
  if (!temporary_json.empty()) std::remove(temporary_json.c_str());
  return status;
}
