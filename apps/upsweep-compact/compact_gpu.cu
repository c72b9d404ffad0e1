// The device half of upsweep-compact: one allocation per buffer, the library's core layer (its
// temporary storage sized once, so --repeat times only the kernels), and Thrust as the reference;
// an input too large for the device budget goes to compact_stream.cuh.
#include "compact_calls.cuh"
#include "compact_gpu.hpp"
#include "compact_stream.cuh"

#include <upsweep/apps/device_support.hpp>
#include <upsweep/apps/report.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace upsweep::apps {
namespace {

constexpr double gib = bytes_per_gib;

template <class T>
compact_report run_typed(const std::vector<T>& h_in, const compact_job& job, std::vector<T>* h_out) {
  compact_report report;
  report.device_name = probe_device();
  const auto n = static_cast<std::int64_t>(h_in.size());
  const bool writes_items = job.mode != compact_mode::count;

  // The device budget: --memory-limit, else 95 % of the free memory. The whole input is done in one
  // pass when its buffers fit (input, output, mask, Thrust's copy and temporaries for --verify;
  // the library's own temporaries are a few bytes a tile), else it is streamed chunk by chunk.
  std::size_t free_bytes = 0, total_bytes = 0;
  check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  report.free_gib = static_cast<double>(free_bytes) / gib;
  const double free_budget = 0.95 * static_cast<double>(free_bytes);
  const double budget = job.memory_limit_gib > 0 ? std::min(job.memory_limit_gib * gib, free_budget) : free_budget;
  report.budget_gib = budget / gib;
  report.need_gib = static_cast<double>(n) * static_cast<double>(device_bytes_per_item<T>(job)) / gib;
  if (report.need_gib * gib > budget) {
    stream_compaction(h_in, job, h_out, report, static_cast<std::size_t>(budget));
    return report;
  }

  device_buffer<T> d_in(h_in.size()), d_out(writes_items ? h_in.size() : 0);
  device_buffer<std::uint8_t> d_mask(job.mask ? job.mask->size() : 0);
  device_buffer<std::int64_t> d_count(1);
  std::size_t temp_bytes = 0;
  check(compact_call<T>(job, nullptr, temp_bytes, d_in.get(), d_mask.get(), d_out.get(), d_count.get(), n),
        "sizing the temporary storage");
  device_buffer<unsigned char> d_temp(std::max<std::size_t>(temp_bytes, 1));
  report.need_gib += static_cast<double>(temp_bytes) / gib;
  event_timer timer;

  timer.start();
  if (n) check(cudaMemcpy(d_in.get(), h_in.data(), h_in.size() * sizeof(T), cudaMemcpyHostToDevice), "copying the input");
  if (job.mask && n) check(cudaMemcpy(d_mask.get(), job.mask->data(), job.mask->size(), cudaMemcpyHostToDevice), "copying the mask");
  report.h2d_ms = timer.stop_ms();

  std::vector<float> times;
  for (int r = 0; r < std::max(job.repeat, 1); ++r) {
    timer.start();
    check(compact_call<T>(job, d_temp.get(), temp_bytes, d_in.get(), d_mask.get(), d_out.get(),
                          d_count.get(), n),
          "upsweep compaction");
    times.push_back(timer.stop_ms());
    check(cudaGetLastError(), "upsweep compaction");
  }
  std::sort(times.begin(), times.end());
  report.compute_min_ms = times.front();
  report.compute_median_ms = times[times.size() / 2];

  timer.start();
  check(cudaMemcpy(&report.count, d_count.get(), sizeof(std::int64_t), cudaMemcpyDeviceToHost), "copying the count");
  if (writes_items && h_out) {
    const std::size_t keep = job.mode == compact_mode::partition ? h_in.size() : static_cast<std::size_t>(report.count);
    h_out->resize(keep);
    if (keep) check(cudaMemcpy(h_out->data(), d_out.get(), keep * sizeof(T), cudaMemcpyDeviceToHost), "copying the output");
  }
  report.d2h_ms = timer.stop_ms();

  if (job.verify) {
    device_buffer<T> d_ref(writes_items ? h_in.size() : 0);
    std::int64_t ref_count = 0;
    try {
      ref_count = thrust_reference<T>(job, d_in.get(), d_mask.get(), d_ref.get(), n);
    } catch (const std::exception& e) {
      throw gpu_error(std::string("verification: Thrust failed: ") + e.what());
    }
    if (ref_count != report.count)
      throw gpu_error("verification FAILED: upsweep selected " + std::to_string(report.count) + " items, Thrust " +
                      std::to_string(ref_count));
    if (writes_items) {
      const std::size_t keep = job.mode == compact_mode::partition ? h_in.size() : static_cast<std::size_t>(ref_count);
      std::vector<T> ref(keep);
      if (keep) check(cudaMemcpy(ref.data(), d_ref.get(), keep * sizeof(T), cudaMemcpyDeviceToHost), "copying Thrust's output");
      std::vector<T> ours(keep);
      if (h_out) ours = *h_out;
      else if (keep) check(cudaMemcpy(ours.data(), d_out.get(), keep * sizeof(T), cudaMemcpyDeviceToHost), "copying the output");
      for (std::size_t i = 0; i < keep; ++i) {
        if (std::memcmp(&ours[i], &ref[i], sizeof(T)) != 0)
          throw gpu_error("verification FAILED: first difference from Thrust at output index " + std::to_string(i));
      }
    }
    report.verified = true;
    report.verify_detail = job.mode == compact_mode::partition ? "thrust::stable_partition"
                           : job.mode == compact_mode::count   ? "thrust::count_if"
                                                               : "thrust::copy_if";
  }
  return report;
}

}  // namespace

compact_report run_compaction(const number_array& in, const compact_job& job, number_array* out) {
  if (job.mode == compact_mode::partition && !job.where) throw gpu_error("partition needs a --where predicate");
  if (!job.mask && !job.where) throw gpu_error("nothing to select by");
  if (out) *out = make_array(type_of(in));
  return std::visit(
      [&](const auto& v) {
        using vector_t = std::decay_t<decltype(v)>;
        return run_typed(v, job, out ? &std::get<vector_t>(*out) : nullptr);
      },
      in);
}

}  // namespace upsweep::apps
