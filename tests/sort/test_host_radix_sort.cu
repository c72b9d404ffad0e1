// Host-to-host sort against the stable host order and the device sort, bitwise: in core and out
// of core (budgets of a third and a sixteenth of the input, one item below the in-core need), with
// and without a host scratch (sorted runs), in place with one, pinned and pageable arrays, skewed keys (all equal, one top digit, one 16-bit prefix past a
// slot), floats with NaN and -0.0, descending, bit windows, pairs' stability; the errors.
#include "host_sort_cases.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

namespace {

using namespace upsweep::test;

enum class scratch_kind { none, pinned, pageable };

struct host_case {
  std::int64_t n = 0;
  std::size_t budget = 0;  // device bytes; 0: what the query says for in core
  bool pinned_in = true, pinned_out = true;
  bool descending = false;
  int begin_bit = 0, end_bit = -1;
  scratch_kind scratch = scratch_kind::none;  // out of core: through sorted runs in a host scratch
};

const char* name_of(scratch_kind k) { return k == scratch_kind::none ? "no scratch" : k == scratch_kind::pinned ? "pinned scratch" : "pageable scratch"; }

// Runs the core layer with the case's budget; keys (and, for pairs, their input positions as
// values) against the stable host order. Returns the layout's in-core choice through `in_core`.
template <class Key, class Value = std::uint32_t>
void expect_sorted(const host_case& c, keys_shape shape, bool pairs, bool* in_core = nullptr) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const int end_bit = c.end_bit < 0 ? upsweep::key_bits_v<Key> : c.end_bit;
  const std::vector<Key> keys = make_keys<Key>(c.n, seed, shape);
  std::vector<Value> values(keys.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<Value>(i * 2654435761u);
  host_array<Key> keys_in(c.n, c.pinned_in), keys_out(c.n, c.pinned_out);
  host_array<Value> values_in(c.n, c.pinned_in), values_out(c.n, c.pinned_out);
  ASSERT_NE(keys_in.data(), nullptr);
  keys_in.assign(keys);
  values_in.assign(values);

  upsweep::host_sort_storage storage;
  storage.device_bytes = c.budget;
  auto call = [&](upsweep::host_sort_storage& s) {
    if (pairs)
      return c.descending ? upsweep::host_sort_pairs_descending(s, keys_in.data(), keys_out.data(), values_in.data(),
                                                                values_out.data(), c.n, c.begin_bit, end_bit)
                          : upsweep::host_sort_pairs(s, keys_in.data(), keys_out.data(), values_in.data(),
                                                     values_out.data(), c.n, c.begin_bit, end_bit);
    return c.descending ? upsweep::host_sort_keys_descending(s, keys_in.data(), keys_out.data(), c.n, c.begin_bit, end_bit)
                        : upsweep::host_sort_keys(s, keys_in.data(), keys_out.data(), c.n, c.begin_bit, end_bit);
  };
  ASSERT_EQ(cudaSuccess, call(storage));
  if (in_core != nullptr) {
    upsweep::detail::host_sort_layout<false, Key, Value> pairs_layout;
    upsweep::detail::host_sort_layout<false, Key, upsweep::detail::no_values> keys_layout;
    *in_core = pairs ? pairs_layout.plan(c.n, c.budget) && pairs_layout.in_core
                     : keys_layout.plan(c.n, c.budget) && keys_layout.in_core;
  }
  if (storage.scratch_bytes > 0)  // out of core: keys, padded, then values
    EXPECT_EQ(storage.scratch_bytes, upsweep::detail::round_up_bytes(static_cast<std::size_t>(c.n) * sizeof(Key)) +
                                         static_cast<std::size_t>(c.n) * (pairs ? sizeof(Value) : 0));
  std::unique_ptr<host_array<char>> scratch;
  if (c.scratch != scratch_kind::none && storage.scratch_bytes > 0) {
    scratch = std::make_unique<host_array<char>>(static_cast<std::int64_t>(storage.scratch_bytes), c.scratch == scratch_kind::pinned);
    storage.h_scratch = scratch->data();
  }
  device_buffer<char> d_storage(static_cast<std::int64_t>(storage.device_bytes));
  void* h_staging = nullptr;
  CUDA_OK(cudaMallocHost(&h_staging, storage.staging_bytes));
  storage.d_storage = d_storage.data();
  storage.h_staging = h_staging;
  const cudaError_t status = call(storage);
  CUDA_OK(cudaFreeHost(h_staging));
  ASSERT_EQ(cudaSuccess, status);

  const std::vector<index_t> order = stable_window_order(keys, c.descending, c.begin_bit, end_bit);
  EXPECT_TRUE(same_bits(permuted(keys, order), keys_out.to_vector())) << "keys differ from the stable host order";
  if (pairs) EXPECT_TRUE(same_bits(permuted(values, order), values_out.to_vector())) << "values not moved stably";
  EXPECT_TRUE(same_bits(keys, keys_in.to_vector())) << "input changed";
}

class HostRadixSort : public gpu_test {};

// Bytes the query names for an in-core sort of n items.
template <class Key>
std::size_t in_core_bytes(std::int64_t n) {
  upsweep::host_sort_storage storage;
  EXPECT_EQ(cudaSuccess, upsweep::host_sort_keys<Key>(storage, nullptr, nullptr, n));
  return storage.device_bytes;
}

TEST_F(HostRadixSort, SmallSizesMatchTheStableHostOrder) {
  for (std::int64_t n : {0, 1, 2, 31, 32, 33, 1001, 4095, 4097, 100003}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    expect_sorted<std::uint32_t>({n}, keys_shape::random, false);
    expect_sorted<std::uint32_t>({n}, keys_shape::random, true);
  }
}

TEST_F(HostRadixSort, OneItemBelowTheInCoreBudgetGoesOutOfCore) {
  const std::int64_t n = out_of_core_items(1 << 19);
  const std::size_t need = in_core_bytes<std::uint32_t>(n);
  bool in_core = false;
  expect_sorted<std::uint32_t>({n, need}, keys_shape::random, false, &in_core);
  EXPECT_TRUE(in_core);
  expect_sorted<std::uint32_t>({n, need - sizeof(std::uint32_t)}, keys_shape::random, false, &in_core);
  EXPECT_FALSE(in_core);
}

TEST_F(HostRadixSort, BudgetsOfAThirdAndASixteenthSortEveryShape) {
  const std::int64_t n = out_of_core_items(1 << 24);
  for (std::size_t divisor : {3u, 16u}) {
    const std::size_t budget = workable_budget<std::uint32_t>(n, static_cast<std::size_t>(n) * sizeof(std::uint32_t) / divisor);
    for (keys_shape shape : {keys_shape::random, keys_shape::all_equal, keys_shape::one_top_digit,
                             keys_shape::one_prefix16, keys_shape::two_values}) {
      for (scratch_kind scratch : {scratch_kind::none, scratch_kind::pinned}) {
        SCOPED_TRACE("budget 1/" + std::to_string(divisor) + ", shape " + std::to_string(static_cast<int>(shape)) +
                     ", " + name_of(scratch));
        bool in_core = true;
        host_case c{n, budget};
        c.scratch = scratch;
        expect_sorted<std::uint32_t>(c, shape, false, &in_core);
        EXPECT_FALSE(in_core);
        c.budget = budget * 2;
        expect_sorted<std::uint32_t>(c, shape, true, &in_core);
        EXPECT_FALSE(in_core);
      }
    }
  }
}

TEST_F(HostRadixSort, PageableArraysGoThroughStaging) {
  const std::int64_t n = out_of_core_items(3 << 20);
  for (bool pinned_in : {false, true}) {
    for (bool pinned_out : {false, true}) {
      host_case c{n, 0, pinned_in, pinned_out};
      expect_sorted<std::uint32_t>(c, keys_shape::random, true);
      c.budget = workable_budget<std::uint32_t>(n, static_cast<std::size_t>(n) * 8 / 5);  // out of core
      expect_sorted<std::uint32_t>(c, keys_shape::random, true);
      c.scratch = pinned_in ? scratch_kind::pageable : scratch_kind::pinned;
      expect_sorted<std::uint32_t>(c, keys_shape::random, true);
    }
  }
}

TEST_F(HostRadixSort, FloatsDescendingAndBitWindowsFollowTheDeviceOrder) {
  const std::int64_t n = out_of_core_items(1 << 21);
  for (scratch_kind scratch : {scratch_kind::none, scratch_kind::pinned}) {
   for (bool out_of_core : {false, true}) {
    if (!out_of_core && scratch != scratch_kind::none) continue;
    SCOPED_TRACE(std::string(out_of_core ? "out of core, " : "in core, ") + name_of(scratch));
    // Bytes for about a fifth of the items in core, as a budget for Key and Value; 0 (in core) otherwise.
    auto budget = [&](auto key, auto value) {
      using K = decltype(key);
      using V = decltype(value);
      return out_of_core ? workable_budget<K, V>(n, static_cast<std::size_t>(n) * (sizeof(K) + sizeof(V)) * 2 / 5) : 0;
    };
    expect_sorted<float>({n, budget(float{}, 0u), true, true, false, 0, -1, scratch}, keys_shape::floats_special, true);
    expect_sorted<float>({n, budget(float{}, 0u), true, true, true, 0, -1, scratch}, keys_shape::floats_special, true);
    expect_sorted<double>({n, budget(double{}, 0u), true, true, true, 0, -1, scratch}, keys_shape::floats_special, false);
    expect_sorted<std::int64_t, std::uint64_t>({n, budget(std::int64_t{}, std::uint64_t{}), true, true, false, 0, -1, scratch},
                                               keys_shape::random, true);
    expect_sorted<std::int16_t>({n, budget(std::int16_t{}, 0u), true, true, true, 0, -1, scratch}, keys_shape::random, true);
    expect_sorted<std::uint32_t>({n, budget(0u, 0u), true, true, false, 5, 27, scratch}, keys_shape::random, true);
    expect_sorted<std::uint64_t>({n, budget(std::uint64_t{}, 0u), true, true, true, 20, 44, scratch},
                                 keys_shape::one_prefix16, true);
    expect_sorted<std::uint32_t>({n, budget(0u, 0u), true, true, false, 9, 9, scratch}, keys_shape::random, true);  // empty
   }
  }
}

TEST_F(HostRadixSort, MatchesTheDeviceSortBitForBit) {
  const std::int64_t n = out_of_core_items(1 << 22);
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::vector<float> keys = make_keys<float>(n, seed, keys_shape::floats_special);
  device_buffer<float> d_keys(n), d_sorted(n);
  CUDA_OK(cudaMemcpy(d_keys.data(), keys.data(), keys.size() * sizeof(float), cudaMemcpyHostToDevice));
  upsweep::sort_keys_descending(d_keys.data(), d_sorted.data(), n);
  std::vector<float> device_order(keys.size()), host_order(keys.size());
  CUDA_OK(cudaMemcpy(device_order.data(), d_sorted.data(), keys.size() * sizeof(float), cudaMemcpyDeviceToHost));
  upsweep::host_sort_options options;
  options.device_budget_bytes = workable_budget<float>(n, static_cast<std::size_t>(n) * sizeof(float) / 3);
  upsweep::host_sort_keys_descending(keys.data(), host_order.data(), n, 0, 32, options);
  EXPECT_TRUE(same_bits(device_order, host_order));
}

TEST_F(HostRadixSort, InPlaceInCoreOnlyAndBadArgumentsAreErrors) {
  const std::int64_t n = 1 << 20;
  std::vector<std::uint32_t> keys = make_keys<std::uint32_t>(n, fresh_seed(), keys_shape::random);
  std::vector<std::uint32_t> expected = keys;
  std::stable_sort(expected.begin(), expected.end());
  upsweep::host_sort_keys(keys.data(), keys.data(), n);  // in core, in place
  EXPECT_EQ(expected, keys);
  upsweep::host_sort_options small;
  small.device_budget_bytes = static_cast<std::size_t>(n) * 2;  // half the keys: out of core
  EXPECT_THROW(upsweep::host_sort_keys(keys.data(), keys.data(), n, 0, 32, small), upsweep::cuda_error);
  small.device_budget_bytes = 4096;  // below two slots of 2^16 items
  std::vector<std::uint32_t> out(static_cast<std::size_t>(n), 7u);
  EXPECT_THROW(upsweep::host_sort_keys(keys.data(), out.data(), n, 0, 32, small), upsweep::cuda_error);
  EXPECT_EQ(std::vector<std::uint32_t>(static_cast<std::size_t>(n), 7u), out) << "written after an error";
  upsweep::host_sort_storage storage;
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::host_sort_keys(storage, keys.data(), out.data(), n, 0, 33));
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::host_sort_keys(storage, keys.data(), out.data(), -1));
}

TEST_F(HostRadixSort, LargeOutOfCoreSortOfTwoToThe28Keys) {
  const std::int64_t n = max_test_items(std::int64_t{1} << 28);
  const std::size_t budget = workable_budget<std::uint32_t>(n, static_cast<std::size_t>(n) * sizeof(std::uint32_t) / 16);
  expect_sorted<std::uint32_t>({n, budget}, keys_shape::random, false);
  expect_sorted<std::uint32_t>({n, budget * 16 / 3}, keys_shape::one_top_digit, true);
  host_case c{n, budget * 4};
  c.scratch = scratch_kind::pinned;
  expect_sorted<std::uint32_t>(c, keys_shape::random, true);
}

// With a host scratch, out of core sorts in place (the runs take the input before any output is
// written); a scratch smaller than the query's is an error that writes nothing.
TEST_F(HostRadixSort, AScratchSortsOutOfCoreInPlace) {
  const std::int64_t n = out_of_core_items(1 << 21);
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  std::vector<std::uint32_t> keys = make_keys<std::uint32_t>(n, seed, keys_shape::one_top_digit);
  std::vector<std::uint32_t> expected = keys;
  std::stable_sort(expected.begin(), expected.end());
  upsweep::host_sort_storage storage;
  storage.device_bytes = workable_budget<std::uint32_t>(n, static_cast<std::size_t>(n) * sizeof(std::uint32_t) / 5);
  ASSERT_EQ(cudaSuccess, upsweep::host_sort_keys(storage, keys.data(), keys.data(), n));
  ASSERT_GT(storage.scratch_bytes, 0u);
  std::vector<char> scratch(storage.scratch_bytes);
  upsweep::host_sort_options options;
  options.device_budget_bytes = storage.device_bytes;
  options.host_scratch = scratch.data();
  options.host_scratch_bytes = scratch.size() - 1;
  const std::vector<std::uint32_t> before = keys;
  EXPECT_THROW(upsweep::host_sort_keys(keys.data(), keys.data(), n, 0, 32, options), upsweep::cuda_error);
  EXPECT_EQ(before, keys) << "written after an error";
  options.host_scratch_bytes = scratch.size();
  upsweep::host_sort_keys(keys.data(), keys.data(), n, 0, 32, options);
  EXPECT_EQ(expected, keys);
}

// Pinned arrays out of core: a pinned scratch carries the sorted runs; a pageable one is left
// untouched (the scratch-free design is faster than two host copies of the data), unless the sort
// is in place and needs it.
TEST_F(HostRadixSort, APageableScratchBesidePinnedArraysIsUsedOnlyInPlace) {
  const std::int64_t n = out_of_core_items(1 << 21);
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  const std::vector<std::uint32_t> keys = make_keys<std::uint32_t>(n, seed, keys_shape::random);
  std::vector<std::uint32_t> expected = keys;
  std::stable_sort(expected.begin(), expected.end());
  const std::size_t budget = workable_budget<std::uint32_t>(n, static_cast<std::size_t>(n) * sizeof(std::uint32_t) / 5);
  for (const bool pinned_scratch : {true, false}) {
    for (const bool in_place : {false, true}) {
      SCOPED_TRACE(std::string(pinned_scratch ? "pinned" : "pageable") + " scratch" + (in_place ? ", in place" : ""));
      host_array<std::uint32_t> in(n, true), out(n, true);
      in.assign(keys);
      std::uint32_t* sorted = in_place ? in.data() : out.data();
      upsweep::host_sort_storage storage;
      storage.device_bytes = budget;
      ASSERT_EQ(cudaSuccess, upsweep::host_sort_keys(storage, in.data(), sorted, n));
      ASSERT_GT(storage.scratch_bytes, 0u);
      host_array<unsigned char> scratch(static_cast<std::int64_t>(storage.scratch_bytes), pinned_scratch);
      device_buffer<char> d_storage(static_cast<std::int64_t>(storage.device_bytes));
      host_array<char> staging(static_cast<std::int64_t>(storage.staging_bytes), true);
      storage.d_storage = d_storage.data();
      storage.h_staging = staging.data();
      storage.h_scratch = scratch.data();
      ASSERT_EQ(cudaSuccess, upsweep::host_sort_keys(storage, in.data(), sorted, n));
      EXPECT_TRUE(std::equal(expected.begin(), expected.end(), sorted)) << "not the stable order";
      const std::vector<unsigned char> bytes = scratch.to_vector();
      const bool untouched = std::all_of(bytes.begin(), bytes.end(), [](unsigned char b) { return b == poison_byte; });
      EXPECT_EQ(!pinned_scratch && !in_place, untouched) << "scratch use";
    }
  }
}

}  // namespace
