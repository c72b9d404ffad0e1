// Seed ladder (scan/ladder/): every scan and reduce rung against the sequential CPU reference, on
// fresh random data, at sizes on both sides of each rung's block, tile, part and level boundaries.
#include "ladder.hpp"

#include "../support/device_buffer.hpp"
#include "../support/device_random.cuh"
#include "../support/gpu_test.hpp"
#include "../support/reference.hpp"
#include "../support/seed.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace {

using upsweep::reduce_variant;
using upsweep::scan_variant;
using upsweep::test::device_buffer;

// Boundaries: warps (32), reduce blocks (256, pairs 512), Fenwick blocks (512, 512^2), scan
// tiles (1024, 1024^2), two-pass parts (1024 tiles), a prime, and many levels.
const std::int64_t scan_sizes[] = {0,      1,      2,      31,     32,      33,      511,     512,    513,
                                   1023,   1024,   1025,   2047,   2048,    2049,    262143,  262144, 262145,
                                   1048575, 1048576, 1048577, 999983, 10000003};
const std::int64_t reduce_sizes[] = {0,     1,     2,      31,     32,     33,     255,    256,    257,
                                     511,   512,   513,    1023,   1024,   1025,   65535,  65536,  65537,
                                     131071, 131072, 131073, 262145, 524289, 999983, 10000003};

// The largest partial sum of the float tests with small integers that stays exact.
constexpr double exact_float_limit = 16777216.0;  // 2^24
constexpr float small_integer_max = 8.0f;

template <class T>
T poison_value() {
  if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::quiet_NaN();
  else return static_cast<T>(0x5eadbeef);
}

// First index where `actual` misses `expected` by more than tolerance(i), or -1.
template <class T, class Ref, class Tolerance>
std::int64_t first_mismatch(const std::vector<T>& actual, const std::vector<Ref>& expected, Tolerance tolerance) {
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const double error = std::fabs(static_cast<double>(actual[i]) - static_cast<double>(expected[i]));
    const bool exact = static_cast<Ref>(actual[i]) == expected[i];
    if (!exact && !(error <= tolerance(i))) return static_cast<std::int64_t>(i);
  }
  return -1;
}

std::string size_name(std::int64_t n) { return "n" + std::to_string(n); }

// ---- scans --------------------------------------------------------------------------------------

// Sizes over UPSWEEP_TEST_MAX_ITEMS (sanitizer runs) skip, except the largest, which runs once at the cap.
template <std::size_t N>
std::int64_t largest(const std::int64_t (&sizes)[N]) {
  return *std::max_element(sizes, sizes + N);
}

// One fixture shape for both families: parameters (variant, size), skipping capped repeats.
// Sizes over UPSWEEP_TEST_MAX_ITEMS are skipped, except the largest, which runs at the cap.
template <class Variant>
class ladder_fixture : public upsweep::test::gpu_param_test<std::tuple<Variant, std::int64_t>> {
 protected:
  using base = upsweep::test::gpu_param_test<std::tuple<Variant, std::int64_t>>;
  virtual std::int64_t largest_size() const = 0;
  void SetUp() override {
    base::SetUp();
    if (this->IsSkipped()) return;
    const std::int64_t wanted = std::get<1>(this->GetParam());
    if (upsweep::test::max_test_items(wanted) < wanted && wanted != largest_size())
      GTEST_SKIP() << wanted << " items is over UPSWEEP_TEST_MAX_ITEMS";
  }
  Variant variant() const { return std::get<0>(this->GetParam()); }
  std::int64_t num_items() const { return upsweep::test::max_test_items(std::get<1>(this->GetParam())); }
};

class ladder_scan : public ladder_fixture<scan_variant> {
 protected:
  std::int64_t largest_size() const override { return largest(scan_sizes); }

  // Scans d_in into a poisoned output (one guard item past the end), with temporary storage of
  // exactly the queried size; checks the guard and returns the output.
  template <class T>
  void run_scan(bool exclusive, const device_buffer<T>& in, std::vector<T>& out) {
    const std::int64_t n = in.size();
    device_buffer<T> d_out(n, 1);
    CUDA_OK(upsweep::test::poison(d_out.data(), n + 1, poison_value<T>()));
    const auto scan = exclusive ? upsweep::ladder_exclusive_scan<T> : upsweep::ladder_inclusive_scan<T>;
    std::size_t temp_bytes = 0;
    CUDA_OK(scan(variant(), nullptr, temp_bytes, in.data(), d_out.data(), n, 0));
    ASSERT_GT(temp_bytes, 0u) << "a size query answers a usable size";
    device_buffer<unsigned char> temp(static_cast<std::int64_t>(temp_bytes));
    CUDA_OK(scan(variant(), temp.data(), temp_bytes, in.data(), d_out.data(), n, 0));
    CUDA_OK(cudaDeviceSynchronize());
    const T guard = d_out.download(1, n)[0];
    ASSERT_TRUE(std::isnan(static_cast<double>(guard)) || guard == poison_value<T>()) << "wrote past the end";
    out = d_out.download(n);
  }

  // Integers: the result must equal the sequential sum exactly (uint32 wraps the same way).
  template <class T>
  void expect_exact_integer_scan(bool exclusive, T lo, T hi) {
    const std::uint64_t seed = upsweep::test::fresh_seed();
    SCOPED_TRACE(upsweep::test::seed_trace(seed));
    const std::int64_t n = num_items();
    device_buffer<T> in(n);
    CUDA_OK(upsweep::test::fill_random(in.data(), n, seed, lo, hi));
    std::vector<T> out;
    ASSERT_NO_FATAL_FAILURE(run_scan(exclusive, in, out));
    const std::vector<T> host_in = in.download();
    const std::vector<T> expected = exclusive ? upsweep::test::reference_exclusive_scan<T>(host_in, T{}, std::plus<T>{})
                                              : upsweep::test::reference_inclusive_scan<T>(host_in, std::plus<T>{});
    const std::int64_t bad = first_mismatch(out, expected, [](std::size_t) { return 0.0; });
    ASSERT_EQ(bad, -1) << "item " << bad << " is " << out[bad] << ", expected " << expected[bad];
  }

  // Floats, compared with a double reference: exact where every partial sum is an integer below
  // 2^24 (small integers, small n), else within n * eps * sum |x| of the prefix.
  void expect_float_scan(bool exclusive, float lo, float hi, bool integers) {
    const std::uint64_t seed = upsweep::test::fresh_seed();
    SCOPED_TRACE(upsweep::test::seed_trace(seed));
    const std::int64_t n = num_items();
    device_buffer<float> in(n);
    if (integers) {
      device_buffer<std::int32_t> ints(n);
      CUDA_OK(upsweep::test::fill_random(ints.data(), n, seed, static_cast<std::int32_t>(lo), static_cast<std::int32_t>(hi)));
      std::vector<float> as_floats;
      for (std::int32_t x : ints.download()) as_floats.push_back(static_cast<float>(x));
      in.upload(as_floats);
    } else {
      CUDA_OK(upsweep::test::fill_random(in.data(), n, seed, lo, hi));
    }
    std::vector<float> out;
    ASSERT_NO_FATAL_FAILURE(run_scan(exclusive, in, out));
    const std::vector<float> host_in = in.download();
    const std::vector<double> expected = exclusive
                                             ? upsweep::test::reference_exclusive_scan<double>(host_in, 0.0, std::plus<double>{})
                                             : upsweep::test::reference_inclusive_scan<double>(host_in, std::plus<double>{});
    const bool exact = integers && static_cast<double>(n) * small_integer_max < exact_float_limit;
    // Bound of item i: (terms) * eps * (sum of |x| over its terms), accumulated as we go.
    std::vector<double> bound(static_cast<std::size_t>(n));
    double magnitude = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t terms = exclusive ? i : i + 1;
      if (!exclusive) magnitude += std::fabs(static_cast<double>(host_in[i]));
      bound[i] = static_cast<double>(terms) * std::numeric_limits<float>::epsilon() * magnitude + 1e-30;
      if (exclusive) magnitude += std::fabs(static_cast<double>(host_in[i]));
    }
    const std::int64_t bad = first_mismatch(out, expected, [&](std::size_t i) { return exact ? 0.0 : bound[i]; });
    ASSERT_EQ(bad, -1) << "item " << bad << " is " << out[bad] << ", expected " << expected[bad]
                       << (exact ? " exactly" : " within " + std::to_string(bad >= 0 ? bound[bad] : 0.0));
  }
};

TEST_P(ladder_scan, inclusive_sums_of_int32_equal_the_sequential_sums) {
  expect_exact_integer_scan<std::int32_t>(false, -100, 100);
}
TEST_P(ladder_scan, exclusive_sums_of_int32_equal_the_sequential_sums) {
  expect_exact_integer_scan<std::int32_t>(true, -100, 100);
}
TEST_P(ladder_scan, inclusive_sums_of_uint32_wrap_like_the_sequential_sums) {
  expect_exact_integer_scan<std::uint32_t>(false, 0u, std::numeric_limits<std::uint32_t>::max());
}
TEST_P(ladder_scan, exclusive_sums_of_uint32_wrap_like_the_sequential_sums) {
  expect_exact_integer_scan<std::uint32_t>(true, 0u, std::numeric_limits<std::uint32_t>::max());
}
TEST_P(ladder_scan, inclusive_float_sums_of_small_integers_are_exact_below_two_to_the_24) {
  expect_float_scan(false, 0.0f, small_integer_max, true);
}
TEST_P(ladder_scan, exclusive_float_sums_of_small_integers_are_exact_below_two_to_the_24) {
  expect_float_scan(true, 0.0f, small_integer_max, true);
}
TEST_P(ladder_scan, inclusive_float_sums_of_random_values_stay_within_the_error_bound) {
  expect_float_scan(false, -1.0f, 1.0f, false);
}
TEST_P(ladder_scan, exclusive_float_sums_of_random_values_stay_within_the_error_bound) {
  expect_float_scan(true, -1.0f, 1.0f, false);
}

// In place: every rung reads an item before anything overwrites it.
TEST_P(ladder_scan, scanning_in_place_gives_the_same_sums) {
  const std::uint64_t seed = upsweep::test::fresh_seed();
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  const std::int64_t n = num_items();
  device_buffer<std::int32_t> data(n);
  CUDA_OK(upsweep::test::fill_random(data.data(), n, seed, -100, 100));
  const std::vector<std::int32_t> host_in = data.download();
  std::size_t temp_bytes = 0;
  CUDA_OK(upsweep::ladder_inclusive_scan<std::int32_t>(variant(), nullptr, temp_bytes, data.data(), data.data(), n));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(temp_bytes));
  CUDA_OK(upsweep::ladder_inclusive_scan<std::int32_t>(variant(), temp.data(), temp_bytes, data.data(), data.data(), n));
  CUDA_OK(cudaDeviceSynchronize());
  const auto expected = upsweep::test::reference_inclusive_scan<std::int32_t>(host_in, std::plus<std::int32_t>{});
  const auto out = data.download();
  const std::int64_t bad = first_mismatch(out, expected, [](std::size_t) { return 0.0; });
  ASSERT_EQ(bad, -1) << "item " << bad << " is " << out[bad] << ", expected " << expected[bad];
}

TEST_P(ladder_scan, too_little_temporary_storage_is_an_error_not_a_launch) {
  const std::int64_t n = num_items();
  if (n == 0) GTEST_SKIP() << "nothing to scan";
  device_buffer<std::int32_t> in(n), out(n);
  std::size_t temp_bytes = 0;
  CUDA_OK(upsweep::ladder_inclusive_scan<std::int32_t>(variant(), nullptr, temp_bytes, in.data(), out.data(), n));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(temp_bytes));
  std::size_t short_bytes = temp_bytes - 1;
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::ladder_inclusive_scan<std::int32_t>(variant(), temp.data(), short_bytes,
                                                                                in.data(), out.data(), n));
  cudaGetLastError();
}

INSTANTIATE_TEST_SUITE_P(seed_ladder, ladder_scan,
                         ::testing::Combine(::testing::ValuesIn(upsweep::all_scan_variants),
                                            ::testing::ValuesIn(scan_sizes)),
                         [](const auto& info) {
                           return std::string(upsweep::name(std::get<0>(info.param))) + "_" +
                                  size_name(std::get<1>(info.param));
                         });

// ---- reductions ----------------------------------------------------------------------------------

class ladder_reduce : public ladder_fixture<reduce_variant> {
 protected:
  std::int64_t largest_size() const override { return largest(reduce_sizes); }

  template <class T>
  void run_reduce(const device_buffer<T>& in, T& result) {
    device_buffer<T> d_out(1, 1);
    CUDA_OK(upsweep::test::poison(d_out.data(), 2, poison_value<T>()));
    std::size_t temp_bytes = 0;
    CUDA_OK(upsweep::ladder_reduce_sum<T>(variant(), nullptr, temp_bytes, in.data(), d_out.data(), in.size()));
    ASSERT_GT(temp_bytes, 0u) << "a size query answers a usable size";
    device_buffer<unsigned char> temp(static_cast<std::int64_t>(temp_bytes));
    CUDA_OK(upsweep::ladder_reduce_sum<T>(variant(), temp.data(), temp_bytes, in.data(), d_out.data(), in.size()));
    CUDA_OK(cudaDeviceSynchronize());
    const std::vector<T> out = d_out.download(2);
    ASSERT_TRUE(std::isnan(static_cast<double>(out[1])) || out[1] == poison_value<T>()) << "wrote past the result";
    result = out[0];
  }

  void expect_float_sum(float lo, float hi, bool integers) {
    const std::uint64_t seed = upsweep::test::fresh_seed();
    SCOPED_TRACE(upsweep::test::seed_trace(seed));
    const std::int64_t n = num_items();
    device_buffer<float> in(n);
    if (integers) {
      device_buffer<std::int32_t> ints(n);
      CUDA_OK(upsweep::test::fill_random(ints.data(), n, seed, static_cast<std::int32_t>(lo), static_cast<std::int32_t>(hi)));
      std::vector<float> as_floats;
      for (std::int32_t x : ints.download()) as_floats.push_back(static_cast<float>(x));
      in.upload(as_floats);
    } else {
      CUDA_OK(upsweep::test::fill_random(in.data(), n, seed, lo, hi));
    }
    float result = 0;
    ASSERT_NO_FATAL_FAILURE(run_reduce(in, result));
    const std::vector<float> host_in = in.download();
    const double expected = upsweep::test::reference_reduce<double>(host_in, 0.0, std::plus<double>{});
    if (integers && static_cast<double>(n) * small_integer_max < exact_float_limit) {
      EXPECT_EQ(static_cast<double>(result), expected);
    } else {
      EXPECT_NEAR(static_cast<double>(result), expected,
                  upsweep::test::float_sum_bound<float>(host_in, host_in.size()));
    }
  }
};

TEST_P(ladder_reduce, int32_sums_equal_the_sequential_sum) {
  const std::uint64_t seed = upsweep::test::fresh_seed();
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  const std::int64_t n = num_items();
  device_buffer<std::int32_t> in(n);
  CUDA_OK(upsweep::test::fill_random(in.data(), n, seed, -100, 100));
  std::int32_t result = 0;
  ASSERT_NO_FATAL_FAILURE(run_reduce(in, result));
  EXPECT_EQ(result, upsweep::test::reference_reduce<std::int32_t>(in.download(), 0, std::plus<std::int32_t>{}));
}
TEST_P(ladder_reduce, float_sums_of_small_integers_are_exact_below_two_to_the_24) {
  expect_float_sum(0.0f, small_integer_max, true);
}
TEST_P(ladder_reduce, float_sums_of_random_values_stay_within_the_error_bound) {
  expect_float_sum(-1.0f, 1.0f, false);
}

INSTANTIATE_TEST_SUITE_P(seed_ladder, ladder_reduce,
                         ::testing::Combine(::testing::ValuesIn(upsweep::all_reduce_variants),
                                            ::testing::ValuesIn(reduce_sizes)),
                         [](const auto& info) {
                           return std::string(upsweep::name(std::get<0>(info.param))) + "_" +
                                  size_name(std::get<1>(info.param));
                         });

// ---- past 2^31 items (opt-in: UPSWEEP_TEST_HUGE=1; needs ~26 GB of device memory) ---------------

constexpr std::int64_t huge_items = (std::int64_t{1} << 31) + 1029;

bool huge_tests_enabled() {
  const char* flag = std::getenv("UPSWEEP_TEST_HUGE");
  return flag != nullptr && std::string(flag) == "1" && upsweep::test::max_test_items(huge_items) == huge_items;
}

class ladder_scan_huge : public upsweep::test::gpu_param_test<scan_variant> {};

// The reference regenerates the input on the host from (seed, index) and checks the output in
// chunks, so host memory stays small.
TEST_P(ladder_scan_huge, inclusive_sums_past_two_to_the_31_items_are_exact) {
  if (!huge_tests_enabled()) GTEST_SKIP() << "set UPSWEEP_TEST_HUGE=1 to run";
  const std::uint64_t seed = upsweep::test::fresh_seed();
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  const std::uint32_t lo = 0, hi = std::numeric_limits<std::uint32_t>::max();
  device_buffer<std::uint32_t> in(huge_items), out(huge_items);
  CUDA_OK(upsweep::test::fill_random(in.data(), huge_items, seed, lo, hi));
  std::size_t temp_bytes = 0;
  CUDA_OK(upsweep::ladder_inclusive_scan<std::uint32_t>(GetParam(), nullptr, temp_bytes, in.data(), out.data(), huge_items));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(temp_bytes));
  CUDA_OK(upsweep::ladder_inclusive_scan<std::uint32_t>(GetParam(), temp.data(), temp_bytes, in.data(), out.data(),
                                                        huge_items));
  CUDA_OK(cudaDeviceSynchronize());
  constexpr std::int64_t chunk = std::int64_t{1} << 26;
  std::uint32_t running = 0;
  for (std::int64_t begin = 0; begin < huge_items; begin += chunk) {
    const std::int64_t count = std::min(chunk, huge_items - begin);
    const std::vector<std::uint32_t> got = out.download(count, begin);
    for (std::int64_t i = 0; i < count; ++i) {
      running += upsweep::test::random_value<std::uint32_t>(seed, static_cast<std::uint64_t>(begin + i), lo, hi);
      ASSERT_EQ(got[i], running) << "item " << begin + i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(seed_ladder, ladder_scan_huge, ::testing::ValuesIn(upsweep::all_scan_variants),
                         [](const auto& info) { return std::string(upsweep::name(info.param)); });

class ladder_reduce_huge : public upsweep::test::gpu_param_test<reduce_variant> {};

TEST_P(ladder_reduce_huge, int32_sums_past_two_to_the_31_items_are_exact) {
  if (!huge_tests_enabled()) GTEST_SKIP() << "set UPSWEEP_TEST_HUGE=1 to run";
  const std::uint64_t seed = upsweep::test::fresh_seed();
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  const std::int32_t lo = -3, hi = 3;  // a random walk: far from overflow
  device_buffer<std::int32_t> in(huge_items), out(1);
  CUDA_OK(upsweep::test::fill_random(in.data(), huge_items, seed, lo, hi));
  std::size_t temp_bytes = 0;
  CUDA_OK(upsweep::ladder_reduce_sum<std::int32_t>(GetParam(), nullptr, temp_bytes, in.data(), out.data(), huge_items));
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(temp_bytes));
  CUDA_OK(upsweep::ladder_reduce_sum<std::int32_t>(GetParam(), temp.data(), temp_bytes, in.data(), out.data(), huge_items));
  CUDA_OK(cudaDeviceSynchronize());
  std::int64_t expected = 0;
  for (std::int64_t i = 0; i < huge_items; ++i)
    expected += upsweep::test::random_value<std::int32_t>(seed, static_cast<std::uint64_t>(i), lo, hi);
  EXPECT_EQ(static_cast<std::int64_t>(out.download()[0]), expected);
}

INSTANTIATE_TEST_SUITE_P(seed_ladder, ladder_reduce_huge, ::testing::ValuesIn(upsweep::all_reduce_variants),
                         [](const auto& info) { return std::string(upsweep::name(info.param)); });

}  // namespace
