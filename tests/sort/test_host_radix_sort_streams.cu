// Host-to-host sort from the caller's streams to others: the stable host order bitwise, in core
// and out of core through a scratch (pinned and pageable), keys and pairs, skewed keys, floats
// descending; the stream contract (whole items, each input item read once, each output item
// written once, at most 8 threads); out of core without a scratch refused before any move; a
// failed move stops the sort with its code.
#include "host_sort_cases.cuh"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace {

using namespace upsweep::test;

// A stream over an array in memory that records every call; a call whose range holds byte
// `fail_at` fails with EIO.
template <class T>
struct recorded_stream : upsweep::host_stream<T> {
  recorded_stream(T* items, std::int64_t n, bool input) : items_(reinterpret_cast<char*>(items)), n_(n), input_(input) {
    this->move = &recorded_stream::call;
    this->context = this;
  }
  static int call(void* context, std::uint64_t offset, void* buffer, std::size_t bytes) {
    auto& s = *static_cast<recorded_stream*>(context);
    {
      std::lock_guard<std::mutex> lock(s.mutex_);
      s.ranges.emplace_back(offset, bytes);
      s.threads.insert(std::this_thread::get_id());
    }
    if (s.fail_at >= offset && s.fail_at < offset + bytes) return EIO;
    if (s.input_) std::memcpy(buffer, s.items_ + offset, bytes);
    else std::memcpy(s.items_ + offset, buffer, bytes);
    return 0;
  }
  // Every item of the array moved exactly once, in calls of whole items.
  void expect_each_item_once() const {
    std::vector<std::pair<std::uint64_t, std::size_t>> sorted = ranges;
    std::sort(sorted.begin(), sorted.end());
    std::uint64_t next = 0;
    for (const auto& [offset, bytes] : sorted) {
      ASSERT_EQ(0u, offset % sizeof(T)) << "a call starts inside an item";
      ASSERT_EQ(0u, bytes % sizeof(T)) << "a call ends inside an item";
      ASSERT_EQ(next, offset) << (offset < next ? "bytes moved twice" : "bytes never moved");
      next = offset + bytes;
    }
    EXPECT_EQ(static_cast<std::uint64_t>(n_) * sizeof(T), next);
    EXPECT_LE(threads.size(), 8u);
  }

  std::vector<std::pair<std::uint64_t, std::size_t>> ranges;
  std::set<std::thread::id> threads;
  std::uint64_t fail_at = ~std::uint64_t{0};

 private:
  char* items_;
  std::int64_t n_;
  bool input_;
  std::mutex mutex_;
};

enum class scratch_use { none, pinned, pageable };

struct stream_case {
  std::int64_t n = 0;
  std::size_t budget = 0;  // 0: in core
  scratch_use scratch = scratch_use::none;
  bool descending = false;
};

// The core layer over recorded streams: sorted bitwise as the stable host order, each item moved once.
template <class Key, class Value = upsweep::detail::no_values>
void expect_streamed_sort(const stream_case& c, keys_shape shape) {
  constexpr bool pairs = upsweep::detail::has_values_v<Value>;
  using stored_t = std::conditional_t<pairs, Value, std::uint32_t>;
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed) + ", n = " + std::to_string(c.n));
  const std::vector<Key> keys = make_keys<Key>(c.n, seed, shape);
  std::vector<stored_t> values(keys.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<stored_t>(i * 2654435761u);
  std::vector<Key> keys_copy = keys, keys_out(keys.size());
  std::vector<stored_t> values_copy = values, values_out(values.size());
  std::memset(static_cast<void*>(keys_out.data()), poison_byte, keys_out.size() * sizeof(Key));
  std::memset(static_cast<void*>(values_out.data()), poison_byte, values_out.size() * sizeof(stored_t));
  recorded_stream<Key> kin(keys_copy.data(), c.n, true), kout(keys_out.data(), c.n, false);
  recorded_stream<stored_t> vin(values_copy.data(), c.n, true), vout(values_out.data(), c.n, false);
  upsweep::host_sort_storage storage;
  storage.device_bytes = c.budget;
  const int end_bit = upsweep::key_bits_v<Key>;
  auto call = [&] {
    if constexpr (pairs)
      return c.descending ? upsweep::host_sort_pairs_descending<Key, stored_t>(storage, kin, kout, vin, vout, c.n, 0, end_bit)
                          : upsweep::host_sort_pairs<Key, stored_t>(storage, kin, kout, vin, vout, c.n, 0, end_bit);
    else
      return c.descending ? upsweep::host_sort_keys_descending(storage, kin, kout, c.n, 0, end_bit)
                          : upsweep::host_sort_keys(storage, kin, kout, c.n, 0, end_bit);
  };
  ASSERT_EQ(cudaSuccess, call());
  std::unique_ptr<host_array<char>> scratch;
  if (c.scratch != scratch_use::none && storage.scratch_bytes > 0) {
    scratch = std::make_unique<host_array<char>>(static_cast<std::int64_t>(storage.scratch_bytes), c.scratch == scratch_use::pinned);
    storage.h_scratch = scratch->data();
  }
  device_buffer<char> d_storage(static_cast<std::int64_t>(storage.device_bytes));
  host_array<char> staging(static_cast<std::int64_t>(storage.staging_bytes), true);
  storage.d_storage = d_storage.data();
  storage.h_staging = staging.data();
  ASSERT_EQ(cudaSuccess, call());

  const std::vector<index_t> order = stable_window_order(keys, c.descending, 0, end_bit);
  EXPECT_TRUE(same_bits(permuted(keys, order), keys_out)) << "keys differ from the stable host order";
  kin.expect_each_item_once();
  kout.expect_each_item_once();
  if constexpr (pairs) {
    EXPECT_TRUE(same_bits(permuted(values, order), values_out)) << "values not moved stably";
    vin.expect_each_item_once();
    vout.expect_each_item_once();
  } else {
    EXPECT_TRUE(vin.ranges.empty() && vout.ranges.empty());
  }
}

class HostRadixSortStreams : public gpu_test {};

TEST_F(HostRadixSortStreams, InCoreMatchesTheStableHostOrder) {
  for (std::int64_t n : {0, 1, 31, 33, 4097, 100003, static_cast<int>(out_of_core_items(1 << 21)) + 7}) {
    expect_streamed_sort<std::uint32_t>({n}, keys_shape::random);
    expect_streamed_sort<std::uint32_t, std::uint64_t>({n}, keys_shape::random);
  }
  const std::int64_t n = out_of_core_items(1 << 20);
  expect_streamed_sort<float, std::uint32_t>({n, 0, scratch_use::none, true}, keys_shape::floats_special);
  expect_streamed_sort<std::uint16_t>({n}, keys_shape::two_values);
}

TEST_F(HostRadixSortStreams, OutOfCoreThroughAScratchMatchesTheStableHostOrder) {
  const std::int64_t n = out_of_core_items(1 << 22) + 5;
  const std::size_t budget = workable_budget<std::uint32_t>(n, static_cast<std::size_t>(n) * sizeof(std::uint32_t) / 3);
  for (keys_shape shape : {keys_shape::random, keys_shape::all_equal, keys_shape::one_top_digit, keys_shape::one_prefix16}) {
    SCOPED_TRACE("shape " + std::to_string(static_cast<int>(shape)));
    expect_streamed_sort<std::uint32_t>({n, budget, scratch_use::pinned}, shape);
    expect_streamed_sort<std::uint32_t, std::uint32_t>({n, budget * 2, scratch_use::pageable}, shape);
  }
  const std::size_t pairs_budget =
      workable_budget<double, std::uint64_t>(n, static_cast<std::size_t>(n) * 16 / 5);
  expect_streamed_sort<double, std::uint64_t>({n, pairs_budget, scratch_use::pageable, true}, keys_shape::floats_special);
}

TEST_F(HostRadixSortStreams, OutOfCoreWithoutAScratchIsRefusedBeforeAnyMove) {
  const std::int64_t n = out_of_core_items(1 << 21);
  std::vector<std::uint32_t> keys = make_keys<std::uint32_t>(n, fresh_seed(), keys_shape::random), out(keys.size(), 7u);
  recorded_stream<std::uint32_t> in(keys.data(), n, true), sink(out.data(), n, false);
  upsweep::host_sort_storage storage;
  storage.device_bytes = workable_budget<std::uint32_t>(n, static_cast<std::size_t>(n));
  ASSERT_EQ(cudaSuccess, upsweep::host_sort_keys(storage, in, sink, n));
  ASSERT_GT(storage.scratch_bytes, 0u);
  device_buffer<char> d_storage(static_cast<std::int64_t>(storage.device_bytes));
  host_array<char> staging(static_cast<std::int64_t>(storage.staging_bytes), true);
  storage.d_storage = d_storage.data();
  storage.h_staging = staging.data();
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::host_sort_keys(storage, in, sink, n));
  EXPECT_TRUE(in.ranges.empty() && sink.ranges.empty()) << "moved before refusing";
  upsweep::host_stream<std::uint32_t> no_move;
  EXPECT_EQ(cudaErrorInvalidValue, upsweep::host_sort_keys(storage, no_move, sink, n));
}

// The convenience form allocates the scratch out of core; a failed move ends the sort with its
// code (core: cudaErrorUnknown and the stream's `error`; convenience: std::system_error).
TEST_F(HostRadixSortStreams, AFailedMoveStopsTheSortWithItsCode) {
  const std::int64_t n = out_of_core_items(1 << 21);
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE(seed_trace(seed));
  std::vector<std::uint32_t> keys = make_keys<std::uint32_t>(n, seed, keys_shape::random), out(keys.size());
  std::vector<std::uint32_t> expected = keys;
  std::stable_sort(expected.begin(), expected.end());
  upsweep::host_sort_options options;
  options.device_budget_bytes = workable_budget<std::uint32_t>(n, static_cast<std::size_t>(n));
  {
    recorded_stream<std::uint32_t> in(keys.data(), n, true), sink(out.data(), n, false);
    upsweep::host_sort_keys(in, sink, n, 0, 32, options);  // out of core, its own scratch
    EXPECT_EQ(expected, out);
  }
  for (bool fail_input : {true, false}) {
    for (bool convenience : {false, true}) {
      SCOPED_TRACE(std::string(fail_input ? "input" : "output") + (convenience ? ", convenience" : ", core"));
      recorded_stream<std::uint32_t> in(keys.data(), n, true), sink(out.data(), n, false);
      (fail_input ? in : sink).fail_at = static_cast<std::uint64_t>(n / 2) * sizeof(std::uint32_t) + 1;
      if (convenience) {
        try {
          upsweep::host_sort_keys(in, sink, n);
          ADD_FAILURE() << "no exception";
        } catch (const std::system_error& e) {
          EXPECT_EQ(EIO, e.code().value());
        }
      } else {
        upsweep::host_sort_storage storage;
        ASSERT_EQ(cudaSuccess, upsweep::host_sort_keys(storage, in, sink, n));
        device_buffer<char> d_storage(static_cast<std::int64_t>(storage.device_bytes));
        host_array<char> staging(static_cast<std::int64_t>(storage.staging_bytes), true);
        storage.d_storage = d_storage.data();
        storage.h_staging = staging.data();
        EXPECT_EQ(cudaErrorUnknown, upsweep::host_sort_keys(storage, in, sink, n));
        EXPECT_EQ(EIO, (fail_input ? in : sink).error);
      }
    }
  }
  CUDA_OK(cudaGetLastError());
}

}  // namespace
