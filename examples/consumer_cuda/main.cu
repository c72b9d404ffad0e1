// A CUDA project on Upsweep's template layer: sorts entries by a custom struct key (u32 group, then
// float score) described by a decomposer, and keeps the high scores with a device lambda. Both
// results are checked against the standard library. Exits 0 when they match, 1 when one does not
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

// The decomposer: the key's members, most significant first (group, then score).
struct by_group_then_score {
  __host__ __device__ cuda::std::tuple<std::uint32_t, float> operator()(const entry& e) const {
    return {e.group, e.score};
  }
};

// One 64-bit key whose unsigned order is the decomposer's lexicographic order: each member's
// ordered bits (radix_traits: the order radix sort uses, -0.0 == +0.0, NaNs by bit pattern) side
// by side. The template layer sorts radix keys, not structs, so the struct key travels this way.
template <class Decomposer>
__global__ void make_sort_keys(const entry* d_entries, std::uint64_t* d_keys, long long n, Decomposer decompose) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const auto members = decompose(d_entries[i]);
  d_keys[i] = (std::uint64_t{upsweep::radix_traits<std::uint32_t>::to_ordered(cuda::std::get<0>(members))} << 32) |
              upsweep::radix_traits<float>::to_ordered(cuda::std::get<1>(members));
}

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
  std::uint64_t *d_keys = nullptr, *d_sorted_keys = nullptr;
  try {
    CHECK(cudaMalloc(&d_entries, n * sizeof(entry)));
    CHECK(cudaMalloc(&d_sorted, n * sizeof(entry)));
    CHECK(cudaMalloc(&d_kept, n * sizeof(entry)));
    CHECK(cudaMalloc(&d_keys, n * sizeof(std::uint64_t)));
    CHECK(cudaMalloc(&d_sorted_keys, n * sizeof(std::uint64_t)));
    CHECK(cudaMemcpy(d_entries, entries.data(), n * sizeof(entry), cudaMemcpyHostToDevice));

    // Sort: the entries ride as 12-byte values with their keys; stable, so equal keys keep id order.
    make_sort_keys<<<static_cast<unsigned>((n + 255) / 256), 256>>>(d_entries, d_keys, n, by_group_then_score{});
    CHECK(cudaGetLastError());
    upsweep::sort_pairs(d_keys, d_sorted_keys, d_entries, d_sorted, n);  // stream-ordered temporaries

    // Compact with a device lambda; this form returns the count, so it synchronises.
    const float threshold = 0.75f;
    const std::int64_t num_kept =
        upsweep::select_if(d_sorted, d_kept, n, [=] __device__(const entry& e) { return e.score >= threshold; });

    std::vector<entry> sorted(n), kept(num_kept);
    CHECK(cudaMemcpy(sorted.data(), d_sorted, n * sizeof(entry), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(kept.data(), d_kept, num_kept * sizeof(entry), cudaMemcpyDeviceToHost));

    std::vector<entry> want = entries;
    std::stable_sort(want.begin(), want.end(), [](const entry& a, const entry& b) {
      return a.group != b.group ? a.group < b.group : a.score < b.score;
    });
    std::vector<entry> want_kept;
    std::copy_if(want.begin(), want.end(), std::back_inserter(want_kept),
                 [=](const entry& e) { return e.score >= threshold; });
    const bool sorted_ok = std::memcmp(sorted.data(), want.data(), n * sizeof(entry)) == 0;
    const bool kept_ok = kept.size() == want_kept.size() &&
                         std::memcmp(kept.data(), want_kept.data(), kept.size() * sizeof(entry)) == 0;
    std::printf("%-58s %s\n", "sort_pairs by (group, score) through a decomposer, stable", sorted_ok ? "ok" : "WRONG");
    std::printf("%-58s %s\n", "select_if(score >= 0.75) with a device lambda", kept_ok ? "ok" : "WRONG");
    std::printf("consumer_cuda: %s\n", sorted_ok && kept_ok ? "all results match" : "MISMATCH");
    for (void* p : {static_cast<void*>(d_entries), static_cast<void*>(d_sorted), static_cast<void*>(d_kept),
                    static_cast<void*>(d_keys), static_cast<void*>(d_sorted_keys)})
      CHECK(cudaFree(p));
    return sorted_ok && kept_ok ? 0 : 1;
  } catch (const upsweep::cuda_error& e) {
    std::fprintf(stderr, "consumer_cuda: %s\n", e.what());
    return 1;
  }
}
