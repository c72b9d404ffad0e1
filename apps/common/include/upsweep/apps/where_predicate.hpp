// The `--where` predicate: a small tagged functor, trivially copyable, that nvcc passes to the
// compaction kernels and g++ uses in the host tests and CPU references. Integer items compare
// exactly against integer literals (no rounding through double); fractional bounds on integer
// items compare through double.
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

// A bound: the literal as a double, and exactly as an int64 when it is an integer literal that fits.
struct where_bound {
  double value = 0;
  std::int64_t integer = 0;
  bool is_integer = false;
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
      if (b.is_integer) {
        if constexpr (std::is_unsigned_v<T>) {
          if (b.integer < 0) return 1;
          const auto u = static_cast<std::uint64_t>(b.integer);
          return static_cast<std::uint64_t>(x) < u ? -1 : (static_cast<std::uint64_t>(x) > u ? 1 : 0);
        } else {
          const auto s = static_cast<std::int64_t>(x);
          return s < b.integer ? -1 : (s > b.integer ? 1 : 0);
        }
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
