// Bad arguments at the compiled API, from g++ (issue 9): null pointers with n > 0, empty, inverted
// and too-wide bit ranges, num_bins == 0, lower >= upper, bounds outside the type, overlapping
// input and output where the contract forbids it. Each is cudaErrorInvalidValue before any CUDA
// call, so these run without a GPU: the "temporary storage" is a host buffer that is never
// touched, only checked for size and alignment.
#include <upsweep/compact.hpp>
#include <upsweep/histogram.hpp>
#include <upsweep/scan.hpp>
#include <upsweep/sort.hpp>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>

namespace {

constexpr std::int64_t n = 1000;

// Host memory standing in for the device: aligned like cudaMalloc's, never dereferenced by the
// checks under test.
struct host_blob {
  explicit host_blob(std::size_t bytes) : ptr(std::aligned_alloc(256, (bytes + 255) / 256 * 256), &std::free) {}
  std::unique_ptr<void, decltype(&std::free)> ptr{nullptr, &std::free};
  template <class T>
  T* as() const { return static_cast<T*>(ptr.get()); }
};

// Runs `call(d_temp, bytes)` first as a size query (which must succeed: it checks only scalars),
// then with a host blob of that size; returns the second call's status.
template <class Call>
cudaError_t real_call(Call call) {
  std::size_t bytes = 0;
  const cudaError_t query = call(nullptr, bytes);
  if (query != cudaSuccess) return query;
  host_blob temp(bytes);
  return call(temp.ptr.get(), bytes);
}

// Items: n of up to 8 bytes, and a second array; neither is touched.
const host_blob items(16 * n), other(16 * n), counts(4096);

TEST(BadArguments, ScanRefusesNullPointersAndPartialOverlap) {
  const auto* in = items.as<std::int32_t>();
  auto* out = other.as<std::int32_t>();
  const auto scan = [&](const std::int32_t* d_in, std::int32_t* d_out) {
    return real_call([&](void* t, std::size_t& b) { return upsweep::inclusive_sum(t, b, d_in, d_out, n); });
  };
  EXPECT_EQ(scan(nullptr, out), cudaErrorInvalidValue);
  EXPECT_EQ(scan(in, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(scan(in, items.as<std::int32_t>() + 1), cudaErrorInvalidValue) << "output one item past the input";
  EXPECT_EQ(scan(in + 1, items.as<std::int32_t>()), cudaErrorInvalidValue) << "output one item before the input";
  EXPECT_EQ(real_call([&](void* t, std::size_t& b) {
              return upsweep::exclusive_sum(t, b, static_cast<const double*>(nullptr), other.as<double>(), n);
            }),
            cudaErrorInvalidValue);
  // n = 0 reads and writes nothing: null pointers are fine and no CUDA call is made.
  EXPECT_EQ(real_call([&](void* t, std::size_t& b) {
              return upsweep::inclusive_sum(t, b, static_cast<const float*>(nullptr), nullptr, 0);
            }),
            cudaSuccess);
}

TEST(BadArguments, ReduceRefusesANullResultEvenForNoItems) {
  const auto* in = items.as<std::uint64_t>();
  EXPECT_EQ(real_call([&](void* t, std::size_t& b) { return upsweep::reduce_sum(t, b, in, nullptr, n); }),
            cudaErrorInvalidValue);
  EXPECT_EQ(real_call([&](void* t, std::size_t& b) { return upsweep::reduce_max(t, b, in, nullptr, 0); }),
            cudaErrorInvalidValue);
  EXPECT_EQ(real_call([&](void* t, std::size_t& b) {
              return upsweep::reduce_min(t, b, static_cast<const std::uint64_t*>(nullptr), other.as<std::uint64_t>(), n);
            }),
            cudaErrorInvalidValue);
}

TEST(BadArguments, SortRefusesBitRangesOutsideTheKey) {
  std::size_t bytes = 0;
  const auto check = [&](auto key, int begin_bit, int end_bit) {
    using K = decltype(key);
    return upsweep::sort_keys(nullptr, bytes, static_cast<const K*>(nullptr), static_cast<K*>(nullptr), n, begin_bit,
                              end_bit);
  };
  EXPECT_EQ(check(std::uint8_t{}, 0, 9), cudaErrorInvalidValue) << "past the key width";
  EXPECT_EQ(check(std::int16_t{}, 0, 17), cudaErrorInvalidValue);
  EXPECT_EQ(check(float{}, 0, 33), cudaErrorInvalidValue);
  EXPECT_EQ(check(double{}, 0, 65), cudaErrorInvalidValue);
  EXPECT_EQ(check(std::uint64_t{}, 60, 70), cudaErrorInvalidValue);
  EXPECT_EQ(check(std::uint32_t{}, 9, 8), cudaErrorInvalidValue) << "inverted";
  EXPECT_EQ(check(std::uint32_t{}, -1, 8), cudaErrorInvalidValue) << "negative begin";
  EXPECT_EQ(check(std::uint32_t{}, -8, -1), cudaErrorInvalidValue);
  EXPECT_EQ(check(std::uint32_t{}, 32, 32), cudaSuccess) << "an empty window is valid (a copy)";
  EXPECT_EQ(check(std::uint8_t{}, 0, 8), cudaSuccess);
  EXPECT_EQ(upsweep::sort_pairs_descending(nullptr, bytes, static_cast<const double*>(nullptr), nullptr,
                                           static_cast<const float*>(nullptr), nullptr, n, 3, 2),
            cudaErrorInvalidValue);
  EXPECT_EQ(upsweep::argsort(nullptr, bytes, static_cast<const std::int8_t*>(nullptr),
                             static_cast<std::uint64_t*>(nullptr), n, 0, 9),
            cudaErrorInvalidValue);
}

TEST(BadArguments, SortRefusesNullPointersAndPartialOverlap) {
  const auto* keys = items.as<std::uint32_t>();
  auto* out = other.as<std::uint32_t>();
  const auto sort = [&](const std::uint32_t* in, std::uint32_t* o) {
    return real_call([&](void* t, std::size_t& b) { return upsweep::sort_keys(t, b, in, o, n); });
  };
  EXPECT_EQ(sort(nullptr, out), cudaErrorInvalidValue);
  EXPECT_EQ(sort(keys, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(sort(keys, items.as<std::uint32_t>() + n / 2), cudaErrorInvalidValue) << "output overlaps the input's tail";
  const auto pairs = [&](const std::uint32_t* vin, std::uint32_t* vout) {
    return real_call(
        [&](void* t, std::size_t& b) { return upsweep::sort_pairs(t, b, keys, out, vin, vout, n); });
  };
  EXPECT_EQ(pairs(nullptr, counts.as<std::uint32_t>()), cudaErrorInvalidValue);
  const auto* values = other.as<std::uint32_t>() + 8 * n;  // second half of `other`, apart from the keys
  EXPECT_EQ(pairs(values, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(pairs(values, const_cast<std::uint32_t*>(values) + 1), cudaErrorInvalidValue);
  EXPECT_EQ(real_call([&](void* t, std::size_t& b) {
              return upsweep::argsort(t, b, keys, static_cast<std::uint32_t*>(nullptr), n);
            }),
            cudaErrorInvalidValue)
      << "argsort's indices";
  EXPECT_EQ(real_call([&](void* t, std::size_t& b) {
              return upsweep::argsort_descending(t, b, static_cast<const float*>(nullptr), other.as<std::uint64_t>(), n);
            }),
            cudaErrorInvalidValue);
}

TEST(BadArguments, CompactionRefusesNullPointersAndForbiddenOverlap) {
  using upsweep::predicate;
  const auto* in = items.as<std::int16_t>();
  auto* out = other.as<std::int16_t>();
  auto* count = counts.as<std::int64_t>();
  const auto odd = predicate<std::int16_t>::odd();
  const auto select = [&](const std::int16_t* i, std::int16_t* o, std::int64_t* c) {
    return real_call([&](void* t, std::size_t& b) { return upsweep::select_if(t, b, i, o, c, n, odd); });
  };
  EXPECT_EQ(select(nullptr, out, count), cudaErrorInvalidValue);
  EXPECT_EQ(select(in, nullptr, count), cudaErrorInvalidValue);
  EXPECT_EQ(select(in, out, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(select(in, items.as<std::int16_t>() + 3, count), cudaErrorInvalidValue) << "partial overlap";
  EXPECT_EQ(real_call([&](void* t, std::size_t& b) {
              return upsweep::select_flagged(t, b, in, nullptr, out, count, n);
            }),
            cudaErrorInvalidValue)
      << "null flags";
  EXPECT_EQ(real_call([&](void* t, std::size_t& b) { return upsweep::count_if(t, b, in, nullptr, n, odd); }),
            cudaErrorInvalidValue);
  EXPECT_EQ(real_call([&](void* t, std::size_t& b) {
              return upsweep::count_if(t, b, static_cast<const std::int16_t*>(nullptr), count, n, odd);
            }),
            cudaErrorInvalidValue);
  // Partition writes rejected items to the back: its output may not touch its input at all.
  const auto part = [&](std::int16_t* o) {
    return real_call([&](void* t, std::size_t& b) { return upsweep::stable_partition(t, b, in, o, count, n, odd); });
  };
  EXPECT_EQ(part(items.as<std::int16_t>()), cudaErrorInvalidValue) << "in place";
  EXPECT_EQ(part(items.as<std::int16_t>() + n - 1), cudaErrorInvalidValue) << "overlapping the last item";
  EXPECT_EQ(part(nullptr), cudaErrorInvalidValue);
  // unique and run_length_encode read d_in[i - 1] after outputs may have been written.
  EXPECT_EQ(real_call([&](void* t, std::size_t& b) {
              return upsweep::unique(t, b, in, items.as<std::int16_t>(), count, n);
            }),
            cudaErrorInvalidValue)
      << "unique in place";
  const auto rle = [&](const std::int16_t* i, std::int16_t* u, std::int64_t* lengths) {
    return real_call(
        [&](void* t, std::size_t& b) { return upsweep::run_length_encode(t, b, i, u, lengths, count, n); });
  };
  auto* lengths = other.as<std::int64_t>() + n;
  EXPECT_EQ(rle(nullptr, out, lengths), cudaErrorInvalidValue);
  EXPECT_EQ(rle(in, nullptr, lengths), cudaErrorInvalidValue);
  EXPECT_EQ(rle(in, out, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(rle(in, items.as<std::int16_t>(), lengths), cudaErrorInvalidValue) << "unique items over the input";
}

TEST(BadArguments, HistogramRefusesEmptyBinsAndRanges) {
  std::size_t bytes = 0;
  const auto* u8 = static_cast<const std::uint8_t*>(nullptr);
  auto* c32 = static_cast<std::uint32_t*>(nullptr);
  EXPECT_EQ(upsweep::histogram_even(nullptr, bytes, u8, n, c32, 0, 0, 256), cudaErrorInvalidValue) << "num_bins == 0";
  EXPECT_EQ(upsweep::histogram_even(nullptr, bytes, u8, n, c32, -4, 0, 256), cudaErrorInvalidValue);
  EXPECT_EQ(upsweep::histogram_even(nullptr, bytes, u8, n, c32, 4, 10, 10), cudaErrorInvalidValue) << "lower == upper";
  EXPECT_EQ(upsweep::histogram_even(nullptr, bytes, u8, n, c32, 4, 10, 5), cudaErrorInvalidValue) << "lower > upper";
  EXPECT_EQ(upsweep::histogram_even(nullptr, bytes, u8, n, c32, 4, -1, 256), cudaErrorInvalidValue) << "below u8";
  EXPECT_EQ(upsweep::histogram_even(nullptr, bytes, u8, n, c32, 4, 0, 258), cudaErrorInvalidValue) << "past u8 + 1";
  EXPECT_EQ(upsweep::histogram_even(nullptr, bytes, u8, n, c32, 4, 0, 256), cudaSuccess) << "every u8";
  const auto* f = static_cast<const float*>(nullptr);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(upsweep::histogram_even(nullptr, bytes, f, n, c32, 4, nan, 1.0f), cudaErrorInvalidValue);
  EXPECT_EQ(upsweep::histogram_even(nullptr, bytes, f, n, c32, 4, 0.0f, inf), cudaErrorInvalidValue);
  EXPECT_EQ(upsweep::histogram_even(nullptr, bytes, f, n, c32, 4, 2.0f, -2.0f), cudaErrorInvalidValue);
  EXPECT_EQ(upsweep::histogram_even(nullptr, bytes, static_cast<const std::int64_t*>(nullptr), n,
                                    static_cast<std::uint64_t*>(nullptr), 8, std::int64_t{5}, std::int64_t{-5}),
            cudaErrorInvalidValue);
  EXPECT_EQ(upsweep::histogram_range(nullptr, bytes, u8, n, c32, static_cast<const long long*>(nullptr), 0),
            cudaErrorInvalidValue)
      << "num_bins == 0";
  EXPECT_EQ(upsweep::histogram_even(nullptr, bytes, u8, -1, c32, 4, 0, 256), cudaErrorInvalidValue) << "negative n";
}

TEST(BadArguments, HistogramRefusesNullPointersOnARealCall) {
  const auto* samples = items.as<std::int32_t>();
  auto* c = counts.as<std::uint32_t>();
  const auto even = [&](const std::int32_t* s, std::uint32_t* d_counts) {
    return real_call([&](void* t, std::size_t& b) {
      return upsweep::histogram_even(t, b, s, n, d_counts, 16, -100LL, 100LL);
    });
  };
  EXPECT_EQ(even(nullptr, c), cudaErrorInvalidValue);
  EXPECT_EQ(even(samples, nullptr), cudaErrorInvalidValue);
  EXPECT_EQ(real_call([&](void* t, std::size_t& b) {
              return upsweep::histogram_range(t, b, samples, n, c, static_cast<const long long*>(nullptr), 16);
            }),
            cudaErrorInvalidValue)
      << "null edges";
}

TEST(BadArguments, TooSmallOrMisalignedTemporaryStorageIsRefused) {
  const auto* in = items.as<std::uint32_t>();
  auto* out = other.as<std::uint32_t>();
  std::size_t bytes = 0;
  ASSERT_EQ(upsweep::sort_keys(nullptr, bytes, in, out, n), cudaSuccess);
  host_blob temp(bytes + 256);
  std::size_t short_bytes = bytes - 1;
  EXPECT_EQ(upsweep::sort_keys(temp.ptr.get(), short_bytes, in, out, n), cudaErrorInvalidValue) << "one byte short";
  std::size_t enough = bytes;
  EXPECT_EQ(upsweep::sort_keys(temp.as<char>() + 8, enough, in, out, n), cudaErrorMisalignedAddress);
  ASSERT_EQ(upsweep::inclusive_sum(nullptr, bytes, in, out, n), cudaSuccess);
  short_bytes = bytes - 1;
  EXPECT_EQ(upsweep::inclusive_sum(temp.ptr.get(), short_bytes, in, out, n), cudaErrorInvalidValue);
  ASSERT_EQ(upsweep::select_if(nullptr, bytes, in, out, counts.as<std::int64_t>(), n,
                               upsweep::predicate<std::uint32_t>::odd()),
            cudaSuccess);
  short_bytes = bytes / 2;
  EXPECT_EQ(upsweep::select_if(temp.ptr.get(), short_bytes, in, out, counts.as<std::int64_t>(), n,
                               upsweep::predicate<std::uint32_t>::odd()),
            cudaErrorInvalidValue);
}

// The convenience layer fails its size query first, so bad scalars throw before any CUDA call.
TEST(BadArguments, ConvenienceLayerThrowsCudaErrorForBadScalars) {
  const auto throws_invalid = [](auto&& call) {
    try {
      call();
    } catch (const upsweep::cuda_error& e) {
      return e.code() == cudaErrorInvalidValue;
    }
    return false;
  };
  EXPECT_TRUE(throws_invalid([] { upsweep::sort_keys(static_cast<const std::uint16_t*>(nullptr), nullptr, 10, 4, 3); }));
  EXPECT_TRUE(throws_invalid([] { upsweep::sort_keys_descending(static_cast<const double*>(nullptr), nullptr, 10, 0, 65); }));
  EXPECT_TRUE(throws_invalid([] {
    upsweep::histogram_even(static_cast<const float*>(nullptr), 10, static_cast<std::uint32_t*>(nullptr), 4, 1.0f, 0.0f);
  }));
  EXPECT_TRUE(throws_invalid([] {
    upsweep::histogram_range(static_cast<const std::uint8_t*>(nullptr), 10, static_cast<std::uint64_t*>(nullptr),
                             static_cast<const long long*>(nullptr), 0);
  }));
  EXPECT_TRUE(throws_invalid([] { upsweep::inclusive_sum(static_cast<const float*>(nullptr), nullptr, -1); }));
  EXPECT_TRUE(throws_invalid([] { upsweep::stable_partition(static_cast<const float*>(nullptr), nullptr, nullptr, -5,
                                                     upsweep::predicate<float>::finite()); }));
}

}  // namespace
