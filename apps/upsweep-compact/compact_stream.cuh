// upsweep-compact on an input larger than its device budget: the input goes through the GPU chunk
// by chunk. Compaction needs no global order: the survivors of chunk c follow those of chunk c-1,
// and a stable partition's rejected items follow all the selected ones, so each chunk is compacted
// alone and its result copied to its place. The copies go through pinned staging slots filled and
// emptied by several host threads (the host sort's, sort/detail/host_copy.hpp).
#pragma once

#include "compact_calls.cuh"

#include <upsweep/apps/device_support.hpp>
#include <upsweep/apps/report.hpp>
#include <upsweep/sort/detail/host_copy.hpp>

#include <thrust/equal.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

namespace upsweep::apps {

// The device bytes a chunk of one item takes: input, output, mask, and Thrust's copy for --verify
// (with its temporaries: about one item more).
template <class T>
std::size_t device_bytes_per_item(const compact_job& job) {
  const bool writes_items = job.mode != compact_mode::count;
  return sizeof(T) * (1 + (writes_items ? 1 : 0) + (job.verify ? 3 : 0)) + (job.mask ? 1 : 0);
}

// A pinned host block, freed with the object.
class pinned_block {
 public:
  explicit pinned_block(std::size_t bytes) { check(cudaMallocHost(&ptr_, bytes), "cudaMallocHost (pinned staging)"); }
  ~pinned_block() { static_cast<void>(cudaFreeHost(ptr_)); }
  pinned_block(const pinned_block&) = delete;
  pinned_block& operator=(const pinned_block&) = delete;
  void* get() const { return ptr_; }

 private:
  void* ptr_ = nullptr;
};

// A stream and the slots that stage its copies, both ways.
struct staged_link {
  static constexpr int slots = 4;
  static constexpr std::size_t slot_bytes = std::size_t{16} << 20;
  pinned_block h_up{slots * slot_bytes}, h_down{slots * slot_bytes};
  upsweep::detail::staging_slots up_slots{h_up.get(), slots * slot_bytes, slots};
  upsweep::detail::staging_slots down_slots{h_down.get(), slots * slot_bytes, slots};
  cudaStream_t stream = nullptr;
  staged_link() {
    check(up_slots.create_events(), "cudaEventCreate");
    check(down_slots.create_events(), "cudaEventCreate");
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  ~staged_link() { static_cast<void>(cudaStreamDestroy(stream)); }
  staged_link(const staged_link&) = delete;
  staged_link& operator=(const staged_link&) = delete;
};

// Compares the chunk's result with Thrust's on the device; throws on a difference.
template <class T>
void verify_chunk(const compact_job& job, const T* d_in, const std::uint8_t* d_mask, const T* d_out, T* d_ref,
                  std::int64_t items, std::int64_t count, std::int64_t first, cudaStream_t stream) {
  std::int64_t ref_count = 0;
  bool same = true;
  try {
    ref_count = thrust_reference<T>(job, d_in, d_mask, d_ref, items, stream);
    const std::int64_t compared = job.mode == compact_mode::partition ? items : job.mode == compact_mode::count ? 0 : count;
    const auto bytes = [](const T* p) { return reinterpret_cast<const unsigned char*>(p); };
    if (ref_count == count && compared > 0)
      same = thrust::equal(thrust::cuda::par.on(stream), bytes(d_out), bytes(d_out + compared), bytes(d_ref));
  } catch (const std::exception& e) {
    throw gpu_error(std::string("verification: Thrust failed: ") + e.what());
  }
  if (ref_count != count || !same)
    throw gpu_error("verification FAILED in the chunk of items from " + std::to_string(first) + ": upsweep selected " +
                    std::to_string(count) + " items, Thrust " + std::to_string(ref_count) +
                    (same ? "" : ", and the items differ"));
}

// Runs the job chunk by chunk within `budget_bytes` of device memory; fills the streamed fields of
// `report` (compute_*_ms: the whole stream, copies included). Throws gpu_error.
template <class T>
void stream_compaction(const std::vector<T>& h_in, const compact_job& job, std::vector<T>* h_out,
                       compact_report& report, std::size_t budget_bytes) {
  const auto n = static_cast<std::int64_t>(h_in.size());
  const bool writes_items = job.mode != compact_mode::count;
  constexpr std::int64_t min_chunk = std::int64_t{1} << 16, max_chunk = std::int64_t{1} << 26;
  // The temporaries of the largest chunk bound those of every chunk, and they grow with it (the
  // stable partition keeps its flags there): the chunk shrinks until it fits beside them. Sizing
  // reads no memory but wants distinct input and output pointers (partition refuses equal ones).
  std::size_t temp_bytes = 0;
  T probe_in{}, probe_out{};
  const std::size_t staging = 2 * staged_link::slots * staged_link::slot_bytes;
  const auto items_beside_temporaries = [&](std::int64_t items) {
    check(compact_call<T>(job, nullptr, temp_bytes, &probe_in, nullptr, &probe_out, nullptr, items),
          "sizing the temporary storage");
    return budget_bytes > temp_bytes
               ? static_cast<std::int64_t>((budget_bytes - temp_bytes) / device_bytes_per_item<T>(job))
               : std::int64_t{0};
  };
  std::int64_t chunk = std::min(max_chunk, std::max<std::int64_t>(n, 1));
  for (std::int64_t fits = items_beside_temporaries(chunk); fits < chunk; fits = items_beside_temporaries(chunk)) {
    const std::int64_t smaller = fits / min_chunk * min_chunk;
    if (smaller < std::min<std::int64_t>(min_chunk, n) || smaller >= chunk) {
      items_beside_temporaries(std::min<std::int64_t>(min_chunk, chunk));
      throw gpu_error("a device budget of " + std::to_string(budget_bytes) + " bytes is too small to stream " +
                      type_name(element_type_of<T>()) + " items: a chunk of " + std::to_string(min_chunk) +
                      " needs " +
                      std::to_string(min_chunk * static_cast<std::int64_t>(device_bytes_per_item<T>(job)) +
                                     static_cast<std::int64_t>(temp_bytes)) +
                      " bytes");
    }
    chunk = smaller;
  }

  const auto started = std::chrono::steady_clock::now();
  device_buffer<T> d_in(static_cast<std::size_t>(chunk)), d_out(writes_items ? static_cast<std::size_t>(chunk) : 0);
  device_buffer<T> d_ref(job.verify && writes_items ? static_cast<std::size_t>(chunk) : 0);
  device_buffer<std::uint8_t> d_mask(job.mask ? static_cast<std::size_t>(chunk) : 0);
  device_buffer<std::int64_t> d_count(1);
  device_buffer<unsigned char> d_temp(std::max<std::size_t>(temp_bytes, 1));
  staged_link link;
  pinned_block h_count(sizeof(std::int64_t));
  upsweep::detail::host_uploader up(link.up_slots);
  upsweep::detail::host_downloader down(link.down_slots);

  std::vector<T> rejected;  // partition: the rejected items, placed after the selected ones at the end
  if (h_out) h_out->resize(h_in.size());
  if (h_out && job.mode == compact_mode::partition) rejected.resize(h_in.size());
  std::int64_t kept = 0, dropped = 0;
  for (std::int64_t first = 0; first < n; first += chunk) {
    const std::int64_t items = std::min(chunk, n - first);
    check(up.upload(d_in.get(), h_in.data() + first, static_cast<std::size_t>(items) * sizeof(T), false, link.stream),
          "copying a chunk of the input");
    if (job.mask)
      check(up.upload(d_mask.get(), job.mask->data() + first, static_cast<std::size_t>(items), false, link.stream),
            "copying a chunk of the mask");
    std::size_t bytes = temp_bytes;
    check(compact_call<T>(job, d_temp.get(), bytes, d_in.get(), d_mask.get(), d_out.get(), d_count.get(), items,
                          link.stream),
          "upsweep compaction");
    check(cudaMemcpyAsync(h_count.get(), d_count.get(), sizeof(std::int64_t), cudaMemcpyDeviceToHost, link.stream),
          "copying the count");
    check(cudaStreamSynchronize(link.stream), "upsweep compaction");
    const std::int64_t count = *static_cast<const std::int64_t*>(h_count.get());
    if (job.verify) verify_chunk<T>(job, d_in.get(), d_mask.get(), d_out.get(), d_ref.get(), items, count, first, link.stream);
    if (h_out && writes_items) {
      check(down.download(h_out->data() + kept, d_out.get(), static_cast<std::size_t>(count) * sizeof(T), false,
                          link.stream),
            "copying the output");
      if (job.mode == compact_mode::partition)
        check(down.download(rejected.data() + dropped, d_out.get() + count,
                            static_cast<std::size_t>(items - count) * sizeof(T), false, link.stream),
              "copying the output");
      check(down.finish(), "copying the output");
    }
    kept += count;
    dropped += items - count;
    ++report.chunks;
  }
  if (h_out && job.mode == compact_mode::partition && dropped)
    upsweep::detail::parallel_memcpy(h_out->data() + kept, rejected.data(), static_cast<std::size_t>(dropped) * sizeof(T),
                                     upsweep::detail::copy_threads());
  if (h_out) h_out->resize(static_cast<std::size_t>(job.mode == compact_mode::partition ? n : kept));
  report.count = kept;
  report.chunk_items = chunk;
  report.compute_min_ms = report.compute_median_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  report.need_gib = static_cast<double>(device_bytes_held()) / bytes_per_gib;
  report.staging_gib = static_cast<double>(staging) / bytes_per_gib;
  if (job.verify) {
    report.verified = true;
    report.verify_detail = std::string(job.mode == compact_mode::partition ? "thrust::stable_partition"
                                       : job.mode == compact_mode::count   ? "thrust::count_if"
                                                                           : "thrust::copy_if") +
                           ", chunk by chunk";
  }
}

}  // namespace upsweep::apps
