// GPU tests of the compiled group-by API (group_by.hpp), calling only what a g++ user can call,
// against host loops on fresh random runs (the seed printed on failure), outputs poisoned first.
#include <upsweep/group_by.hpp>

#include "tests/support/device_buffer.hpp"
#include "tests/support/gpu_test.hpp"
#include "tests/support/seed.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using upsweep::reduction;
using upsweep::test::device_buffer;

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

constexpr int poison_byte = 0xA5;

template <class T>
void poison(const device_buffer<T>& buffer) {
  upsweep::test::check(cudaMemset(buffer.data(), poison_byte, static_cast<std::size_t>(buffer.size()) * sizeof(T)),
                       "cudaMemset");
}
template <class T>
std::vector<T> poison_items(std::int64_t n) {
  std::vector<T> items(static_cast<std::size_t>(n));
  std::memset(items.data(), poison_byte, items.size() * sizeof(T));
  return items;
}

// Keys in runs of random length (about 16, now and then thousands, crossing tiles); float keys
// also switch between -0.0 and +0.0 inside a run and hold NaNs, each its own run.
template <class K>
std::vector<K> keys_in_runs(std::int64_t n, std::mt19937_64& rng) {
  std::vector<K> keys(static_cast<std::size_t>(n));
  K current{};
  for (auto& k : keys) {
    const auto r = rng();
    if (r % 2000 == 0 || r % 16 == 1) current = static_cast<K>((r >> 12) % 1000);
    if constexpr (std::is_floating_point_v<K>) {
      if (r % 97 == 0) current = (r >> 8) % 2 ? K(-0.0) : K(0.0);
      if (r % 89 == 0) current = std::numeric_limits<K>::quiet_NaN();
    }
    k = current;
  }
  return keys;
}

// Small integers as V: exact float sums in any association.
template <class V>
std::vector<V> small_values(std::int64_t n, std::mt19937_64& rng) {
  std::vector<V> values(static_cast<std::size_t>(n));
  for (auto& v : values) {
    const auto r = static_cast<std::int64_t>(rng() % 101);
    v = static_cast<V>(std::is_signed_v<V> ? r - 50 : r);
  }
  return values;
}

template <class V>
V combine(reduction op, V a, V b) {
  switch (op) {
    case reduction::sum:
      if constexpr (std::is_integral_v<V>) {
        using u = std::make_unsigned_t<V>;
        return static_cast<V>(static_cast<u>(static_cast<u>(a) + static_cast<u>(b)));
      } else {
        return a + b;
      }
    case reduction::min: return b < a ? b : a;
    case reduction::max: return a < b ? b : a;
  }
  return a;
}

template <class K, class V>
struct host_groups {
  std::vector<K> first_keys;
  std::vector<V> first_values, aggregates, inclusive, exclusive;
};

template <class K, class V>
host_groups<K, V> group_on_host(const std::vector<K>& keys, const std::vector<V>& values, reduction op) {
  host_groups<K, V> g;
  V running{};
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const bool head = i == 0 || !(keys[i] == keys[i - 1]);
    if (head) {
      g.first_keys.push_back(keys[i]);
      g.first_values.push_back(values[i]);
      g.aggregates.push_back(values[i]);
      g.exclusive.push_back(V{});
      running = values[i];
    } else {
      g.aggregates.back() = combine(op, g.aggregates.back(), values[i]);
      g.exclusive.push_back(running);
      running = combine(reduction::sum, running, values[i]);
    }
    g.inclusive.push_back(running);
  }
  return g;
}

template <class Pair>
class CompiledGroupBy : public upsweep::test::gpu_test {
 protected:
  using K = typename Pair::first_type;
  using V = typename Pair::second_type;
  std::uint64_t seed = upsweep::test::fresh_seed();
  std::mt19937_64 rng{seed};
  std::int64_t n = upsweep::test::max_test_items(200'003);
  std::vector<K> keys = keys_in_runs<K>(n, rng);
  std::vector<V> values = small_values<V>(n, rng);
  std::unique_ptr<device_buffer<K>> d_keys;  // uploaded once a GPU is known to be there
  std::unique_ptr<device_buffer<V>> d_values;

  void SetUp() override {
    upsweep::test::gpu_test::SetUp();
    if (IsSkipped()) return;
    d_keys = std::make_unique<device_buffer<K>>(keys);
    d_values = std::make_unique<device_buffer<V>>(values);
  }
};

using key_value_pairs =
    ::testing::Types<std::pair<std::int32_t, float>, std::pair<std::uint32_t, std::int64_t>,
                     std::pair<std::int64_t, std::int32_t>, std::pair<std::uint64_t, std::uint64_t>,
                     std::pair<float, double>, std::pair<double, std::uint32_t>>;
TYPED_TEST_SUITE(CompiledGroupBy, key_value_pairs);

TYPED_TEST(CompiledGroupBy, ReduceAndUniqueByKeyKeepTheFirstKeyOfEachRun) {
  using K = typename TestFixture::K;
  using V = typename TestFixture::V;
  SCOPED_TRACE(upsweep::test::seed_trace(this->seed));
  const std::int64_t n = this->n;
  const auto& d_keys = *this->d_keys;
  const auto& d_values = *this->d_values;
  device_buffer<std::int64_t> d_num_runs(1);
  for (const reduction op : {reduction::sum, reduction::min, reduction::max}) {
    SCOPED_TRACE(static_cast<int>(op));
    const auto want = group_on_host(this->keys, this->values, op);
    const auto runs = static_cast<std::int64_t>(want.first_keys.size());
    device_buffer<K> d_keys_out(n);
    device_buffer<V> d_aggregates(n);
    poison(d_keys_out);
    poison(d_aggregates);
    if (op == reduction::sum) {  // the core form: a size query, then the call
      std::size_t bytes = 0;
      ASSERT_EQ(upsweep::reduce_by_key(nullptr, bytes, d_keys.data(), d_values.data(), d_keys_out.data(),
                                       d_aggregates.data(), d_num_runs.data(), n, op),
                cudaSuccess);
      device_buffer<unsigned char> d_temp(static_cast<std::int64_t>(bytes));
      ASSERT_EQ(upsweep::reduce_by_key(d_temp.data(), bytes, d_keys.data(), d_values.data(), d_keys_out.data(),
                                       d_aggregates.data(), d_num_runs.data(), n, op),
                cudaSuccess);
      ASSERT_EQ(d_num_runs.download()[0], runs);
    } else {
      ASSERT_EQ(upsweep::reduce_by_key(d_keys.data(), d_values.data(), d_keys_out.data(), d_aggregates.data(), n, op),
                runs);
    }
    EXPECT_TRUE(same_bits(d_keys_out.download(runs), want.first_keys));
    EXPECT_TRUE(same_bits(d_aggregates.download(runs), want.aggregates));
    EXPECT_TRUE(same_bits(d_aggregates.download(n - runs, runs), poison_items<V>(n - runs)))
        << "written past the number of runs";
    if (op == reduction::sum) {
      device_buffer<V> d_first_values(n);
      poison(d_first_values);
      upsweep::unique_by_key(d_keys.data(), d_values.data(), d_keys_out.data(), d_first_values.data(),
                             d_num_runs.data(), n);
      ASSERT_EQ(d_num_runs.download()[0], runs);
      EXPECT_TRUE(same_bits(d_keys_out.download(runs), want.first_keys));
      EXPECT_TRUE(same_bits(d_first_values.download(runs), want.first_values));
    }
  }
}

TYPED_TEST(CompiledGroupBy, SumsByKeyRestartAtEachRunInPlaceToo) {
  using V = typename TestFixture::V;
  const auto want = group_on_host(this->keys, this->values, reduction::sum);
  SCOPED_TRACE(upsweep::test::seed_trace(this->seed));
  const std::int64_t n = this->n;
  const auto& d_keys = *this->d_keys;
  const auto& d_values = *this->d_values;
  device_buffer<V> d_out(n);
  poison(d_out);
  std::size_t bytes = 0;
  ASSERT_EQ(upsweep::inclusive_sum_by_key(nullptr, bytes, d_keys.data(), d_values.data(), d_out.data(), n),
            cudaSuccess);
  device_buffer<unsigned char> d_temp(static_cast<std::int64_t>(bytes));
  ASSERT_EQ(upsweep::inclusive_sum_by_key(d_temp.data(), bytes, d_keys.data(), d_values.data(), d_out.data(), n),
            cudaSuccess);
  EXPECT_TRUE(same_bits(d_out.download(), want.inclusive));
  upsweep::exclusive_sum_by_key(d_keys.data(), d_values.data(), d_values.data(), n);  // in place
  EXPECT_TRUE(same_bits(d_values.download(), want.exclusive));
}

class CompiledGroupByArguments : public upsweep::test::gpu_test {};

TEST_F(CompiledGroupByArguments, RefusesBadCountsOperatorsAndOverlapsAndAcceptsNone) {
  const std::int64_t n = 1000;
  device_buffer<std::int32_t> d_keys(std::vector<std::int32_t>(n, 7));
  device_buffer<double> d_values(std::vector<double>(n, 1.0));
  device_buffer<std::int32_t> d_keys_out(n);
  device_buffer<double> d_aggregates(n);
  poison(d_aggregates);
  device_buffer<std::int64_t> d_num_runs(1);
  std::size_t bytes = 0;
  EXPECT_EQ(upsweep::reduce_by_key(nullptr, bytes, d_keys.data(), d_values.data(), d_keys_out.data(),
                                   d_aggregates.data(), d_num_runs.data(), -1, reduction::sum),
            cudaErrorInvalidValue);
  ASSERT_EQ(upsweep::reduce_by_key(nullptr, bytes, d_keys.data(), d_values.data(), d_keys_out.data(),
                                   d_aggregates.data(), d_num_runs.data(), n, reduction::sum),
            cudaSuccess);
  device_buffer<unsigned char> d_temp(static_cast<std::int64_t>(bytes));
  EXPECT_EQ(upsweep::reduce_by_key(d_temp.data(), bytes, d_keys.data(), d_values.data(), d_keys_out.data(),
                                   d_aggregates.data(), d_num_runs.data(), n, static_cast<reduction>(7)),
            cudaErrorInvalidValue);
  EXPECT_EQ(upsweep::reduce_by_key(d_temp.data(), bytes, d_keys.data(), d_values.data(), d_keys.data(),
                                   d_aggregates.data(), d_num_runs.data(), n, reduction::max),
            cudaErrorInvalidValue);  // unique keys over the keys
  EXPECT_THROW(upsweep::unique_by_key(d_keys.data(), d_values.data(), d_keys_out.data(), d_aggregates.data(),
                                      d_num_runs.data(), -5),
               upsweep::cuda_error);
  EXPECT_TRUE(same_bits(d_aggregates.download(), poison_items<double>(n))) << "a refused call wrote";
  EXPECT_EQ(upsweep::unique_by_key(d_keys.data(), d_values.data(), d_keys_out.data(), d_aggregates.data(), 0), 0);
  EXPECT_EQ(upsweep::reduce_by_key(d_keys.data(), d_values.data(), d_keys_out.data(), d_aggregates.data(), n,
                                   reduction::sum),
            1);
  EXPECT_EQ(d_aggregates.download(1)[0], static_cast<double>(n));
}

}  // namespace
