// Host tests of the tools' shared code: readers and writers on good and bad files, atomic output,
// and the generator (the --where predicate: test_where.cpp). No GPU needed.
#include <upsweep/apps/generate.hpp>
#include <upsweep/apps/input_source.hpp>
#include <upsweep/apps/read_numbers.hpp>
#include <upsweep/apps/write_numbers.hpp>

#include "../support/seed.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <unistd.h>
#include <string>

namespace fs = std::filesystem;
using namespace upsweep::apps;

namespace {

class temp_dir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("upsweep-apps-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const std::string& name, const std::string& content) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }
  std::size_t entries() const { return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir_), fs::directory_iterator())); }
  fs::path dir_;
};

read_options as(file_format f, element_type t, std::string column = "") {
  read_options o;
  o.format = f;
  o.type = t;
  o.column = std::move(column);
  return o;
}

// Runs `f`, expects an input_error, returns it.
template <class F>
input_error error_of(F f) {
  try {
    f();
  } catch (const input_error& e) {
    return e;
  }
  ADD_FAILURE() << "no input_error";
  return input_error("", "");
}

}  // namespace

using Readers = temp_dir;

TEST_F(Readers, TextSkipsCommentsAndBlankLines) {
  const auto p = file("a.txt", "# header\n1\n\n  2  # two\n\t-3\r\n+4\n");
  const auto v = std::get<std::vector<std::int32_t>>(read_numbers(p, as(file_format::text, element_type::i32)));
  EXPECT_EQ(v, (std::vector<std::int32_t>{1, 2, -3, 4}));
}

TEST_F(Readers, TextReadsFloatsExactly) {
  const auto p = file("f.txt", "0.1\n-3.5\n1e300\ninf\n");
  const auto v = std::get<std::vector<double>>(read_numbers(p, as(file_format::text, element_type::f64)));
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[0], 0.1);
  EXPECT_EQ(v[1], -3.5);
  EXPECT_EQ(v[2], 1e300);
  EXPECT_TRUE(std::isinf(v[3]));
}

TEST_F(Readers, MalformedNumberNamesLineAndColumn) {
  const auto p = file("bad.txt", "1\n# c\n   12x\n");
  const auto e = error_of([&] { read_numbers(p, as(file_format::text, element_type::u32)); });
  EXPECT_EQ(e.line(), 3);
  EXPECT_EQ(e.column(), 4);
  EXPECT_EQ(std::string(e.what()), p + ":3:4: invalid number '12x'");
}

TEST_F(Readers, ValuesOutsideTheTypeAreOutOfRange) {
  EXPECT_EQ(error_of([&] { read_numbers(file("a.txt", "255\n256\n"), as(file_format::text, element_type::u8)); }).message(),
            "value 256 out of range for u8");
  EXPECT_EQ(error_of([&] { read_numbers(file("b.txt", "-1\n"), as(file_format::text, element_type::u32)); }).message(),
            "value -1 out of range for u32");
  EXPECT_EQ(error_of([&] { read_numbers(file("c.txt", "-129\n"), as(file_format::text, element_type::i8)); }).message(),
            "value -129 out of range for i8");
  EXPECT_EQ(error_of([&] { read_numbers(file("d.txt", "1e39\n"), as(file_format::text, element_type::f32)); }).message(),
            "value 1e39 out of range for f32");
  EXPECT_EQ(error_of([&] { read_numbers(file("e.txt", "1.5\n"), as(file_format::text, element_type::i64)); }).message(),
            "invalid number '1.5'");
  const auto v = std::get<std::vector<std::uint64_t>>(
      read_numbers(file("f.txt", "18446744073709551615\n"), as(file_format::text, element_type::u64)));
  EXPECT_EQ(v[0], std::numeric_limits<std::uint64_t>::max());
}

TEST_F(Readers, EmptyInputIsAnEmptyResult) {
  for (auto f : {file_format::text, file_format::csv, file_format::binary}) {
    const auto p = file("empty", f == file_format::text ? "# only a comment\n\n" : "");
    EXPECT_EQ(size_of(read_numbers(p, as(f, element_type::u32))), 0) << format_name(f);
  }
}

TEST_F(Readers, MissingFileSaysWhy) {
  const auto e = error_of([&] { read_numbers((dir_ / "nope.txt").string(), as(file_format::text, element_type::u32)); });
  EXPECT_EQ(e.message(), "No such file or directory");
}

TEST_F(Readers, BinaryRejectsSizesThatAreNotAMultipleOfTheElement) {
  const auto p = file("k.bin", std::string(10, '\0'));
  EXPECT_EQ(error_of([&] { read_numbers(p, as(file_format::binary, element_type::u32)); }).message(),
            "size 10 bytes is not a multiple of 4 (u32)");
  EXPECT_EQ(size_of(read_numbers(p, as(file_format::binary, element_type::u16))), 5);
}

// The parts the ranks of `upsweep-sort --distributed` read at their offsets.
TEST_F(Readers, BinaryPartsJoinToTheWholeFileAndDifferByAtMostOneItem) {
  const std::uint64_t seed = upsweep::test::fresh_seed();
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  std::mt19937_64 random(seed);
  std::vector<std::uint32_t> whole(1001);
  for (std::uint32_t& v : whole) v = static_cast<std::uint32_t>(random());
  const auto p = file("k.bin", std::string(reinterpret_cast<const char*>(whole.data()), whole.size() * 4));
  for (const int parts : {1, 2, 3, 7, 1001, 1500}) {
    SCOPED_TRACE("parts " + std::to_string(parts));
    std::vector<std::uint32_t> joined;
    for (int part = 0; part < parts; ++part) {
      std::int64_t total = -1;
      const auto piece = std::get<std::vector<std::uint32_t>>(read_binary_part(p, element_type::u32, part, parts, total));
      EXPECT_EQ(total, 1001);
      EXPECT_LE(piece.size(), 1001u / parts + 1);
      EXPECT_GE(piece.size(), 1001u / parts);
      joined.insert(joined.end(), piece.begin(), piece.end());
    }
    EXPECT_EQ(joined, whole);
  }
  std::int64_t total = -1;
  EXPECT_EQ(error_of([&] { read_binary_part(file("odd.bin", std::string(10, '\0')), element_type::u32, 0, 2, total); })
                .message(),
            "size 10 bytes is not a multiple of 4 (u32)");
}

TEST_F(Readers, CsvDetectsTheHeaderAndPicksAColumnByNameOrIndex) {
  const auto p = file("t.csv", "# made by hand\nid,price,name\n1, 2.5 ,a\n2,-7,\"b,c\"\n\n3,1e3,d\n");
  EXPECT_EQ(std::get<std::vector<double>>(read_numbers(p, as(file_format::csv, element_type::f64, "price"))),
            (std::vector<double>{2.5, -7, 1000}));
  EXPECT_EQ(std::get<std::vector<std::int32_t>>(read_numbers(p, as(file_format::csv, element_type::i32, "0"))),
            (std::vector<std::int32_t>{1, 2, 3}));
  EXPECT_EQ(error_of([&] { read_numbers(p, as(file_format::csv, element_type::f64, "cost")); }).message(),
            "no column 'cost' (columns: id, price, name)");
  EXPECT_EQ(error_of([&] { read_numbers(p, as(file_format::csv, element_type::f64)); }).message(),
            "3 columns; choose one with --column NAME|INDEX");
  EXPECT_EQ(error_of([&] { read_numbers(p, as(file_format::csv, element_type::f64, "7")); }).message(),
            "column index 7 out of range (3 columns, counted from 0)");
  const auto bad = error_of([&] { read_numbers(p, as(file_format::csv, element_type::f64, "name")); });
  EXPECT_EQ(bad.line(), 3);
  EXPECT_EQ(bad.column(), 9);
  EXPECT_EQ(bad.message(), "invalid number 'a'");
}

TEST_F(Readers, CsvWithoutAHeaderStartsWithData) {
  const auto p = file("n.csv", "1,10\n2,20\n");
  EXPECT_EQ(std::get<std::vector<std::uint16_t>>(read_numbers(p, as(file_format::csv, element_type::u16, "1"))),
            (std::vector<std::uint16_t>{10, 20}));
  EXPECT_EQ(error_of([&] { read_numbers(p, as(file_format::csv, element_type::u16, "x")); }).message(),
            "column 'x' given by name but the file has no header row");
  const auto short_row = file("s.csv", "a,b\n1,2\n3\n");
  const auto e = error_of([&] { read_numbers(short_row, as(file_format::csv, element_type::u16, "b")); });
  EXPECT_EQ(e.line(), 3);
  EXPECT_EQ(e.message(), "row has 1 fields; column 1 (counted from 0) is missing");
}

TEST_F(Readers, NpyRoundTripsEveryType) {
  for (int t = 0; t < 10; ++t) {
    const auto type = static_cast<element_type>(t);
    const number_array data = generate_numbers(type, 1000, distribution::uniform, 7);
    const auto p = (dir_ / (std::string(type_name(type)) + ".npy")).string();
    write_numbers(p, data, file_format::npy);
    EXPECT_EQ(fs::file_size(p) % 64, (1000 * type_size(type)) % 64) << "data starts at a multiple of 64";
    read_options o;
    o.format = file_format::npy;
    EXPECT_EQ(read_numbers(p, o), data) << type_name(type);
  }
}

TEST_F(Readers, NpyHeadersThatAreNotOneDimensionalLittleEndianAreRejected) {
  const auto npy = [&](const std::string& dict, const std::string& data) {
    std::string h = "\x93NUMPY";
    h += '\x01';
    h += '\x00';
    h += static_cast<char>(dict.size());
    h += '\x00';
    return file("x.npy", h + dict + data);
  };
  read_options o;
  o.format = file_format::npy;
  EXPECT_EQ(error_of([&] { read_numbers(npy("{'descr': '<u4', 'fortran_order': False, 'shape': (2, 2), }\n", std::string(16, 'a')), o); }).message(),
            "only 1-D arrays are supported; this one has shape (2, 2)");
  EXPECT_EQ(error_of([&] { read_numbers(npy("{'descr': '>u4', 'fortran_order': False, 'shape': (1,), }\n", "abcd"), o); }).message(),
            "big-endian data ('>u4') is not supported; save it little-endian");
  EXPECT_EQ(error_of([&] { read_numbers(npy("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }\n", "abcdefgh"), o); }).message(),
            "dtype '<c8' is not supported (u1..u8, i1..i8, f4, f8 little-endian, b1)");
  EXPECT_EQ(error_of([&] { read_numbers(npy("{'descr': '<u4', 'shape': (1,), }\n", "abcd"), o); }).message(),
            "bad .npy header: the header needs descr, fortran_order and shape");
  EXPECT_EQ(error_of([&] { read_numbers(npy("{'descr': '<u4', 'fortran_order': False, 'shape': (3,), }\n", "abcd"), o); }).message(),
            "the header says 3 items (12 bytes) but the file holds 4 bytes of data");
  EXPECT_EQ(error_of([&] { read_numbers(file("y.npy", "not numpy at all"), o); }).message(),
            "not a .npy file (no \\x93NUMPY magic)");
  o.type = element_type::i32;
  EXPECT_EQ(error_of([&] { read_numbers(npy("{'descr': '<u4', 'fortran_order': False, 'shape': (1,), }\n", "abcd"), o); }).message(),
            "the file holds u32, not i32");
}

// Found by the libFuzzer targets (tests/fuzz) or while writing them; each input is also in
// tests/fuzz/corpus, replayed by ctest (fuzz_replay.*).
TEST_F(Readers, CsvColumnIndexPastSizeTIsOutOfRangeNotACrash) {
  const auto p = file("c.csv", "1,2,0\n1,2,115\n");
  const auto e = error_of([&] { read_numbers(p, as(file_format::csv, element_type::u32, "14467444467440734444674407370")); });
  EXPECT_EQ(e.message(), "column index 14467444467440734444674407370 out of range (3 columns, counted from 0)");
}

TEST_F(Readers, NpyCountWhoseByteSizeWrapsIsRejected) {
  // 2^61 + 1 items of 8 bytes is 2^64 + 8 bytes: wrapped, it matched the 8 bytes of data.
  const std::string dict = "{'descr': '<u8', 'fortran_order': False, 'shape': (2305843009213693953,), }\n";
  std::string h = "\x93NUMPY";
  h += '\x01';
  h += '\x00';
  h += static_cast<char>(dict.size());
  h += '\x00';
  const auto p = file("w.npy", h + dict + std::string(8, 'a'));
  read_options o;
  o.format = file_format::npy;
  EXPECT_EQ(error_of([&] { read_numbers(p, o); }).message(),
            "the header says 2305843009213693953 items (over 2^64 bytes) but the file holds 8 bytes of data");
}

using Writers = temp_dir;

TEST_F(Writers, EveryFormatReadsBackTheSameValues) {
  for (auto type : {element_type::u8, element_type::i16, element_type::u64, element_type::i64, element_type::f32, element_type::f64}) {
    const number_array data = generate_numbers(type, 500, distribution::normal, 3);
    for (auto f : {file_format::binary, file_format::npy, file_format::text, file_format::csv}) {
      const auto p = (dir_ / "out").string();
      write_numbers(p, data, f);
      EXPECT_EQ(read_numbers(p, as(f, type, f == file_format::csv ? "value" : "")), data)
          << type_name(type) << " " << format_name(f);
    }
  }
}

TEST_F(Writers, TextIsOneShortestValueALine) {
  EXPECT_EQ(format_numbers(number_array(std::vector<double>{0.1, -2, 1e300}), file_format::text), "0.1\n-2\n1e+300\n");
  EXPECT_EQ(format_numbers(number_array(std::vector<std::int8_t>{-128, 7}), file_format::csv, "k"), "k\n-128\n7\n");
}

TEST_F(Writers, AFailedWriteLeavesNothingBehind) {
  const auto target = (dir_ / "result.bin").string();
  EXPECT_THROW(write_file_atomically(target, [](std::FILE* f) {
                 std::fputs("partial", f);
                 throw std::runtime_error("disk on fire");
               }),
               std::runtime_error);
  EXPECT_EQ(entries(), 0u) << "neither the target nor the temporary file";
  EXPECT_THROW(write_numbers((dir_ / "no" / "such" / "dir.bin").string(), number_array(std::vector<float>{1}),
                             file_format::binary),
               input_error);
  EXPECT_EQ(entries(), 0u);
}

TEST_F(Writers, ASuccessfulWriteReplacesTheTargetWhole) {
  const auto target = file("result.txt", "old content that is longer\n");
  write_numbers(target, number_array(std::vector<std::uint32_t>{5}), file_format::text);
  std::ifstream in(target);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "5\n");
  EXPECT_EQ(entries(), 1u);
}

TEST(Generate, CountsTakeDecimalAndBinarySuffixes) {
  EXPECT_EQ(parse_count("0"), 0);
  EXPECT_EQ(parse_count("1000"), 1000);
  EXPECT_EQ(parse_count("10k"), 10000);
  EXPECT_EQ(parse_count("4M"), 4000000);
  EXPECT_EQ(parse_count("1G"), 1000000000);
  EXPECT_EQ(parse_count("64Ki"), 65536);
  EXPECT_EQ(parse_count("2Mi"), 2 << 20);
  EXPECT_EQ(parse_count("1Gi"), std::int64_t{1} << 30);
  for (const char* bad : {"", "-5", "12q", "M", "1.5M", "99999999999G", "10 k"})
    EXPECT_THROW(parse_count(bad), std::invalid_argument) << bad;
}

TEST(Generate, EveryDistributionHasTheSizeAndShapeItPromises) {
  for (int d = 0; d < 7; ++d) {
    const auto dist = static_cast<distribution>(d);
    EXPECT_EQ(parse_distribution(distribution_name(dist)), dist);
    const auto v = std::get<std::vector<std::int32_t>>(generate_numbers(element_type::i32, 4096, dist, 11));
    ASSERT_EQ(v.size(), 4096u) << distribution_name(dist);
    if (dist == distribution::sorted) { EXPECT_TRUE(std::is_sorted(v.begin(), v.end())); }
    if (dist == distribution::reverse) { EXPECT_TRUE(std::is_sorted(v.rbegin(), v.rend())); }
    if (dist == distribution::all_equal) { EXPECT_EQ(std::count(v.begin(), v.end(), v[0]), 4096); }
    if (dist == distribution::few_unique) { EXPECT_LE(std::set<std::int32_t>(v.begin(), v.end()).size(), 16u); }
    if (dist == distribution::zipf) {
      EXPECT_GE(*std::min_element(v.begin(), v.end()), 0);
      EXPECT_GT(std::count(v.begin(), v.end(), 0), std::count(v.begin(), v.end(), 1)) << "0 is the most frequent";
    }
  }
  EXPECT_EQ(generate_numbers(element_type::f64, 100, distribution::uniform, 5),
            generate_numbers(element_type::f64, 100, distribution::uniform, 5)) << "deterministic for a seed";
  const auto f = std::get<std::vector<float>>(generate_numbers(element_type::f32, 10000, distribution::uniform, 1));
  EXPECT_GE(*std::min_element(f.begin(), f.end()), -1.0f);
  EXPECT_LT(*std::max_element(f.begin(), f.end()), 1.0f);
  EXPECT_THROW(parse_distribution("gaussian"), std::invalid_argument);
}

// Spreadsheet programs start UTF-8 CSV files with a byte order mark: the header's first name is
// still found, and text files read the same.
TEST_F(Readers, AByteOrderMarkBeforeTheHeaderIsSkipped) {
  const std::uint64_t seed = upsweep::test::fresh_seed();
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  std::mt19937_64 random(seed);
  std::vector<std::int32_t> values(100);
  std::string csv = "\xEF\xBB\xBFval,other\n", text = "\xEF\xBB\xBF";
  for (std::int32_t& v : values) {
    v = static_cast<std::int32_t>(random() % 2000001) - 1000000;
    csv += std::to_string(v) + ",x\n";
    text += std::to_string(v) + "\n";
  }
  EXPECT_EQ(std::get<std::vector<std::int32_t>>(read_numbers(file("bom.csv", csv), as(file_format::csv, element_type::i32, "val"))),
            values);
  EXPECT_EQ(std::get<std::vector<std::int32_t>>(read_numbers(file("bom.txt", text), as(file_format::text, element_type::i32))),
            values);
}
