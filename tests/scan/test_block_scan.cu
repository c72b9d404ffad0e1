// Block layer: tile loads and stores (direct and transposed, vector and scalar, partial tiles)
// and block scans with no prefix, a fixed prefix and a non-commutative operator.
#include <upsweep/scan/block_load_store.cuh>
#include <upsweep/scan/block_reduce.cuh>
#include <upsweep/scan/block_scan.cuh>

#include "scan_test_support.cuh"

#include <cuda/std/functional>

namespace upsweep::test {
namespace {

// One block: load `valid` items, scan (inclusive without prefix, or exclusive from init), store.
template <int BlockThreads, int IPT, tile_io Io, bool Exclusive, class T, class Op>
__global__ void block_scan_kernel(const T* in, T* out, long long valid, T init, Op op, T* total) {
  __shared__ tile_exchange_storage<T, BlockThreads, IPT> exchange;
  __shared__ typename block_scan<T, BlockThreads>::storage scan_storage;
  T items[IPT];
  load_tile<Io, BlockThreads, IPT>(in, valid, items, exchange);
  block_scan<T, BlockThreads> scan(scan_storage);
  T block_total;
  if constexpr (Exclusive) block_total = scan.exclusive_scan(items, init, op);
  else block_total = scan.inclusive_scan(items, op, no_prefix{});
  store_tile<Io, BlockThreads, IPT>(out, valid, items, exchange);
  if (threadIdx.x == 0) *total = block_total;
}

template <int BlockThreads, int IPT, tile_io Io, bool Exclusive, class T, class Op>
void check_block_scan(const std::vector<T>& host_in, long long valid, T init, Op op) {
  const auto n = static_cast<std::int64_t>(host_in.size());
  device_buffer<T> in(host_in), out(n), total(1);
  CUDA_OK(cudaMemset(out.data(), poison_byte, n * sizeof(T)));
  block_scan_kernel<BlockThreads, IPT, Io, Exclusive><<<1, BlockThreads>>>(in.data(), out.data(), valid, init, op,
                                                                           total.data());
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaDeviceSynchronize());
  const std::vector<T> prefix(host_in.begin(), host_in.begin() + valid);
  const auto want = Exclusive ? reference_exclusive_scan<T>(prefix, init, op) : reference_inclusive_scan<T>(prefix, op);
  auto got = out.download();
  for (long long i = valid; i < n; ++i) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(&got[i]);
    for (std::size_t b = 0; b < sizeof(T); ++b) ASSERT_EQ(bytes[b], poison_byte) << "stored past valid, index " << i;
  }
  got.resize(valid);
  expect_same_bits(got, want);
  if (valid == n) {
    const T want_total = reference_inclusive_scan<T>(host_in, op).back();
    const T got_total = total.download()[0];
    ASSERT_EQ(0, std::memcmp(&got_total, &want_total, sizeof(T)));
  }
}

template <int BlockThreads, int IPT, tile_io Io>
void check_all_forms(std::uint64_t seed) {
  constexpr long long tile = BlockThreads * IPT;
  for (long long valid : {tile, tile - 1, 1ll, 33ll, tile / 2 + 3}) {
    SCOPED_TRACE("valid " + std::to_string(valid) + " of " + std::to_string(tile));
    const auto ints = random_small_ints<int>(tile, seed + valid, -50, 50);
    check_block_scan<BlockThreads, IPT, Io, false>(ints, valid, 0, cuda::std::plus<int>{});
    check_block_scan<BlockThreads, IPT, Io, true>(ints, valid, 9, cuda::std::plus<int>{});
    std::vector<affine16> maps(tile);
    for (long long i = 0; i < tile; ++i)
      maps[i] = {static_cast<std::uint16_t>(mix64(seed + i) | 1), static_cast<std::uint16_t>(mix64(seed ^ i))};
    check_block_scan<BlockThreads, IPT, Io, false>(maps, valid, affine16{1, 0}, then_affine{});
    check_block_scan<BlockThreads, IPT, Io, true>(maps, valid, affine16{3, 1}, then_affine{});
  }
}

class BlockScan : public gpu_test {};

TEST_F(BlockScan, TransposedVectorTilesScanLikeTheCpu) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  check_all_forms<256, 16, tile_io::transpose>(seed);
  check_all_forms<128, 8, tile_io::transpose>(seed);
}

TEST_F(BlockScan, DirectVectorTilesScanLikeTheCpu) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  check_all_forms<256, 16, tile_io::direct>(seed);
  check_all_forms<64, 4, tile_io::direct>(seed);
}

TEST_F(BlockScan, OddItemsPerThreadTakeTheScalarPath) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  check_all_forms<96, 7, tile_io::transpose>(seed);
  check_all_forms<32, 3, tile_io::direct>(seed);
}

template <int BlockThreads, class T>
__global__ void block_reduce_kernel(const T* in, T* out, int valid_threads) {
  __shared__ typename block_reduce<T, BlockThreads>::storage storage;
  const maybe<T> mine = {in[threadIdx.x], static_cast<int>(threadIdx.x) < valid_threads};
  const maybe<T> total = block_reduce<T, BlockThreads>(storage).reduce(mine, mat_mul{});
  out[threadIdx.x] = total.value;
}

TEST_F(BlockScan, BlockReduceKeepsThreadOrder) {
  const auto seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  constexpr int threads = 192;
  std::vector<mat2> in(threads);
  for (int i = 0; i < threads; ++i)
    for (int k = 0; k < 4; ++k) in[i].m[k] = static_cast<std::uint32_t>(mix64(seed + 4 * i + k));
  for (int valid : {threads, 1, 100}) {
    device_buffer<mat2> d_in(in), d_out(threads);
    block_reduce_kernel<threads><<<1, threads>>>(d_in.data(), d_out.data(), valid);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    const std::vector<mat2> head(in.begin(), in.begin() + valid);
    const mat2 want = reference_inclusive_scan<mat2>(head, mat_mul{}).back();
    const auto got = d_out.download();
    for (int t = 0; t < threads; ++t) ASSERT_EQ(0, std::memcmp(&got[t], &want, sizeof(mat2))) << "thread " << t;
  }
}

}  // namespace
}  // namespace upsweep::test
