// The `--where` predicate: a small tagged functor, trivially copyable, that nvcc passes to the
// compaction kernels and g++ uses in the host tests and CPU references. Integer items compare
// exactly against every finite bound, of any size or precision (no rounding through double).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#if defined(__CUDACC__)
#define UPSWEEP_HD __host__ __device__
#else
#define UPSWEEP_HD
#endif

namespace upsweep::apps {

enum class where_op : std::int32_t { lt, le, gt, ge, eq, ne, even, odd, finite, in_range };

// A bound: the literal as a double (for float items), and exactly for integer items: the integer
// `negative ? -magnitude : magnitude` is the literal, or its floor when the literal is
// `fractional` ("7", "-3.0", "1e3" are integers; "2.5" is 2 and fractional, "-2.5" is -3 and
// fractional). `beyond_u64`: that integer is 2^64 or more in magnitude, beyond every integer
// item. Not `exact` for infinities. (Rounded through a double, as before, '> -9223372036854775877'
// dropped INT64_MIN and '== 18446744073709551655.' matched 2^64 - 1; found by fuzzing.)
struct where_bound {
  double value = 0;
  std::uint64_t magnitude = 0;
  bool negative = false;  // never for zero
  bool fractional = false;
  bool beyond_u64 = false;
  bool exact = false;
};

struct where_predicate {
  where_op op = where_op::finite;
  where_bound lo, hi;     // comparisons use lo; in_range uses [lo, hi) with the flags below
  bool lo_open = false;   // '(' instead of '['
  bool hi_closed = false; // ']' instead of ')'

  // -1, 0, 1 as x is below, equal to or above b (NaN compares as "unordered": 2).
  template <class T>
  UPSWEEP_HD static int compare(T x, const where_bound& b) {
    if constexpr (std::is_integral_v<T>) {
      if (b.exact) {  // signs first, then magnitudes; a fractional bound lies just above its floor
        bool x_negative = false;
        std::uint64_t x_magnitude = static_cast<std::uint64_t>(x);
        if constexpr (std::is_signed_v<T>) {
          x_negative = x < 0;
          if (x_negative) x_magnitude = std::uint64_t{0} - static_cast<std::uint64_t>(static_cast<std::int64_t>(x));
        }
        if (x_negative != b.negative) return x_negative ? -1 : 1;
        const int by_magnitude =
            b.beyond_u64 ? -1 : (x_magnitude < b.magnitude ? -1 : (x_magnitude > b.magnitude ? 1 : 0));
        const int c = x_negative ? -by_magnitude : by_magnitude;
        return b.fractional ? (c <= 0 ? -1 : 1) : c;
      }
    }
    const double d = static_cast<double>(x);
    if (d < b.value) return -1;
    if (d > b.value) return 1;
    if (d == b.value) return 0;
    return 2;
  }

  template <class T>
  UPSWEEP_HD bool operator()(T x) const {
    switch (op) {
      case where_op::lt: return compare(x, lo) == -1;
      case where_op::le: { const int c = compare(x, lo); return c == -1 || c == 0; }
      case where_op::gt: return compare(x, lo) == 1;
      case where_op::ge: { const int c = compare(x, lo); return c == 1 || c == 0; }
      case where_op::eq: return compare(x, lo) == 0;
      case where_op::ne: return compare(x, lo) != 0;  // NaN != anything, as in C++
      case where_op::even:
      case where_op::odd: {
        bool is_odd;
        if constexpr (std::is_integral_v<T>) {
          is_odd = (x & 1) != 0;
        } else {
          // A float is even or odd only when it holds an integer; from 2^53 on every one is even.
          const double d = static_cast<double>(x);
          if (!(d - d == 0.0)) return false;  // inf, NaN
          if (d >= 9007199254740992.0 || d <= -9007199254740992.0) return op == where_op::even;  // all even
          if (static_cast<double>(static_cast<std::int64_t>(d)) != d) return false;  // not an integer
          is_odd = (static_cast<std::int64_t>(d) & 1) != 0;
        }
        return op == where_op::odd ? is_odd : !is_odd;
      }
      case where_op::finite:
        if constexpr (std::is_integral_v<T>) {
          return true;
        } else {
          return x - x == T(0);  // inf - inf and NaN - NaN are NaN
        }
      case where_op::in_range: {
        const int a = compare(x, lo), b = compare(x, hi);
        const bool above_lo = lo_open ? a == 1 : (a == 1 || a == 0);
        const bool below_hi = hi_closed ? (b == -1 || b == 0) : b == -1;
        return above_lo && below_hi;
      }
    }
    return false;
  }
};

static_assert(std::is_trivially_copyable_v<where_predicate>);

// Parses '> 100', '<= -3.5', '== 7', '!= 0', '>=1e3', 'even', 'odd', 'finite', 'in [a,b)' (also
// '(a,b]', '[a,b]', '(a,b)'). Throws std::invalid_argument with a message naming the problem.
where_predicate parse_where(std::string_view text);

// Back to text, for the report ("> 100", "in [0, 10)").
std::string describe(const where_predicate& p);

}  // namespace upsweep::apps
