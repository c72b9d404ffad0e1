// Host tests of what upsweep-sort adds to the tools' shared code: the host key order (the CPU
// reference and the --verify checks), CSV row positions, the pairs and CSV-row writers, chunked
// output, and the input options. No GPU needed.
#include <upsweep/apps/input_source.hpp>
#include <upsweep/apps/key_order.hpp>
#include <upsweep/apps/read_numbers.hpp>
#include <upsweep/apps/write_numbers.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;
using namespace upsweep::apps;

namespace {

class SortSupport : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("upsweep-sort-support-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string file(const std::string& name, const std::string& content) {
    std::ofstream(path(name), std::ios::binary) << content;
    return path(name);
  }
  static std::string slurp(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  }
  fs::path dir_;
};

template <class T>
std::vector<T> sorted_copy(const std::vector<T>& v, const sort_order& order) {
  return std::get<std::vector<T>>(gather(number_array(v), reference_order(number_array(v), order)));
}

template <class T>
std::vector<std::uint64_t> bits_of(const std::vector<T>& v) {
  std::vector<std::uint64_t> out;
  for (const T x : v) {
    std::uint64_t b = 0;
    std::memcpy(&b, &x, sizeof x);
    out.push_back(b);
  }
  return out;
}

TEST(KeyOrder, SignedIntegersSortNumerically) {
  const std::vector<std::int32_t> v = {5, -1, std::numeric_limits<std::int32_t>::min(), 0, 7, -1, 2147483647};
  const std::vector<std::int32_t> want = {std::numeric_limits<std::int32_t>::min(), -1, -1, 0, 5, 7, 2147483647};
  EXPECT_EQ(sorted_copy(v, {}), want);
  const std::vector<std::int32_t> down = {2147483647, 7, 5, 0, -1, -1, std::numeric_limits<std::int32_t>::min()};
  EXPECT_EQ(sorted_copy(v, sort_order{0, -1, true}), down);
}

TEST(KeyOrder, FloatsPutNegativeNanFirstAndNanLastAndKeepZerosInInputOrder) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> v = {nan, 1.5f, -0.0f, -inf, 0.0f, inf, -2.0f, -nan, -0.0f};
  const std::vector<float> want = {-nan, -inf, -2.0f, -0.0f, 0.0f, -0.0f, 1.5f, inf, nan};
  EXPECT_EQ(bits_of(sorted_copy(v, {})), bits_of(want));  // bitwise: the zeros keep their signs and order
  const std::vector<float> down = {nan, inf, 1.5f, -0.0f, 0.0f, -0.0f, -2.0f, -inf, -nan};
  EXPECT_EQ(bits_of(sorted_copy(v, sort_order{0, -1, true})), bits_of(down));  // equal zeros still in input order
}

TEST(KeyOrder, ABitWindowSortsByThoseBitsOnlyAndStably) {
  const std::vector<std::uint32_t> v = {0x1f3, 0x0a1, 0x2f3, 0x012, 0x1a1};
  // bits 4:8 are the middle hex digit: f, a, f, 1, a
  const std::vector<std::uint32_t> want = {0x012, 0x0a1, 0x1a1, 0x1f3, 0x2f3};
  EXPECT_EQ(sorted_copy(v, sort_order{4, 8, false}), want);
  // An empty window keeps the input order.
  EXPECT_EQ(sorted_copy(v, sort_order{8, 8, false}), v);
  // Signed keys: the window is over the ordered bits (sign flipped), as in CUB.
  const std::vector<std::int8_t> s = {-1, 1, -128, 127};
  const std::vector<std::int8_t> top_bit = {-1, -128, 1, 127};  // bit 7 of the ordered key: 0 for negatives
  EXPECT_EQ(sorted_copy(s, sort_order{7, 8, false}), top_bit);
}

TEST(KeyOrder, SixtyFourBitKeysUseEveryBit) {
  const std::vector<std::uint64_t> v = {~0ull, 1ull << 63, 0, (1ull << 63) - 1};
  const std::vector<std::uint64_t> want = {0, (1ull << 63) - 1, 1ull << 63, ~0ull};
  EXPECT_EQ(sorted_copy(v, {}), want);
  const std::vector<double> d = {1.0, -1.0, -0.0, 0.0};
  EXPECT_EQ(bits_of(sorted_copy(d, {})), bits_of(std::vector<double>{-1.0, -0.0, 0.0, 1.0}));
}

TEST(SortChecks, NameTheFirstProblem) {
  const number_array in(std::vector<std::uint16_t>{3, 1, 2, 1});
  EXPECT_EQ(check_sorted(number_array(std::vector<std::uint16_t>{1, 1, 2, 3}), {}), "");
  EXPECT_EQ(check_sorted(number_array(std::vector<std::uint16_t>{1, 2, 1, 3}), {}),
            "not sorted: output item 2 belongs before item 1");
  EXPECT_EQ(check_permutation(in, number_array(std::vector<std::uint16_t>{1, 1, 2, 3})), "");
  EXPECT_NE(check_permutation(in, number_array(std::vector<std::uint16_t>{1, 2, 2, 3})), "");
  EXPECT_NE(check_permutation(in, number_array(std::vector<std::uint16_t>{1, 2, 3})), "");
  const number_array out(std::vector<std::uint16_t>{1, 1, 2, 3});
  EXPECT_EQ(check_pairs(in, out, number_array(std::vector<std::uint32_t>{1, 3, 2, 0}), {}), "");
  EXPECT_EQ(check_pairs(in, out, number_array(std::vector<std::uint32_t>{3, 1, 2, 0}), {}),
            "not stable: equal keys at output items 0 and 1 are out of input order");
  EXPECT_NE(check_pairs(in, out, number_array(std::vector<std::uint32_t>{1, 1, 2, 0}), {}), "");
  EXPECT_NE(check_pairs(in, out, number_array(std::vector<std::uint32_t>{1, 3, 0, 2}), {}), "");
  // -0.0 and +0.0 are equal keys, but each output key must carry its own input's bits.
  const number_array zeros(std::vector<float>{0.0f, -0.0f});
  EXPECT_EQ(check_pairs(zeros, zeros, number_array(std::vector<std::uint32_t>{0, 1}), {}), "");
  EXPECT_NE(check_pairs(zeros, number_array(std::vector<float>{-0.0f, 0.0f}), number_array(std::vector<std::uint32_t>{0, 1}), {}), "");
}

TEST_F(SortSupport, CsvLayoutRecordsTheHeaderAndEachItemsRow) {
  const std::string bytes = "name,age\r\nann,34\r\n\r\n# note\r\nbob,27\r\n\"c, d\",5";
  read_options ro;
  ro.format = file_format::csv;
  ro.type = element_type::u8;
  ro.column = "age";
  csv_layout layout;
  ro.layout = &layout;
  const number_array keys = parse_numbers(bytes, "t.csv", ro);
  EXPECT_EQ(std::get<std::vector<std::uint8_t>>(keys), (std::vector<std::uint8_t>{34, 27, 5}));
  ASSERT_TRUE(layout.has_header);
  EXPECT_EQ(bytes.substr(layout.header.offset, layout.header.size), "name,age");
  ASSERT_EQ(layout.rows.size(), 3u);
  EXPECT_EQ(bytes.substr(layout.rows[0].offset, layout.rows[0].size), "ann,34");
  EXPECT_EQ(bytes.substr(layout.rows[2].offset, layout.rows[2].size), "\"c, d\",5");

  const std::string out = path("out.csv");
  write_csv_rows(out, bytes, layout, number_array(std::vector<std::uint32_t>{2, 1, 0}));
  EXPECT_EQ(slurp(out), "name,age\n\"c, d\",5\nbob,27\nann,34\n");
}

TEST_F(SortSupport, PairsAreKeyAndIndexInTextAndCsvAndTwoFilesInBinary) {
  const number_array keys(std::vector<std::int16_t>{-3, 7});
  const number_array idx(std::vector<std::uint32_t>{1, 0});
  EXPECT_EQ(format_pairs(keys, idx, file_format::csv, "price"), "price,index\n-3,1\n7,0\n");
  EXPECT_EQ(format_pairs(keys, idx, file_format::text), "-3 1\n7 0\n");
  write_pairs(path("p.npy"), keys, idx, file_format::npy);
  read_options ro;
  ro.format = file_format::npy;
  EXPECT_EQ(std::get<std::vector<std::int16_t>>(read_numbers(path("p.npy"), ro)), (std::vector<std::int16_t>{-3, 7}));
  EXPECT_EQ(std::get<std::vector<std::uint64_t>>(read_numbers(path("p.index.npy"), ro)), (std::vector<std::uint64_t>{1, 0}));
  EXPECT_THROW(write_pairs("-", keys, idx, file_format::binary), input_error);
}

TEST_F(SortSupport, ADirectoryIsAnUnreadableInputNotAHugeOne) {
  input_spec spec;
  spec.path = dir_.string();
  try {
    load_input(spec, 10);
    FAIL() << "a directory was read";
  } catch (const input_error& e) {
    EXPECT_EQ(e.message(), "Is a directory");
  }
}

TEST(SortSupportPaths, IndexPathGoesBeforeTheExtension) {
  EXPECT_EQ(index_path("out.npy"), "out.index.npy");
  EXPECT_EQ(index_path("dir.d/out"), "dir.d/out.index");
  EXPECT_EQ(index_path(".hidden"), ".hidden.index");
  EXPECT_EQ(index_path("a/b.c.bin"), "a/b.c.index.bin");
}

TEST_F(SortSupport, LargeOutputsWrittenInChunksReadBackWhole) {
  std::vector<std::uint16_t> v(2'500'001);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::uint16_t>(i * 2654435761u >> 16);
  std::int64_t last_done = 0, calls = 0;
  for (const file_format f : {file_format::text, file_format::npy, file_format::binary, file_format::csv}) {
    const std::string p = path(std::string("big.") + format_name(f));
    write_numbers(p, number_array(v), f, "value", [&](std::int64_t done, std::int64_t total) {
      EXPECT_EQ(total, static_cast<std::int64_t>(v.size()));
      last_done = done;
      ++calls;
    });
    EXPECT_EQ(last_done, static_cast<std::int64_t>(v.size()));
    read_options ro;
    ro.format = f;
    ro.type = element_type::u16;
    EXPECT_EQ(std::get<std::vector<std::uint16_t>>(read_numbers(p, ro)), v) << format_name(f);
  }
  EXPECT_GE(calls, 4 * 3);
}

TEST_F(SortSupport, InputOptionsReadGenerateAndPickTheOutputFormat) {
  input_spec spec;
  spec.path = file("keys.bin", std::string(8, '\0'));
  EXPECT_THROW(load_input(spec, 10), usage_error);  // binary needs --type
  spec.type = "u32";
  const loaded_input bin = load_input(spec, 10);
  EXPECT_EQ(size_of(bin.data), 2);
  EXPECT_EQ(output_format_for("x.npy", "", bin), file_format::npy);
  EXPECT_EQ(output_format_for("-", "", bin), file_format::binary);
  EXPECT_EQ(output_format_for("x.npy", "csv", bin), file_format::csv);

  input_spec gen;
  gen.generate = "3k";
  gen.type = "f32";
  gen.dist = "normal";
  const loaded_input g = load_input(gen, 10);
  EXPECT_EQ(size_of(g.data), 3000);
  EXPECT_EQ(g.source, "generated normal 3000, seed 1");
  EXPECT_EQ(output_format_for("-", "", g), file_format::text);
  EXPECT_EQ(output_format_for("sorted", "", g), file_format::binary);
  gen.generate = "12q";
  EXPECT_THROW(load_input(gen, 10), usage_error);
  EXPECT_EQ(size_of(load_input(input_spec{}, 1234).data), 1234);  // the demo count

  input_spec csv;
  csv.path = file("t.csv", "k,v\n2,b\n1,a\n");
  csv.column = "k";
  const loaded_input rows = load_input(csv, 10, true);
  EXPECT_EQ(rows.layout.rows.size(), 2u);
  EXPECT_EQ(rows.bytes, "k,v\n2,b\n1,a\n");
  EXPECT_TRUE(load_input(csv, 10, false).layout.rows.empty());
}

}  // namespace
