// Text and CSV parsed on several threads give what one thread gives: the same values, the same CSV
// row places, and the same first error (file, line, column) when several lines are bad. No GPU.
#include <upsweep/apps/read_numbers.hpp>

#include "../support/seed.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

using namespace upsweep::apps;

namespace {

constexpr unsigned thread_counts[] = {1, 2, 3, 7, 16};

read_options on_threads(file_format format, element_type type, unsigned threads, std::string column = "") {
  read_options o;
  o.format = format;
  o.type = type;
  o.column = std::move(column);
  o.parse_threads = threads;
  return o;
}

// Random i64 values, one a line, with comments, blank lines and CRLF endings mixed in.
std::string text_of(const std::vector<std::int64_t>& values, std::mt19937_64& random) {
  std::string text = "# values\n";
  for (std::int64_t v : values) {
    if (random() % 7 == 0) text += "\n";
    if (random() % 11 == 0) text += "  # a comment\n";
    text += std::to_string(v) + (random() % 5 == 0 ? "\r\n" : "\n");
  }
  return text;
}

std::vector<std::int64_t> random_values(std::mt19937_64& random, std::size_t n) {
  std::vector<std::int64_t> values(n);
  for (std::int64_t& v : values) v = static_cast<std::int64_t>(random());
  return values;
}

input_error parse_error(std::string_view bytes, const read_options& options) {
  try {
    parse_numbers(bytes, "in", options);
  } catch (const input_error& e) {
    return e;
  }
  ADD_FAILURE() << "no input_error on " << options.parse_threads << " threads";
  return input_error("", "");
}

}  // namespace

TEST(ParseThreads, TextGivesTheValuesOfOneThread) {
  const std::uint64_t seed = upsweep::test::fresh_seed();
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  std::mt19937_64 random(seed);
  for (std::size_t n : {0, 1, 2, 31, 1000, 100000}) {
    const std::vector<std::int64_t> values = random_values(random, n);
    std::string text = text_of(values, random);
    if (n % 2) text.pop_back();  // no newline at the end
    for (unsigned threads : thread_counts) {
      SCOPED_TRACE("n " + std::to_string(n) + ", " + std::to_string(threads) + " threads");
      EXPECT_EQ(std::get<std::vector<std::int64_t>>(
                    parse_numbers(text, "in", on_threads(file_format::text, element_type::i64, threads))),
                values);
    }
  }
}

TEST(ParseThreads, CsvGivesTheValuesAndRowsOfOneThread) {
  const std::uint64_t seed = upsweep::test::fresh_seed();
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  std::mt19937_64 random(seed);
  for (bool header : {true, false}) {
    const std::vector<std::int64_t> values = random_values(random, 20000);
    std::string csv = std::string("\xEF\xBB\xBF") + "# exported\n" + (header ? "name,val\n" : "");
    // The first field is a number (a first row of numbers is data, not a header), quoted at times.
    for (std::int64_t v : values) csv += (random() % 9 == 0 ? "\"4\"," : "5,") + std::to_string(v) + "\r\n";
    csv_layout one;
    read_options serial = on_threads(file_format::csv, element_type::i64, 1, header ? "val" : "1");
    serial.layout = &one;
    ASSERT_EQ(std::get<std::vector<std::int64_t>>(parse_numbers(csv, "in", serial)), values);
    ASSERT_EQ(one.rows.size(), values.size());
    EXPECT_EQ(one.has_header, header);
    for (std::size_t i = 0; i < values.size(); i += 997) {
      const std::string row = csv.substr(one.rows[i].offset, one.rows[i].size);
      EXPECT_EQ(row.substr(row.rfind(',') + 1), std::to_string(values[i]));
    }
    for (unsigned threads : thread_counts) {
      SCOPED_TRACE(std::to_string(threads) + " threads, header " + std::to_string(header));
      csv_layout many;
      read_options parallel = serial;
      parallel.parse_threads = threads;
      parallel.layout = &many;
      EXPECT_EQ(std::get<std::vector<std::int64_t>>(parse_numbers(csv, "in", parallel)), values);
      EXPECT_EQ(many.has_header, one.has_header);
      EXPECT_EQ(many.header.offset, one.header.offset);
      ASSERT_EQ(many.rows.size(), one.rows.size());
      for (std::size_t i = 0; i < many.rows.size(); ++i) {
        ASSERT_EQ(many.rows[i].offset, one.rows[i].offset) << "row " << i;
        ASSERT_EQ(many.rows[i].size, one.rows[i].size) << "row " << i;
      }
    }
  }
}

// Two bad lines far apart land in different pieces: the first in the file is reported, with its
// line counted from the start of the file.
TEST(ParseThreads, TheFirstBadLineInTheFileIsReported) {
  const std::uint64_t seed = upsweep::test::fresh_seed();
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  std::mt19937_64 random(seed);
  const std::size_t lines = 50000;
  const std::size_t first_bad = 1 + random() % (lines / 2), second_bad = first_bad + 1 + random() % (lines / 3);
  std::string text, csv = "a,b\n";
  for (std::size_t line = 1; line <= lines; ++line) {
    const std::string value = line == first_bad ? "12q" : line == second_bad ? "zz" : std::to_string(random() % 1000);
    text += " " + value + "\n";
    if (line < lines) csv += "0," + value + "\n";  // the header is line 1: the value of `line` is on line + 1
  }
  for (unsigned threads : thread_counts) {
    SCOPED_TRACE(std::to_string(threads) + " threads, first bad line " + std::to_string(first_bad));
    const input_error t = parse_error(text, on_threads(file_format::text, element_type::u32, threads));
    EXPECT_EQ(t.line(), static_cast<std::int64_t>(first_bad));
    EXPECT_EQ(t.column(), 2);
    EXPECT_EQ(t.message(), "invalid number '12q'");
    const input_error c = parse_error(csv, on_threads(file_format::csv, element_type::u32, threads, "b"));
    EXPECT_EQ(c.line(), static_cast<std::int64_t>(first_bad) + 1);
    EXPECT_EQ(c.column(), 3);
    EXPECT_EQ(c.message(), "invalid number '12q'");
  }
}

// A byte order mark is skipped at the start of the file only, not at the start of a piece.
TEST(ParseThreads, AByteOrderMarkInsideTheFileIsAnError) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "7\n";
  text += "\xEF\xBB\xBF" "8\n";
  for (unsigned threads : thread_counts) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    const input_error e = parse_error(text, on_threads(file_format::text, element_type::u8, threads));
    EXPECT_EQ(e.line(), 1001);
    EXPECT_EQ(e.message(), "invalid number '\xEF\xBB\xBF" "8'");
  }
}
