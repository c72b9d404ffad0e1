// Bin index of one sample, the building block every histogram kernel shares: evenly spaced bins
// (integers exact, by a shift or a rounded-up fixed-point reciprocal, never a divide per sample;
// floats by one multiply with a clamp) and custom edges (binary search). Host and device code,
// no CUDA calls: the host tests check the integer arithmetic exhaustively.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

namespace upsweep {

// Type of the bin bounds for a sample type: integers of up to 32 bits take 64-bit signed bounds,
// so the upper bound may be one past the type's maximum ([-128, 128) is every int8, [0, 2^32)
// every uint32); 64-bit integers and floats take their own type.
namespace detail {
template <class Sample>
constexpr bool widens_level() {  // no sizeof for non-object types: overload resolution may ask about void
  if constexpr (cuda::std::is_integral_v<Sample>) return sizeof(Sample) <= 4;
  else return false;
}
}  // namespace detail
template <class Sample>
struct histogram_level {
  using type = cuda::std::conditional_t<detail::widens_level<Sample>(), long long, Sample>;
};
template <class Sample>
using histogram_level_t = typename histogram_level<Sample>::type;

template <class Sample>
inline constexpr bool is_histogram_sample_v =
    (cuda::std::is_integral_v<Sample> && !cuda::std::is_same_v<Sample, bool>) ||
    cuda::std::is_same_v<Sample, float> || cuda::std::is_same_v<Sample, double>;

namespace detail {

// 128-bit helpers: the high half of a product, and a full 64 x 64 -> 128 product for comparing.
__host__ __device__ inline std::uint32_t mul_hi32(std::uint32_t a, std::uint32_t b) {
#ifdef __CUDA_ARCH__
  return __umulhi(a, b);
#else
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(a) * b) >> 32);
#endif
}

__host__ __device__ inline std::uint64_t mul_hi64(std::uint64_t a, std::uint64_t b) {
#ifdef __CUDA_ARCH__
  return __umul64hi(a, b);
#else
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
}

// Bits [64, 128) of a * m for a < 2^32 and a 64-bit m, from two 32-bit-wide products:
// a*m = a*m_hi*2^32 + a*m_lo, and floor((A + f) / 2^32) = floor(A / 2^32) for whole A, 0 <= f < 1,
// so the low product contributes only its high word. The sum stays below 2^64.
__host__ __device__ inline std::uint32_t mul_hi_32x64(std::uint32_t a, std::uint64_t m) {
  const std::uint64_t upper = static_cast<std::uint64_t>(a) * (m >> 32) + mul_hi32(a, static_cast<std::uint32_t>(m));
  return static_cast<std::uint32_t>(upper >> 32);
}

// a * b <= c * d, for a, c < 2^64 and b, d < 2^32, without a 128-bit type on the device.
__host__ __device__ inline bool product_at_most(std::uint64_t a, std::uint32_t b, std::uint64_t c, std::uint32_t d) {
  const std::uint64_t left_hi = mul_hi64(a, b), left_lo = a * b;
  const std::uint64_t right_hi = mul_hi64(c, d), right_lo = c * d;
  return left_hi < right_hi || (left_hi == right_hi && left_lo <= right_lo);
}

template <class Sample>
using sample_bits_t = cuda::std::make_unsigned_t<Sample>;

}  // namespace detail

// Evenly spaced bins [lower, upper) split into num_bins; samples outside and NaNs map to -1.
//
// Integers: with d = x - lower and R = upper - lower (both exact, see below), the bin is
// floor(d * B / R) for B = num_bins, the value a 128-bit reference computes. Write B = W*R + F
// (0 <= F < R); then floor(d*B/R) = d*W + floor(d*F/R) and only the fraction needs care:
//  - shift: when R / B is a power of two 2^s, the bin is d >> s.
//  - samples of up to 32 bits (R <= 2^32): a rounded-up reciprocal m = ceil(2^k * F / R) with
//    k = 32 for R <= 2^16 and k = 64 otherwise, and floor(d*F/R) = floor(d*m / 2^k) exactly.
//    Proof: m = (2^k F + e) / R with 0 <= e < R, and d*F = t*R + r with 0 <= r < R, so
//    d*m / 2^k = t + (r + d*e / 2^k) / R. Since d < R and e < R, d*e < R^2 <= 2^k, so
//    r + d*e/2^k < (R - 1) + 1 = R and the floor is t. Also m < 2^k: F <= R - 1 gives
//    2^k F / R <= 2^k - 2^k / R, and 2^k / R >= 2^(k/2) >= 1. Rounding up is the correction.
//  - 64-bit samples: m = floor(2^64 * F / R) gives the estimate q = floor(d*m / 2^64) with
//    d*F/R - 1 < d*m/2^64 <= d*F/R (the error is d * (2^64 F/R - m) / 2^64 < d / 2^64 < 1),
//    so floor(d*F/R) is q or q + 1, and it is q + 1 exactly when (q + 1) * R <= d * F: one
//    128-bit comparison decides.
// d and R: lower <= x < upper is the single unsigned test d <= R - 1 with d = x - lower wrapped
// in the sample's unsigned type (x < lower wraps d to 2^w + x - lower >= upper - lower, because
// upper <= max + 1 = min + 2^w <= x + 2^w), so full-range int8 or int16 cannot overflow.
//
// Floats: the bin is (x - lower) * scale with scale = F(num_bins) / (upper - lower), both
// rounded in the sample type F, truncated, and clamped to num_bins - 1 (rounding may reach
// num_bins for x just below upper). A value exactly on an inner edge lands where this formula
// puts it, which may be the bin below when the edge is not exactly representable.
template <class Sample>
struct even_bins {
  static_assert(is_histogram_sample_v<Sample>, "samples are 8- to 64-bit integers, float or double");
  static constexpr bool is_integer = cuda::std::is_integral_v<Sample>;
  static constexpr int sample_bits = static_cast<int>(8 * sizeof(Sample));
  using level_t = histogram_level_t<Sample>;
  using bits_t = cuda::std::conditional_t<is_integer, detail::sample_bits_t<cuda::std::conditional_t<is_integer, Sample, int>>,
                                          unsigned>;

  // Integers.
  bits_t lower_bits{};       // lower in the sample's unsigned type
  bits_t last_offset{};      // R - 1
  std::uint64_t range{};     // R (64-bit samples only need it for the correction)
  std::uint64_t multiplier{};
  std::uint32_t whole{};     // W = B / R
  std::uint32_t fraction{};  // F = B % R
  int shift = -1;            // s when R / B = 2^s, else -1
  // Floats.
  Sample lower{}, upper{}, scale{};
  Sample bins_as_sample{};

  int num_bins = 0;

  // Whether the bin can come from a shift alone (the kernels pick a shift-only instantiation).
  static constexpr bool has_shift_path = is_integer;
  static constexpr bool reads_edges = false;
  __host__ __device__ bool shift_only() const { return is_integer && shift >= 0; }
  // Nothing to copy into shared memory.
  __host__ __device__ std::size_t staged_bytes() const { return 0; }
  __device__ void stage_into(unsigned char*&, int, int) {}

  template <bool ShiftOnly = false>
  __host__ __device__ __forceinline__ int bin_of(Sample x, int dropped = -1) const {
    if constexpr (is_integer && ShiftOnly && sample_bits <= 16) {
      // In 32 bits, where 8- and 16-bit arithmetic costs extra masks: the offset wraps modulo the
      // sample width like the generic path's. Unsigned samples need no mask: x < lower wraps past
      // every offset in 32 bits too.
      constexpr unsigned width_mask = cuda::std::is_unsigned_v<Sample> ? ~0u : (1u << sample_bits) - 1;
      const unsigned d =
          (static_cast<unsigned>(static_cast<bits_t>(x)) - static_cast<unsigned>(lower_bits)) & width_mask;
      return d <= static_cast<unsigned>(last_offset) ? static_cast<int>(d >> shift) : dropped;
    } else if constexpr (is_integer) {
      const bits_t d = static_cast<bits_t>(static_cast<bits_t>(x) - lower_bits);
      if (d > last_offset) return dropped;
      if constexpr (ShiftOnly) {
        return static_cast<int>(d >> shift);
      } else {
        if constexpr (sample_bits <= 16) {
          return static_cast<int>(static_cast<std::uint32_t>(d) * whole +
                                  detail::mul_hi32(d, static_cast<std::uint32_t>(multiplier)));
        } else if constexpr (sample_bits == 32) {
          return static_cast<int>(d * whole + detail::mul_hi_32x64(d, multiplier));
        } else {
          std::uint64_t q = detail::mul_hi64(d, multiplier);  // floor(d*F/R) or one less
          // q < F < 2^31, so q + 1 fits the 32-bit factor.
          if (detail::product_at_most(range, static_cast<std::uint32_t>(q + 1), d, fraction)) ++q;
          return static_cast<int>(d * whole + q);
        }
      }
    } else {
      // Computed before the range test and selected after it, so that ptxas emits no branch.
      const bool inside = x >= lower && x < upper;  // NaN fails both
      const unsigned bin = truncated_bin(x);
      const unsigned last = static_cast<unsigned>(num_bins - 1);
      return inside ? static_cast<int>(bin < last ? bin : last) : dropped;
    }
  }

  // trunc((x - lower) * scale) for a float sample: on the device one saturating conversion (a
  // negative or NaN t gives 0, a t past 2^32 gives 2^32 - 1; bin_of drops those samples or clamps
  // them to the last bin); on the host the same, spelled out.
  __host__ __device__ __forceinline__ unsigned truncated_bin(Sample x) const {
    const Sample t = (x - lower) * scale;
#ifdef __CUDA_ARCH__
    if constexpr (sizeof(Sample) == 4) return __float2uint_rz(t);
    else return __double2uint_rz(t);
#else
    if (!(t >= Sample(0))) return 0;
    return t < bins_as_sample ? static_cast<unsigned>(t) : static_cast<unsigned>(num_bins);
#endif
  }
};

// Builds the mapping on the host, checking the arguments: num_bins >= 1; lower < upper, both
// finite for floats, with a finite upper - lower and scale; for integers of up to 32 bits both
// bounds within [min, max + 1] of the sample type. Anything else is cudaErrorInvalidValue.
template <class Sample>
cudaError_t make_even_bins(int num_bins, histogram_level_t<Sample> lower, histogram_level_t<Sample> upper,
                           even_bins<Sample>& out) {
  using lim = cuda::std::numeric_limits<Sample>;
  using map_t = even_bins<Sample>;
  if (num_bins < 1) return cudaErrorInvalidValue;
  out = map_t{};
  out.num_bins = num_bins;
  if constexpr (map_t::is_integer) {
    using bits_t = typename map_t::bits_t;
    if (!(lower < upper)) return cudaErrorInvalidValue;
    unsigned __int128 range = 0;
    if constexpr (sizeof(Sample) <= 4) {
      if (lower < static_cast<long long>(lim::min()) || upper > static_cast<long long>(lim::max()) + 1)
        return cudaErrorInvalidValue;
      range = static_cast<unsigned __int128>(upper - lower);  // at most 2^32
    } else {
      range = static_cast<bits_t>(static_cast<bits_t>(upper) - static_cast<bits_t>(lower));
    }
    const auto bins = static_cast<unsigned __int128>(num_bins);
    out.lower_bits = static_cast<bits_t>(static_cast<Sample>(lower));
    out.last_offset = static_cast<bits_t>(range - 1);
    out.range = static_cast<std::uint64_t>(range);  // 2^32 fits; 64-bit ranges are below 2^64
    out.whole = static_cast<std::uint32_t>(bins / range);
    const unsigned __int128 fraction = bins % range;
    out.fraction = static_cast<std::uint32_t>(fraction);
    if constexpr (map_t::sample_bits <= 16) {
      out.multiplier = static_cast<std::uint64_t>(((fraction << 32) + range - 1) / range);
    } else if constexpr (map_t::sample_bits == 32) {
      out.multiplier = static_cast<std::uint64_t>(((fraction << 64) + range - 1) / range);
    } else {
      out.multiplier = static_cast<std::uint64_t>((fraction << 64) / range);
    }
    if (range % bins == 0) {
      const unsigned __int128 width = range / bins;
      if ((width & (width - 1)) == 0) {
        int s = 0;
        while ((static_cast<unsigned __int128>(1) << s) < width) ++s;
        if (s < map_t::sample_bits) out.shift = s;  // B = 1 over a whole 32-bit type would shift by 32
      }
    }
  } else {
    const bool finite_bounds = lower >= -lim::max() && lower <= lim::max() && upper >= -lim::max() && upper <= lim::max();
    if (!finite_bounds || !(lower < upper)) return cudaErrorInvalidValue;  // NaN bounds fail here
    const Sample width = upper - lower;
    if (!(width <= lim::max())) return cudaErrorInvalidValue;
    const Sample scale = static_cast<Sample>(num_bins) / width;
    if (!(scale <= lim::max())) return cudaErrorInvalidValue;
    out.lower = lower;
    out.upper = upper;
    out.scale = scale;
    out.bins_as_sample = static_cast<Sample>(num_bins);
  }
  return cudaSuccess;
}

// Bins between custom edges: bin i is [edges[i], edges[i + 1]) for non-decreasing edges (num_bins
// + 1 of them, histogram_level_t<Sample>); samples outside [edges[0], edges[num_bins]) and NaNs
// map to -1. Edges out of order give unspecified bins, but always in [0, num_bins).
template <class Sample>
struct range_bins {
  static_assert(is_histogram_sample_v<Sample>, "samples are 8- to 64-bit integers, float or double");
  using level_t = histogram_level_t<Sample>;
  const level_t* edges = nullptr;  // device memory; the kernel may point it at a shared copy
  int num_bins = 0;

  static constexpr bool has_shift_path = false;
  static constexpr bool reads_edges = true;
  __host__ __device__ bool shift_only() const { return false; }
  // Bytes of the edges' shared-memory copy (whole 16-byte units).
  __host__ __device__ std::size_t staged_bytes() const {
    return (static_cast<std::size_t>(num_bins + 1) * sizeof(level_t) + 15) / 16 * 16;
  }
  // Copies the edges to `cursor` (shared memory) with all threads of the block, points at the
  // copy and moves the cursor past it. A barrier must follow before the first bin_of.
  __device__ void stage_into(unsigned char*& cursor, int thread, int threads) {
    auto* copy = reinterpret_cast<level_t*>(cursor);
    for (int i = thread; i <= num_bins; i += threads) copy[i] = edges[i];
    edges = copy;
    cursor += staged_bytes();
  }

  template <bool ShiftOnly = false>
  __host__ __device__ __forceinline__ int bin_of(Sample sample, int dropped = -1) const {
    const auto x = static_cast<level_t>(sample);
    if (!(x >= edges[0] && x < edges[num_bins])) return dropped;
    int lo = 0, hi = num_bins;  // edges[lo] <= x, and the bin lies in [lo, hi)
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      if (edges[mid] <= x) lo = mid;
      else hi = mid;
    }
    return lo;
  }
};

}  // namespace upsweep
