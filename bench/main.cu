// upsweep-bench: Google Benchmark main with the GPU, the commit and the CUB version in the context
// block. Its own options choose the rows before they are registered (--suite, --sizes, --types)
// and the report after the run (the bar table by default; --markdown, --csv, --plot, --headline:
// bench/report.py on the JSON); everything else goes to Google Benchmark. upsweep-bench-cub35,
// when it lies beside this program, measures CUB 3.5's rows of the same selection after ours.
// --help and --benchmark_list_tests need no GPU; running without one exits with 1.
#include "bench_support.cuh"

#include "bench_commit.h"  // UPSWEEP_COMMIT, written by the build
#include "main_options.hpp"

#include <benchmark/benchmark.h>
#include <cub/version.cuh>
#include <cuda_runtime_api.h>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

extern char** environ;

namespace {

using namespace upsweep::bench::cli;

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

// Runs argv[0] (searched on PATH) with its arguments and returns its exit status (127 when it
// cannot start, after saying so).
int run_program(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::cout.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = 0;
  if (const int err = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ)) {
    std::fprintf(stderr, "upsweep-bench: cannot run %s: %s\n", argv[0], std::strerror(err));
    return 127;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

// Runs `python3 script args...` ($UPSWEEP_PYTHON for python3).
int run_report(const std::string& script, std::vector<std::string> args) {
  const char* python = std::getenv("UPSWEEP_PYTHON");
  args.insert(args.begin(), {python ? python : "python3", script});
  return run_program(args);
}

// The files report.py writes, and to stdout the whole markdown (--markdown -) or only the bars.
std::vector<std::string> report_outputs(const options& opt) {
  std::vector<std::string> args;
  if (opt.markdown) args.insert(args.end(), {"--markdown", *opt.markdown});
  else args.push_back("--summary");
  if (opt.csv) args.insert(args.end(), {"--csv", *opt.csv});
  if (opt.plot) args.insert(args.end(), {"--plot", *opt.plot});
  if (opt.headline) args.insert(args.end(), {"--headline", *opt.headline});
  return args;
}

// upsweep-bench-cub35 beside this program, unless this is it, --no-cub35 says not to, or the
// suites named have no CUB 3.5 rows.
std::string cub35_program(const options& opt) {
  if (upsweep::bench::cub_rows_only || opt.no_cub35) return "";
  const auto& named = opt.selection.suites;
  bool has_rows = named.empty();
  for (const char* suite : {"core", "sort", "compact", "histogram", "topk"})
    has_rows = has_rows || upsweep::bench::contains(named, suite);
  if (!has_rows) return "";
  const std::string path = directory_of_executable() + "/upsweep-bench-cub35";
  return access(path.c_str(), X_OK) == 0 ? path : "";
}

// CUB 3.5's JSON beside ours: run.json -> run.cub35.json.
std::string cub35_json(const std::string& json) {
  const std::string ext = ".json";
  const bool has_ext = json.size() > ext.size() && json.compare(json.size() - ext.size(), ext.size(), ext) == 0;
  return (has_ext ? json.substr(0, json.size() - ext.size()) : json) + ".cub35.json";
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
  benchmark::AddCustomContext("cub_version", std::to_string(CUB_VERSION));
  benchmark::AddCustomContext("upsweep_commit", UPSWEEP_COMMIT);
}


// A JSON the report reads when no --json or --benchmark_out names one; removed at exit.
struct temporary_file {
  std::string path;
  ~temporary_file() {
    if (!path.empty()) std::remove(path.c_str());
  }
};

bool make_temporary_json(temporary_file& file) {
  char name[] = "/tmp/upsweep-bench-XXXXXX.json";
  const int fd = mkstemps(name, 5);
  if (fd < 0) {
    std::fprintf(stderr, "upsweep-bench: cannot create a temporary JSON file: %s\n", std::strerror(errno));
    return false;
  }
  close(fd);
  file.path = name;
  return true;
}

// upsweep-bench-cub35 on the same selection and flags, its JSON to `json` ("" when only listing).
int run_cub35(const std::string& program, const options& opt, const std::string& json) {
  std::vector<std::string> args = {program};
  args.insert(args.end(), opt.cub35_args.begin(), opt.cub35_args.end());
  if (!json.empty()) args.insert(args.end(), {"--json", json});
  std::printf("\nupsweep-bench: the newest CUB's rows of the same selection, by %s\n", program.c_str());
  return run_program(args);
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
  const bool measuring = !listing && !opt.help;
  std::string json_path;
  temporary_file temporary_json, temporary_cub35_json;
  if (opt.json) {
    args.push_back("--benchmark_out=" + *opt.json);
    args.push_back("--benchmark_out_format=json");
  }
  if (measuring) {
    const auto format = flag_value(args, "--benchmark_out_format");
    if (format && *format != "json") {
      if (opt.wants_files()) {
        std::fprintf(stderr, "upsweep-bench: --markdown, --csv, --plot and --headline read JSON, not "
                             "--benchmark_out_format=%s\n", format->c_str());
        return 2;
      }
    } else if (const auto out = flag_value(args, "--benchmark_out")) {
      json_path = *out;
    } else {
      if (!make_temporary_json(temporary_json)) return 1;
      json_path = temporary_json.path;
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

  // A missing script or matplotlib is reported before minutes of measuring, not after; without
  // them the default bar table is only left out.
  std::string script;
  if (measuring && !json_path.empty() && !upsweep::bench::cub_rows_only) {
    script = find_report_script();
    if (script.empty() && opt.wants_files()) {
      std::fprintf(stderr, "upsweep-bench: bench/report.py not found (UPSWEEP_BENCH_REPORT, the source tree, "
                           "beside the program, ./bench); set UPSWEEP_BENCH_REPORT to its path\n");
      return 2;
    }
    std::vector<std::string> check = {"--check"};
    if (opt.plot) check.insert(check.end(), {"--plot", *opt.plot});
    if (!script.empty() && run_report(script, check) != 0) {
      if (opt.wants_files()) return 3;
      std::fprintf(stderr, "upsweep-bench: no bar table after the run (report.py cannot run here)\n");
      script.clear();
    }
  }
  if (measuring) {
    try {
      add_gpu_context();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "upsweep-bench: no usable CUDA device, nothing measured: %s\n", e.what());
      return 1;
    }
  }
  const auto started = std::chrono::steady_clock::now();
  const std::size_t rows = benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (measuring && rows != 0)
    std::printf("%s: %zu rows in %.0f s\n", upsweep::bench::cub_rows_only ? "upsweep-bench-cub35" : "upsweep-bench",
                rows, std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  if (rows == 0 && !opt.help) {
    if (upsweep::bench::cub_rows_only) {  // CUB 3.5 has no rows in some selections: nothing to add
      std::printf("upsweep-bench-cub35: no CUB 3.5 rows in this selection\n");
      return 0;
    }
    std::fprintf(stderr, "upsweep-bench: no rows selected (check --suite, --sizes, --types, --benchmark_filter)\n");
    return 1;
  }

  // CUB 3.5's rows, then the report on both JSON files.
  int status = 0;
  std::vector<std::string> jsons = {json_path};
  if (const std::string program = cub35_program(opt); !program.empty() && !opt.help) {
    std::string cub35_path;  // beside ours, or temporary like ours
    if (measuring && !json_path.empty()) {
      if (temporary_json.path.empty()) cub35_path = cub35_json(json_path);
      else if (make_temporary_json(temporary_cub35_json)) cub35_path = temporary_cub35_json.path;
    }
    status = run_cub35(program, opt, cub35_path);
    if (status != 0) std::fprintf(stderr, "upsweep-bench: upsweep-bench-cub35 exited with %d\n", status);
    else if (!cub35_path.empty()) jsons.push_back(cub35_path);
  } else if (measuring && !upsweep::bench::cub_rows_only && !opt.no_cub35) {
    std::printf("upsweep-bench: no upsweep-bench-cub35 beside this program: CUB %d.%d's rows only\n",
                CUB_MAJOR_VERSION, CUB_MINOR_VERSION);
  }
  if (!script.empty()) {
    std::vector<std::string> report_args = jsons;
    const std::vector<std::string> outputs = report_outputs(opt);
    report_args.insert(report_args.end(), outputs.begin(), outputs.end());
    if (const int report = run_report(script, report_args); report != 0 && status == 0) status = report;
  }
  return status;
}
