// The device half of upsweep-compact: one allocation per buffer, the library's core layer (its
// temporary storage sized once, so --repeat times only the kernels), and Thrust as the reference.
#include "compact_gpu.hpp"

#include <upsweep/apps/device_support.hpp>
#include <upsweep/apps/report.hpp>

#include <upsweep/compact/device_partition.cuh>
#include <upsweep/compact/device_select.cuh>
#include <upsweep/util/error.hpp>

#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/execution_policy.h>
#include <thrust/partition.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace upsweep::apps {
namespace {

constexpr double gib = bytes_per_gib;

struct nonzero {
  template <class F>
  __host__ __device__ bool operator()(F f) const { return f != 0; }
};

// The library call for the job, core layer: with d_temp == nullptr it only sizes the storage.
template <class T>
cudaError_t compact_call(const compact_job& job, void* d_temp, std::size_t& bytes, const T* d_in,
                         const std::uint8_t* d_mask, T* d_out, std::int64_t* d_count, std::int64_t n) {
  switch (job.mode) {
    case compact_mode::select:
      if (job.mask) return upsweep::select_flagged(d_temp, bytes, d_in, d_mask, d_out, d_count, n);
      return upsweep::select_if(d_temp, bytes, d_in, d_out, d_count, n, *job.where);
    case compact_mode::partition:
      return upsweep::partition(d_temp, bytes, d_in, d_out, d_count, n, *job.where);
    case compact_mode::count:
      if (job.mask) return upsweep::count_if(d_temp, bytes, d_mask, d_count, n, nonzero{});
      return upsweep::count_if(d_temp, bytes, d_in, d_count, n, *job.where);
  }
  return cudaErrorInvalidValue;
}

// Thrust's answer on the device; returns its count and leaves its items in d_ref.
template <class T>
std::int64_t thrust_reference(const compact_job& job, const T* d_in, const std::uint8_t* d_mask, T* d_ref,
                              std::int64_t n) {
  const auto policy = thrust::device;
  switch (job.mode) {
    case compact_mode::select:
      if (job.mask) return thrust::copy_if(policy, d_in, d_in + n, d_mask, d_ref, nonzero{}) - d_ref;
      return thrust::copy_if(policy, d_in, d_in + n, d_ref, *job.where) - d_ref;
    case compact_mode::partition:
      thrust::copy(policy, d_in, d_in + n, d_ref);
      return thrust::stable_partition(policy, d_ref, d_ref + n, *job.where) - d_ref;
    case compact_mode::count:
      if (job.mask) return thrust::count_if(policy, d_mask, d_mask + n, nonzero{});
      return thrust::count_if(policy, d_in, d_in + n, *job.where);
  }
  return -1;
}

template <class T>
compact_report run_typed(const std::vector<T>& h_in, const compact_job& job, std::vector<T>* h_out) {
  compact_report report;
  report.device_name = probe_device();
  const auto n = static_cast<std::int64_t>(h_in.size());
  const bool writes_items = job.mode != compact_mode::count;

  // Check free memory before allocating: input, output, mask and Thrust's copy plus its
  // temporaries. The library's own temporaries are small (a few bytes a tile) and are sized once
  // the buffers exist (partition rejects equal input and output pointers, even when sizing).
  const double item_bytes = static_cast<double>(n) * sizeof(T);
  const double in_gib = item_bytes / gib, out_gib = writes_items ? item_bytes / gib : 0;
  const double mask_gib = job.mask ? static_cast<double>(n) / gib : 0;
  const double verify_gib = job.verify ? 2 * item_bytes / gib : 0;
  std::size_t free_bytes = 0, total_bytes = 0;
  check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  report.need_gib = in_gib + out_gib + mask_gib + verify_gib;
  report.free_gib = static_cast<double>(free_bytes) / gib;
  if (report.need_gib > report.free_gib) {
    char text[256];
    std::snprintf(text, sizeof text,
                  "not enough GPU memory: need %.1f GiB (input %.1f + output %.1f + mask %.1f + verify %.1f), "
                  "%.1f GiB free",
                  report.need_gib, in_gib, out_gib, mask_gib, verify_gib, report.free_gib);
    throw gpu_error(text);
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
