// Sorts and compacts device data through Upsweep's compiled API from a g++-compiled file (no nvcc):
// sort (score, id) pairs, keep the scores above a threshold, run-length encode sorted buckets.
// Each result is checked against the standard library. Exits 0 when all match, 1 when one does
// not (or a call fails); without a usable GPU it says so and exits 0, having checked nothing.
#include <upsweep/compact.hpp>
#include <upsweep/sort.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <vector>

namespace {

// Device memory for n items of T, freed on scope exit.
template <class T>
class device_buffer {
 public:
  explicit device_buffer(std::size_t n) : n_(n) {
    // <cuda_runtime_api.h> has only the void** form of cudaMalloc.
    UPSWEEP_CUDA_THROW(cudaMalloc(reinterpret_cast<void**>(&ptr_), (n > 0 ? n : 1) * sizeof(T)));
  }
  explicit device_buffer(const std::vector<T>& host) : device_buffer(host.size()) {
    UPSWEEP_CUDA_THROW(cudaMemcpy(ptr_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() { cudaFree(ptr_); }
  T* get() const { return ptr_; }
  std::vector<T> to_host(std::size_t count) const {
    std::vector<T> host(count);
    UPSWEEP_CUDA_THROW(cudaMemcpy(host.data(), ptr_, count * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  std::vector<T> to_host() const { return to_host(n_); }

 private:
  T* ptr_ = nullptr;
  std::size_t n_;
};

bool report(const char* what, bool ok) {
  std::printf("%-58s %s\n", what, ok ? "ok" : "WRONG");
  return ok;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

}  // namespace

int main() {
  int devices = 0;
  const cudaError_t probe = cudaGetDeviceCount(&devices);
  if (probe != cudaSuccess || devices == 0) {
    std::printf("consumer_cxx: SKIPPED, no usable CUDA device (%s: %s); nothing was checked\n",
                cudaGetErrorName(probe), cudaGetErrorString(probe));
    return 0;
  }

  const std::int64_t n = 1'000'003;
  std::vector<float> scores(n);
  std::vector<std::uint32_t> ids(n), buckets(n);
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  for (std::int64_t i = 0; i < n; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    scores[i] = static_cast<float>(state >> 40) / static_cast<float>(1u << 24) - 0.25f;  // [-0.25, 0.75)
    ids[i] = static_cast<std::uint32_t>(i);
    buckets[i] = static_cast<std::uint32_t>(state >> 58);  // 64 values: long runs once sorted
  }

  try {
    bool ok = true;

    // 1. Sort (score, id) pairs by score, convenience layer: stream-ordered temporaries, throws.
    device_buffer<float> d_scores(scores), d_sorted_scores(n);
    device_buffer<std::uint32_t> d_ids(ids), d_sorted_ids(n);
    upsweep::sort_pairs(d_scores.get(), d_sorted_scores.get(), d_ids.get(), d_sorted_ids.get(), n);
    std::vector<std::uint32_t> want_ids = ids;
    std::stable_sort(want_ids.begin(), want_ids.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return scores[a] < scores[b]; });
    std::vector<float> want_scores(n);
    for (std::int64_t i = 0; i < n; ++i) want_scores[i] = scores[want_ids[i]];
    ok &= report("sort_pairs(float scores, uint32 ids), stable", same_bits(d_sorted_ids.to_host(), want_ids) &&
                                                                      same_bits(d_sorted_scores.to_host(), want_scores));

    // 2. Keep the sorted scores above 0.5, core layer: size query, caller storage, device count.
    const auto above = upsweep::predicate<float>::greater(0.5f);
    device_buffer<float> d_kept(n);
    device_buffer<std::int64_t> d_num_kept(1);
    std::size_t temp_bytes = 0;
    UPSWEEP_CUDA_THROW(upsweep::select_if(nullptr, temp_bytes, d_sorted_scores.get(), d_kept.get(),
                                          d_num_kept.get(), n, above));
    device_buffer<unsigned char> d_temp(temp_bytes);
    UPSWEEP_CUDA_THROW(upsweep::select_if(d_temp.get(), temp_bytes, d_sorted_scores.get(), d_kept.get(),
                                          d_num_kept.get(), n, above));
    const std::int64_t num_kept = d_num_kept.to_host()[0];  // the copy waits for the select
    std::vector<float> want_kept;
    std::copy_if(want_scores.begin(), want_scores.end(), std::back_inserter(want_kept),
                 [](float s) { return s > 0.5f; });
    ok &= report("select_if(score > 0.5), core layer",
                 num_kept == static_cast<std::int64_t>(want_kept.size()) &&
                     same_bits(d_kept.to_host(static_cast<std::size_t>(num_kept)), want_kept));

    // 3. Sort the buckets, then run-length encode them: the count comes back to the host (sync).
    device_buffer<std::uint32_t> d_buckets(buckets), d_runs(n);
    upsweep::sort_keys(d_buckets.get(), d_buckets.get(), n);  // in place
    device_buffer<std::int64_t> d_lengths(n);
    const std::int64_t num_runs = upsweep::run_length_encode(d_buckets.get(), d_runs.get(), d_lengths.get(), n);
    std::vector<std::uint32_t> sorted_buckets = buckets;
    std::sort(sorted_buckets.begin(), sorted_buckets.end());
    std::vector<std::uint32_t> want_runs;
    std::vector<std::int64_t> want_lengths;
    for (std::int64_t i = 0; i < n; ++i) {
      if (i == 0 || sorted_buckets[i] != sorted_buckets[i - 1]) {
        want_runs.push_back(sorted_buckets[i]);
        want_lengths.push_back(0);
      }
      ++want_lengths.back();
    }
    ok &= report("sort_keys in place + run_length_encode(uint32)",
                 num_runs == static_cast<std::int64_t>(want_runs.size()) &&
                     same_bits(d_runs.to_host(static_cast<std::size_t>(num_runs)), want_runs) &&
                     same_bits(d_lengths.to_host(static_cast<std::size_t>(num_runs)), want_lengths));

    std::printf("consumer_cxx: %s\n", ok ? "all results match" : "MISMATCH");
    return ok ? 0 : 1;
  } catch (const upsweep::cuda_error& e) {  // thrown by the convenience layer and UPSWEEP_CUDA_THROW
    std::fprintf(stderr, "consumer_cxx: %s\n", e.what());
    return 1;
  }
}
