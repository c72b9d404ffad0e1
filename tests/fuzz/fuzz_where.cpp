// libFuzzer target: the --where parser. The input is the expression. Whatever parses must
// describe itself as text that parses to a predicate selecting the same items of every type from
// a fixed set of probes (integers at the type limits, signed zeros, infinities, NaN).
#include "fuzz_support.hpp"

#include <upsweep/apps/where_predicate.hpp>

#include <limits>
#include <stdexcept>

using namespace upsweep::apps;

namespace {

template <class T>
bool same_on_probes(const where_predicate& a, const where_predicate& b) {
  using lim = std::numeric_limits<T>;
  const T probes[] = {T(0), T(1), T(2), T(3), T(7), T(100), lim::max(), lim::lowest(), T(lim::max() - 1), T(lim::min() + 1)};
  for (T x : probes)
    if (a(x) != b(x)) return false;
  if constexpr (std::is_floating_point_v<T>) {
    const T specials[] = {-T(0), T(0.5), T(-3.5), T(1e300 > double(lim::max()) ? lim::max() : T(1e300)), lim::infinity(),
                          -lim::infinity(), lim::quiet_NaN(), lim::denorm_min(), T(9007199254740993.0)};
    for (T x : specials)
      if (a(x) != b(x)) return false;
  } else if constexpr (std::is_signed_v<T>) {
    const T negatives[] = {T(-1), T(-2), T(-100)};
    for (T x : negatives)
      if (a(x) != b(x)) return false;
  }
  return true;
}

bool same_exact_form(const where_bound& a, const where_bound& b) {
  return a.exact == b.exact && a.magnitude == b.magnitude && a.negative == b.negative &&
         a.fractional == b.fractional && a.beyond_u64 == b.beyond_u64;
}

// Float items see the bounds' doubles, which describe() keeps exactly (shortest round trip); integer
// items see the exact decimal forms, which it keeps unless a fraction had to round (then skipped).
bool same_selection(const where_predicate& a, const where_predicate& b) {
  const bool floats = same_on_probes<float>(a, b) && same_on_probes<double>(a, b);
  const bool exact_kept = same_exact_form(a.lo, b.lo) && (a.op != where_op::in_range || same_exact_form(a.hi, b.hi));
  return floats && (!exact_kept || (same_on_probes<std::uint8_t>(a, b) && same_on_probes<std::uint16_t>(a, b) &&
                                    same_on_probes<std::uint32_t>(a, b) && same_on_probes<std::uint64_t>(a, b) &&
                                    same_on_probes<std::int8_t>(a, b) && same_on_probes<std::int16_t>(a, b) &&
                                    same_on_probes<std::int32_t>(a, b) && same_on_probes<std::int64_t>(a, b)));
}

// An integer probe against the exact decimal form, independently: x compared with the bound's
// floor, then nudged up for a fraction.
template <class T>
bool exact_compare_holds(const where_predicate& p) {
  if (!p.lo.exact || p.lo.beyond_u64) return true;
  using lim = std::numeric_limits<T>;
  for (T x : {lim::min(), T(lim::min() + 1), T(-1), T(0), T(1), T(lim::max() - 1), lim::max()}) {
    const __int128 floor = p.lo.negative ? -static_cast<__int128>(p.lo.magnitude) : static_cast<__int128>(p.lo.magnitude);
    const __int128 wide = x;
    const int c = wide < floor ? -1 : (wide > floor ? 1 : 0);
    const int expected = p.lo.fractional ? (c <= 0 ? -1 : 1) : c;
    if (where_predicate::compare(x, p.lo) != expected) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  where_predicate p;
  try {
    p = parse_where(text);
  } catch (const std::invalid_argument&) {
    return 0;
  }
  const std::string described = describe(p);
  where_predicate q;
  try {
    q = parse_where(described);
  } catch (const std::invalid_argument&) {
    upsweep::fuzz::require(false, "where: describe() gives text that parses");
  }
  // The text may change once ('-0e3' reads as the double -0, described "-0", which reads back as
  // the integer 0); after that it must be stable.
  upsweep::fuzz::require(describe(parse_where(describe(q))) == describe(q), "where: describe() is stable once normalised");
  upsweep::fuzz::require(same_selection(p, q), "where: the described predicate selects the same items");
  upsweep::fuzz::require(exact_compare_holds<std::int64_t>(p) && exact_compare_holds<std::uint64_t>(p) &&
                             exact_compare_holds<std::int8_t>(p),
                         "where: integer items compare with the bound's exact value");
  return 0;
}
