// Shared pieces of the scan and reduce GPU tests: random host data, a runner that poisons the
// output, guards the bytes after it and checks the input is left unchanged, and exact or
// float-bounded comparisons.
#pragma once

#include "../support/device_buffer.hpp"
#include "../support/device_random.cuh"
#include "../support/gpu_test.hpp"
#include "../support/reference.hpp"
#include "../support/seed.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

namespace upsweep::test {

// Associative, non-commutative operators that catch swapped operands.
// x -> a*x + b (mod 2^16): composition is associative, not commutative; 4 bytes (packed state).
struct affine16 {
  std::uint16_t a, b;
};
struct then_affine {  // f, then g
  __host__ __device__ affine16 operator()(affine16 f, affine16 g) const {
    return {static_cast<std::uint16_t>(g.a * f.a), static_cast<std::uint16_t>(g.a * f.b + g.b)};
  }
};
// 2x2 matrices mod 2^32: associative, not commutative; 16 bytes (split state).
struct mat2 {
  std::uint32_t m[4];
};
struct mat_mul {
  __host__ __device__ mat2 operator()(const mat2& x, const mat2& y) const {
    return {{x.m[0] * y.m[0] + x.m[1] * y.m[2], x.m[0] * y.m[1] + x.m[1] * y.m[3],
             x.m[2] * y.m[0] + x.m[3] * y.m[2], x.m[2] * y.m[1] + x.m[3] * y.m[3]}};
  }
};

inline constexpr unsigned char poison_byte = 0xA5;
inline constexpr std::int64_t guard_items = 64;

// Random values in [lo, hi], drawn on the host from `seed`.
template <class T>
std::vector<T> random_host(std::int64_t n, std::uint64_t seed, T lo, T hi) {
  std::vector<T> out(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) out[i] = random_value<T>(seed, static_cast<std::uint64_t>(i), lo, hi);
  return out;
}

// Integers in [lo, hi] as T: float sums of these are exact in any association order.
template <class T>
std::vector<T> random_small_ints(std::int64_t n, std::uint64_t seed, long long lo, long long hi) {
  std::vector<T> out(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(random_value<long long>(seed, static_cast<std::uint64_t>(i), lo, hi));
  return out;
}

// Largest small integer for exact sums: float sums of 10^7 items stay below 2^24 only with
// values of at most 1.
template <class T>
constexpr long long exact_max(long long wanted) {
  return std::is_same_v<T, float> ? 1 : wanted;
}

struct run_options {
  int misalign = 0;  // elements by which input and output start past an aligned allocation
  bool in_place = false;
  cudaStream_t stream = 0;
};

// Runs a core-layer call `call(d_temp, bytes, d_in, d_out, n, stream)` on a copy of `host_in`,
// returns the output; checks the guard past the output and that the input is unchanged.
template <class Acc, class In, class Call>
void run_core(const std::vector<In>& host_in, Call call, std::vector<Acc>& result, const run_options& opt = {}) {
  const auto n = static_cast<std::int64_t>(host_in.size());
  device_buffer<In> in(n + opt.misalign);
  device_buffer<Acc> out_storage(n + opt.misalign + guard_items);
  if (n > 0) CUDA_OK(cudaMemcpy(in.data() + opt.misalign, host_in.data(), n * sizeof(In), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(out_storage.data(), poison_byte, (n + opt.misalign + guard_items) * sizeof(Acc)));
  Acc* d_out = opt.in_place ? reinterpret_cast<Acc*>(in.data() + opt.misalign) : out_storage.data() + opt.misalign;
  const In* d_in = in.data() + opt.misalign;

  std::size_t bytes = 0;
  CUDA_OK(call(nullptr, bytes, d_in, d_out, n, opt.stream));
  ASSERT_GT(bytes, 0u);
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  CUDA_OK(call(temp.data(), bytes, d_in, d_out, n, opt.stream));
  CUDA_OK(cudaStreamSynchronize(opt.stream));
  CUDA_OK(cudaGetLastError());

  result.assign(static_cast<std::size_t>(n), Acc{});
  if (n > 0) CUDA_OK(cudaMemcpy(result.data(), d_out, n * sizeof(Acc), cudaMemcpyDeviceToHost));
  if (!opt.in_place) {
    std::vector<unsigned char> guard(guard_items * sizeof(Acc));
    CUDA_OK(cudaMemcpy(guard.data(), out_storage.data() + opt.misalign + n, guard.size(), cudaMemcpyDeviceToHost));
    for (unsigned char b : guard) ASSERT_EQ(b, poison_byte) << "written past the end of the output";
    std::vector<In> after(static_cast<std::size_t>(n));
    if (n > 0) CUDA_OK(cudaMemcpy(after.data(), d_in, n * sizeof(In), cudaMemcpyDeviceToHost));
    ASSERT_EQ(0, n == 0 ? 0 : std::memcmp(after.data(), host_in.data(), n * sizeof(In))) << "input changed";
  }
}

// Bitwise equality, first mismatch reported.
template <class T>
void expect_same_bits(const std::vector<T>& got, const std::vector<T>& expected) {
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_EQ(0, std::memcmp(&got[i], &expected[i], sizeof(T))) << "first mismatch at index " << i << " of " << got.size();
}

// Float prefix sums within n * eps * sum|x| of a double reference, position by position.
template <class T>
void expect_float_prefix_sums_close(const std::vector<T>& got, const std::vector<T>& in, bool exclusive) {
  double exact = 0, magnitude = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (!exclusive) {
      exact += in[i];
      magnitude += std::fabs(static_cast<double>(in[i]));
    }
    const double bound = static_cast<double>(i + 1) * std::numeric_limits<T>::epsilon() * magnitude + 1e-30;
    ASSERT_LE(std::fabs(static_cast<double>(got[i]) - exact), bound) << "index " << i;
    if (exclusive) {
      exact += in[i];
      magnitude += std::fabs(static_cast<double>(in[i]));
    }
  }
}

}  // namespace upsweep::test
