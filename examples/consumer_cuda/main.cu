// A CUDA project on Upsweep's template layer: sorts entries by a custom struct key (u32 group, then
// float score) described by a decomposer, with a payload member riding along, and keeps the high
// scores with a device lambda. Both results are checked against the standard library. Exits 0 when they match, 1 when one does not
// (or a call fails); without a usable GPU it says so and exits 0, having checked nothing.
#include <upsweep/compact.cuh>
#include <upsweep/sort.cuh>

#include <cuda/std/tuple>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <vector>

struct entry {
  std::uint32_t group;
  float score;
  std::uint32_t id;
};

// The decomposer: references to the key's members, most significant first (group, then score);
// each sorts in its own type's order (floats: -0.0 == +0.0, NaNs by bit pattern). `id` is not
// named, so it is no part of the key and moves with its entry.
struct by_group_then_score {
  __host__ __device__ cuda::std::tuple<std::uint32_t&, float&> operator()(entry& e) const { return {e.group, e.score}; }
};

#define CHECK(call) UPSWEEP_CUDA_THROW(call)

int main() {
  int devices = 0;
  const cudaError_t probe = cudaGetDeviceCount(&devices);
  if (probe != cudaSuccess || devices == 0) {
    std::printf("consumer_cuda: SKIPPED, no usable CUDA device (%s: %s); nothing was checked\n",
                cudaGetErrorName(probe), cudaGetErrorString(probe));
    return 0;
  }

  const std::int64_t n = 3'000'017;
  std::vector<entry> entries(n);
  std::uint64_t state = 12345;
  for (std::int64_t i = 0; i < n; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const float score = static_cast<float>(state >> 44) / static_cast<float>(1u << 20);  // [0, 1), many ties
    entries[i] = {static_cast<std::uint32_t>(state >> 61), i % 7 == 0 ? -score : score, static_cast<std::uint32_t>(i)};
  }

  entry *d_entries = nullptr, *d_sorted = nullptr, *d_kept = nullptr;
  try {
    CHECK(cudaMalloc(&d_entries, n * sizeof(entry)));
    CHECK(cudaMalloc(&d_sorted, n * sizeof(entry)));
    CHECK(cudaMalloc(&d_kept, n * sizeof(entry)));
    CHECK(cudaMemcpy(d_entries, entries.data(), n * sizeof(entry), cudaMemcpyHostToDevice));

    // Sort the entries themselves by (group, score); stable, so equal keys keep id order.
    upsweep::sort_keys(d_entries, d_sorted, n, by_group_then_score{});  // stream-ordered temporaries

    // Compact with a device lambda; this form returns the count, so it synchronises.
    const float threshold = 0.75f;
    const std::int64_t num_kept =
        upsweep::select_if(d_sorted, d_kept, n, [=] __device__(const entry& e) { return e.score >= threshold; });

    std::vector<entry> sorted(n), kept(num_kept);
    CHECK(cudaMemcpy(sorted.data(), d_sorted, n * sizeof(entry), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(kept.data(), d_kept, num_kept * sizeof(entry), cudaMemcpyDeviceToHost));

    std::vector<entry> want = entries;
    std::stable_sort(want.begin(), want.end(), [](const entry& a, const entry& b) {
      return a.group != b.group ? a.group < b.group : a.score < b.score;  // no NaNs here; -0.0 == +0.0
    });
    std::vector<entry> want_kept;
    std::copy_if(want.begin(), want.end(), std::back_inserter(want_kept),
                 [=](const entry& e) { return e.score >= threshold; });
    const bool sorted_ok = std::memcmp(sorted.data(), want.data(), n * sizeof(entry)) == 0;
    const bool kept_ok = kept.size() == want_kept.size() &&
                         std::memcmp(kept.data(), want_kept.data(), kept.size() * sizeof(entry)) == 0;
    std::printf("%-58s %s\n", "sort_keys by (group, score) through a decomposer, stable", sorted_ok ? "ok" : "WRONG");
    std::printf("%-58s %s\n", "select_if(score >= 0.75) with a device lambda", kept_ok ? "ok" : "WRONG");
    std::printf("consumer_cuda: %s\n", sorted_ok && kept_ok ? "all results match" : "MISMATCH");
    for (void* p : {static_cast<void*>(d_entries), static_cast<void*>(d_sorted), static_cast<void*>(d_kept)})
      CHECK(cudaFree(p));
    return sorted_ok && kept_ok ? 0 : 1;
  } catch (const upsweep::cuda_error& e) {
    std::fprintf(stderr, "consumer_cuda: %s\n", e.what());
    return 1;
  }
}
