// Host tests of the tools' --where predicate: parsing, exact comparisons of every type (integers
// beyond double, bounds beyond the type), named tests, intervals, and the errors. No GPU needed.
#include <upsweep/apps/where_predicate.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

using namespace upsweep::apps;

TEST(Where, ComparisonsParseAndSelect) {
  EXPECT_TRUE(parse_where("> 100")(101));
  EXPECT_FALSE(parse_where("> 100")(100));
  EXPECT_TRUE(parse_where("<= -3.5")(-3.5));
  EXPECT_FALSE(parse_where("<= -3.5")(-3));
  EXPECT_TRUE(parse_where("<= -3.5")(std::int32_t{-4}));
  EXPECT_TRUE(parse_where("== 7")(std::uint8_t{7}));
  EXPECT_FALSE(parse_where("== 7")(7.5f));
  EXPECT_TRUE(parse_where("!= 0")(-1));
  EXPECT_FALSE(parse_where("!= 0")(0.0));
  EXPECT_TRUE(parse_where(">=1e3")(1000u));
  EXPECT_TRUE(parse_where("< 0")(std::int64_t{-1}));
  EXPECT_FALSE(parse_where("< 0")(std::uint64_t{0}));
  EXPECT_TRUE(parse_where("> -1")(std::uint32_t{0})) << "negative bounds against unsigned items";
  EXPECT_EQ(describe(parse_where("  <=   -3.5 ")), "<= -3.5");
}

TEST(Where, LargeIntegersCompareExactly) {
  const std::int64_t big = (std::int64_t{1} << 53) + 1;  // not a double
  EXPECT_TRUE(parse_where("== 9007199254740993")(big));
  EXPECT_FALSE(parse_where("== 9007199254740993")(big - 1));
  EXPECT_TRUE(parse_where("> 9007199254740992")(std::uint64_t(big)));
  EXPECT_TRUE(parse_where("> 9223372036854775807")(std::numeric_limits<std::uint64_t>::max()));
}

// from_chars leaves its value alone out of range: '>= 1e400' compared with 0 (found writing
// the --where fuzz target).
TEST(Where, BoundsBeyondDoubleAreInfinitiesOrZeros) {
  EXPECT_FALSE(parse_where(">= 1e400")(1.0));
  EXPECT_TRUE(parse_where(">= 1e400")(std::numeric_limits<double>::infinity()));
  EXPECT_FALSE(parse_where(">= 1e400")(std::numeric_limits<std::uint64_t>::max()));
  EXPECT_TRUE(parse_where("> -1e400")(-1e308));
  EXPECT_FALSE(parse_where("> -1e400")(-std::numeric_limits<double>::infinity()));
  EXPECT_EQ(describe(parse_where("< 1e999")), "< inf");
  EXPECT_TRUE(parse_where("> 1e-400")(std::numeric_limits<double>::denorm_min()));
  EXPECT_FALSE(parse_where("> 1e-400")(0.0));
  EXPECT_TRUE(parse_where("in [-1e400, 1e400)")(std::numeric_limits<double>::max()));
}

// Integer literals beyond int64 went through double: '> -9223372036854775877' rounded to -2^63
// and dropped INT64_MIN (found by fuzz_where); '== 18446744073709551615' matched 2^64 - 2.
TEST(Where, IntegerLiteralsBeyondInt64CompareExactly) {
  const auto i64_min = std::numeric_limits<std::int64_t>::min();
  const auto u64_max = std::numeric_limits<std::uint64_t>::max();
  EXPECT_TRUE(parse_where("> -9223372036854775877")(i64_min));
  EXPECT_FALSE(parse_where("< -9223372036854775877")(i64_min));
  EXPECT_TRUE(parse_where("== -9223372036854775808")(i64_min));
  EXPECT_TRUE(parse_where("== 18446744073709551615")(u64_max));
  EXPECT_FALSE(parse_where("== 18446744073709551615")(u64_max - 1));
  EXPECT_TRUE(parse_where("< 18446744073709551616")(u64_max));
  EXPECT_TRUE(parse_where("< 100000000000000000000000")(u64_max));
  EXPECT_TRUE(parse_where("> -100000000000000000000000")(i64_min));
  EXPECT_FALSE(parse_where("> 18446744073709551615")(std::numeric_limits<std::int64_t>::max()));
  EXPECT_TRUE(parse_where("in [18446744073709551614, 18446744073709551615]")(u64_max));
  EXPECT_FALSE(parse_where("in [18446744073709551614, 18446744073709551615)")(u64_max));
  EXPECT_TRUE(parse_where("== -0")(0));
  EXPECT_EQ(describe(parse_where("> -0")), "> 0");
  EXPECT_EQ(describe(parse_where(">= 18446744073709551615")), ">= 18446744073709551615");
  EXPECT_THROW(parse_where("in [9007199254740993, 9007199254740992)"), std::invalid_argument)
      << "empty, though the bounds are one double";
  EXPECT_THROW(parse_where("> +-1"), std::invalid_argument);
  // Integers by value, whatever the spelling (fuzz_where: "18446744073709551655." matched 2^64 - 1).
  EXPECT_FALSE(parse_where("== 18446744073709551655.")(u64_max));
  EXPECT_TRUE(parse_where("== 18446744073709551615.000")(u64_max));
  EXPECT_FALSE(parse_where("== 18446744073709551615.000")(u64_max - 1));
  EXPECT_TRUE(parse_where("== 1.8446744073709551615e19")(u64_max));
  EXPECT_TRUE(parse_where("== 9007199254740993e0")(std::int64_t{9007199254740993}));
  EXPECT_TRUE(parse_where("<= -92233720368547758.08e2")(i64_min));
  EXPECT_FALSE(parse_where("< -92233720368547758.08e2")(i64_min));
  EXPECT_EQ(describe(parse_where("> 2.5e1")), "> 25");
  EXPECT_EQ(describe(parse_where("> 2.55e1")), "> 25.5");
  EXPECT_TRUE(parse_where("> 2.55e1")(26));
  EXPECT_FALSE(parse_where("> 2.55e1")(25));
  EXPECT_EQ(describe(parse_where("== -0.0e5")), "== 0");
  // Fractions too, by their exact floor (fuzz_where: '<= -9223372036854775802.000007' rounded to
  // -2^63 and took INT64_MIN + 1 for equal to it).
  EXPECT_TRUE(parse_where("<= -9223372036854775802.000007")(i64_min + 1));
  EXPECT_FALSE(parse_where("<= -9223372036854775802.000007")(i64_min + 6));
  EXPECT_TRUE(parse_where("<= -9223372036854775802.000007")(i64_min + 5));
  EXPECT_TRUE(parse_where("> 18446744073709551614.5")(u64_max));
  EXPECT_FALSE(parse_where("> 18446744073709551614.5")(u64_max - 1));
  EXPECT_FALSE(parse_where("== 2.5")(2));
  EXPECT_TRUE(parse_where("> -0.5")(0));
  EXPECT_FALSE(parse_where("> -0.5")(-1));
  EXPECT_TRUE(parse_where("in (-1.5, 0.5)")(-1));
  EXPECT_FALSE(parse_where("in (-1.5, 0.5)")(1));
  EXPECT_TRUE(parse_where("< 1e-300")(0));
  EXPECT_FALSE(parse_where("> 1e-300")(0));
}

// A fraction whose double is a whole number is described by its floor plus a fraction, so it
// reads back the same for integer items too (fuzz_where: "9007199254740992.5" was described as
// 2^53, and the interval below became empty when read back).
TEST(Where, FractionsRoundingToIntegersAreDescribedAsFractions) {
  const std::string interval = describe(parse_where("in [9007199254740993, 9007199254740992.5]"));
  EXPECT_NO_THROW(parse_where(interval)) << interval;
  EXPECT_EQ(describe(parse_where(interval)), interval);
  for (const char* text : {"< 2.99999999999999999999", "> -2.00000000000000000001", "<= 18014398509481985.5",
                           ">= -18014398509481985.5", "> 1e-400", "< -1e-400", "== 0.5"}) {
    const where_predicate p = parse_where(text);
    const where_predicate q = parse_where(describe(p));
    EXPECT_EQ(describe(q), describe(p)) << text;
    EXPECT_EQ(q.lo.magnitude, p.lo.magnitude) << text << " described as " << describe(p);
    EXPECT_EQ(q.lo.negative, p.lo.negative) << text;
    EXPECT_TRUE(q.lo.fractional) << text << " described as " << describe(p);
    EXPECT_EQ(std::signbit(q.lo.value), std::signbit(p.lo.value)) << text;
    EXPECT_EQ(q.lo.value, p.lo.value) << text;
    for (const std::int64_t x : {std::int64_t{-3}, std::int64_t{-2}, std::int64_t{0}, std::int64_t{2}, std::int64_t{3},
                                 std::int64_t{18014398509481985}, std::int64_t{18014398509481986}})
      EXPECT_EQ(q(x), p(x)) << text << " at " << x;
  }
}

TEST(Where, NamedTests) {
  EXPECT_TRUE(parse_where("even")(4));
  EXPECT_TRUE(parse_where("odd")(-3));
  EXPECT_TRUE(parse_where("odd")(std::uint64_t{0xffffffffffffffff}));
  EXPECT_TRUE(parse_where("even")(-2.0));
  EXPECT_FALSE(parse_where("even")(2.5));
  EXPECT_FALSE(parse_where("odd")(2.5f));
  EXPECT_FALSE(parse_where("odd")(std::numeric_limits<double>::infinity()));
  EXPECT_TRUE(parse_where("even")(1e300));
  EXPECT_TRUE(parse_where("finite")(1.0f));
  EXPECT_FALSE(parse_where("finite")(std::numeric_limits<float>::quiet_NaN()));
  EXPECT_FALSE(parse_where("finite")(-std::numeric_limits<double>::infinity()));
  EXPECT_TRUE(parse_where("finite")(std::int8_t{-1}));
  EXPECT_FALSE(parse_where("> 0")(std::numeric_limits<double>::quiet_NaN()));
  EXPECT_TRUE(parse_where("!= 0")(std::numeric_limits<double>::quiet_NaN()));
}

TEST(Where, IntervalsHonourTheirBrackets) {
  const auto half_open = parse_where("in [0,10)");
  EXPECT_TRUE(half_open(0));
  EXPECT_TRUE(half_open(9.999));
  EXPECT_FALSE(half_open(10));
  EXPECT_FALSE(half_open(-1));
  EXPECT_TRUE(parse_where("in (0, 10]")(10));
  EXPECT_FALSE(parse_where("in (0, 10]")(0));
  EXPECT_TRUE(parse_where("in[-2.5,-1.5]")(-2.5));
  EXPECT_EQ(describe(parse_where("in [ -1 , 2.5 )")), "in [-1, 2.5)");
}

TEST(Where, GarbageIsRejectedWithAReason) {
  for (const char* bad : {"", ">> 3", "> abc", "> ", "== nan", "in [1,2", "in [3,1)", "in 1,2", "bigger than 3", "oddish", "in [1;2)"}) {
    try {
      parse_where(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("--where"), std::string::npos) << e.what();
    }
  }
}
