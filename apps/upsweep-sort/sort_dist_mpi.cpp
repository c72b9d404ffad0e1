// --distributed (sort_dist.hpp): one rank per MPI process (mpirun -np N upsweep-sort --distributed),
// on GPU (local rank mod the devices of its host), with its NCCL communicator made over MPI
// (nccl_comm_from_mpi). A raw binary file is read by parts, each rank its own at its offset; other
// inputs and --generate are read whole by every rank, which keeps its slice (simple, and the same
// data everywhere). Rank 0 gathers the reports and prints them, and gathers the sorted data for
// --output (one file, written as the single-GPU sort writes it) and --verify. A failure on any
// rank ends the job (MPI_Abort) after its message, so that no rank waits for it.
#include "sort_dist.hpp"
#include "sort_dist_rank.hpp"

#include <upsweep/apps/device_support.hpp>
#include <upsweep/apps/report.hpp>
#include <upsweep/sort/nccl_mpi.hpp>

#include <fmt/core.h>
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <variant>

namespace upsweep::apps {
namespace {

void check_mpi(int code, const char* call) { upsweep::detail::throw_if_mpi_failed(code, call); }

struct mpi_world {
  int rank = 0, size = 1, local_rank = 0;  // local: among the ranks of this host
};

mpi_world world_of() {
  mpi_world w;
  check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &w.rank), "MPI_Comm_rank");
  check_mpi(MPI_Comm_size(MPI_COMM_WORLD, &w.size), "MPI_Comm_size");
  MPI_Comm host = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w.rank, MPI_INFO_NULL, &host),
            "MPI_Comm_split_type");
  const int ranked = MPI_Comm_rank(host, &w.local_rank);
  check_mpi(MPI_Comm_free(&host), "MPI_Comm_free");
  check_mpi(ranked, "MPI_Comm_rank");
  return w;
}

int device_for(const mpi_world& w) {
  probe_device();  // "no CUDA device available", as the single-GPU sort says it
  int count = 0;
  check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  return w.local_rank % count;
}

// This rank's input: its part, and the whole input (or, read by parts, only its description).
struct rank_input {
  loaded_input in;
  number_array part;
  std::int64_t first = 0, total = 0;
  bool whole = true;
};

bool reads_by_parts(const input_spec& spec) {
  if (spec.path.empty() || spec.type.empty()) return false;
  try {
    const file_format format =
        spec.format.empty() ? format_from_path(spec.path, file_format::text) : parse_format_name(spec.format);
    return format == file_format::binary;
  } catch (const std::invalid_argument& e) {
    throw usage_error(e.what());
  }
}

number_array slice_of(const number_array& all, std::int64_t first, std::int64_t last) {
  return std::visit(
      [&](const auto& v) -> number_array { return std::decay_t<decltype(v)>(v.begin() + first, v.begin() + last); },
      all);
}

rank_input read_rank_input(const dist_options& o, const mpi_world& w) {
  if (o.in.path == "-")
    throw usage_error("--distributed reads a file or --generate, not stdin (mpirun gives it to rank 0 only)");
  rank_input r;
  if (reads_by_parts(o.in)) {
    const auto t0 = std::chrono::steady_clock::now();
    const element_type type = parse_type_name(o.in.type);  // a name CLI11 already checked
    r.part = read_binary_part(o.in.path, type, w.rank, w.size, r.total);
    r.in.data = make_array(type);
    r.in.source = o.in.path;
    r.in.read_ms = ms_since(t0);
    r.whole = false;
  } else {
    r.in = load_input(o.in, o.demo_items, o.pairs && !o.output.empty());
    r.total = size_of(r.in.data);
    r.part = slice_of(r.in.data, part_begin(r.total, w.size, w.rank), part_begin(r.total, w.size, w.rank + 1));
  }
  r.first = part_begin(r.total, w.size, w.rank);
  return r;
}

constexpr std::size_t mpi_piece_bytes = std::size_t{1} << 30;  // MPI counts are int

void send_to_root(const void* data, std::size_t bytes) {
  for (std::size_t at = 0; at < bytes; at += mpi_piece_bytes)
    check_mpi(MPI_Send(static_cast<const char*>(data) + at, static_cast<int>(std::min(mpi_piece_bytes, bytes - at)),
                       MPI_BYTE, 0, 0, MPI_COMM_WORLD),
              "MPI_Send");
}

void receive_from(int rank, void* data, std::size_t bytes) {
  for (std::size_t at = 0; at < bytes; at += mpi_piece_bytes)
    check_mpi(MPI_Recv(static_cast<char*>(data) + at, static_cast<int>(std::min(mpi_piece_bytes, bytes - at)),
                       MPI_BYTE, rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
              "MPI_Recv");
}

// On rank 0: every rank's array joined in rank order (`reports` gives their sizes); elsewhere empty.
number_array gather_to_root(const number_array& mine, const mpi_world& w, const std::vector<rank_report>& reports) {
  return std::visit(
      [&](const auto& v) -> number_array {
        using vector_t = std::decay_t<decltype(v)>;
        constexpr std::size_t size = sizeof(typename vector_t::value_type);
        if (w.rank != 0) {
          send_to_root(v.data(), v.size() * size);
          return vector_t{};
        }
        vector_t all(v);
        for (int q = 1; q < w.size; ++q) {
          const std::size_t at = all.size();
          all.resize(at + static_cast<std::size_t>(reports[static_cast<std::size_t>(q)].items_out));
          receive_from(q, all.data() + at, (all.size() - at) * size);
        }
        return all;
      },
      mine);
}

std::vector<rank_report> gather_reports(const rank_report& mine, const mpi_world& w) {
  std::vector<rank_report> all(w.rank == 0 ? static_cast<std::size_t>(w.size) : 0);
  check_mpi(MPI_Gather(&mine, sizeof mine, MPI_BYTE, all.data(), sizeof mine, MPI_BYTE, 0, MPI_COMM_WORLD),
            "MPI_Gather");
  return all;
}

// The ranks meet in an all-reduce: true when every rank is ready.
bool all_ranks_ready(bool mine) {
  int ready = mine ? 1 : 0, all = 0;
  check_mpi(MPI_Allreduce(&ready, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD), "MPI_Allreduce");
  return all != 0;
}

rank_result sort_on_this_rank(const rank_input& mine, const mpi_world& w, const dist_options& o) {
  const int device = device_for(w);
  const auto t0 = std::chrono::steady_clock::now();
  ncclComm_t comm = upsweep::nccl_comm_from_mpi(MPI_COMM_WORLD, device);
  const double comm_ms = ms_since(t0);
  const auto* keys = std::visit([](const auto& v) { return static_cast<const void*>(v.data()); }, mine.part);
  rank_result result;
  try {
    result = sort_rank(comm, device, type_of(mine.part), {keys, size_of(mine.part), mine.first, mine.total},
                       {o.order, o.pairs, o.repeat}, {all_ranks_ready, {}});
  } catch (...) {
    ncclCommAbort(comm);  // an exception is on its way (MPI_Abort next): a destroy would wait for the peers
    throw;
  }
  upsweep::detail::throw_if_nccl_failed(ncclCommDestroy(comm), "ncclCommDestroy");
  result.report.setup_ms += comm_ms;
  result.report.read_ms = mine.in.read_ms;
  return result;
}

int distributed_sort(const dist_options& o, const mpi_world& w) {
  const rank_input mine = read_rank_input(o, w);
  const element_type type = type_of(mine.part);
  check_bits(o.bits, o.order, type);
  const output_plan plan = plan_output(o.output, o.output_format, mine.in, o.pairs, o.in.column);
  if (mine.total == 0) return w.rank == 0 ? finish_empty_input(plan, mine.in, o) : 0;

  const rank_result result = sort_on_this_rank(mine, w, o);
  dist_summary s;
  s.ranks = gather_reports(result.report, w);
  number_array sorted, indices;
  if (!o.output.empty() || o.verify) {
    const auto t_gather = std::chrono::steady_clock::now();
    sorted = gather_to_root(result.keys, w, s.ranks);
    if (o.pairs) indices = gather_to_root(result.indices, w, s.ranks);
    s.gather_ms = ms_since(t_gather);
  }
  if (w.rank != 0) return 0;

  s.ranks_text = std::to_string(w.size) + (w.size == 1 ? " MPI rank" : " MPI ranks");
  s.source = mine.in.source;
  s.what = what_is_sorted(plan);
  s.type = type;
  s.items = mine.total;
  if (o.verify) {  // the whole input, read again where this rank read only its part
    const auto t_verify = std::chrono::steady_clock::now();
    loaded_input reread;
    if (!mine.whole) reread = load_input(o.in, o.demo_items);
    s.verify_detail = verify_across_ranks(mine.whole ? mine.in.data : reread.data, sorted, indices, o);
    s.verify_ms = ms_since(t_verify);
  }
  s.write_ms = write_result(plan, mine.in, sorted, indices, o.in.progress);
  print_dist_report(s, o);
  return 0;
}

}  // namespace

int run_distributed(const dist_options& o) {
  check_mpi(MPI_Init(nullptr, nullptr), "MPI_Init");
  int rank = 0, rc = 0;
  try {
    // MPI's calls return their errors, which check_mpi reports, instead of aborting in MPI.
    check_mpi(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    check_mpi(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
    rc = distributed_sort(o, world_of());
  } catch (const std::exception& e) {
    fmt::print(stderr, "upsweep-sort: rank {}: {}\n", rank, e.what());
    std::fflush(stderr);
    rc = dynamic_cast<const usage_error*>(&e) ? 2 : 1;
    MPI_Abort(MPI_COMM_WORLD, rc);  // ends every rank
  }
  check_mpi(MPI_Finalize(), "MPI_Finalize");
  return rc;
}

}  // namespace upsweep::apps
