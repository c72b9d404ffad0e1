// The segmented sort tests' shared pieces: segment layouts (one offsets array, or begin and end
// arrays with gaps and reversed offsets), the stable host reference per segment, and Upsweep's
// core layer on poisoned outputs.
#pragma once

#include "radix_sort_cases.cuh"

#include <upsweep/sort/device_segmented_sort.cuh>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace upsweep::test {

// Segment i is [begins[i], ends[i]) of num_items; contiguous layouts also have `offsets`
// (begins then the last end), passed as offsets and offsets + 1.
struct segment_layout {
  std::vector<std::int64_t> begins, ends;
  std::int64_t num_items = 0;
  bool contiguous = true;
  std::vector<std::int64_t> offsets() const {
    std::vector<std::int64_t> all(begins);
    all.push_back(num_items);
    return all;
  }
};

inline segment_layout contiguous_layout(const std::vector<std::int64_t>& sizes) {
  segment_layout layout;
  for (const std::int64_t size : sizes) {
    layout.begins.push_back(layout.num_items);
    layout.num_items += size;
    layout.ends.push_back(layout.num_items);
  }
  return layout;
}

// Gaps of 0 to 3 items between segments (left as they are), and every seventh segment given
// end < begin (empty).
inline segment_layout gapped_layout(const std::vector<std::int64_t>& sizes, std::uint64_t seed) {
  segment_layout layout;
  layout.contiguous = false;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    layout.num_items += static_cast<std::int64_t>(mix64(seed ^ i) % 4);
    layout.begins.push_back(layout.num_items);
    layout.num_items += sizes[i];
    layout.ends.push_back(i % 7 == 3 ? layout.begins.back() - 1 : layout.num_items);
  }
  layout.num_items += 2;
  return layout;
}

// Sizes from `menu` in a random order, `count` of them.
inline std::vector<std::int64_t> shuffled_sizes(const std::vector<std::int64_t>& menu, std::size_t count,
                                                std::uint64_t seed) {
  std::vector<std::int64_t> sizes(count);
  for (std::size_t i = 0; i < count; ++i) sizes[i] = menu[mix64(seed + i) % menu.size()];
  return sizes;
}

struct segmented_options {
  bool descending = false;
  bool pairs = true;
  bool in_place = false;
  int begin_bit = 0;
  int end_bit = -1;  // -1: all the key's bits
};

// Expected output: each segment stably sorted by its window; items outside every segment keep
// `outside` (the poison, or the input when in place). Values are the input positions.
template <class Key>
sorted_output<Key> segmented_reference(const std::vector<Key>& in, const segment_layout& layout,
                                       const segmented_options& opt, const sorted_output<Key>& outside) {
  sorted_output<Key> expected = outside;
  const int end_bit = opt.end_bit < 0 ? static_cast<int>(sizeof(Key) * 8) : opt.end_bit;
  for (std::size_t s = 0; s < layout.begins.size(); ++s) {
    const std::int64_t first = layout.begins[s], last = layout.ends[s];
    if (last <= first) continue;
    const std::vector<Key> part(in.begin() + first, in.begin() + last);
    const std::vector<index_t> order = reference_order(part, opt.descending, opt.begin_bit, end_bit);
    for (std::size_t i = 0; i < order.size(); ++i) {
      expected.keys[static_cast<std::size_t>(first) + i] = part[order[i]];
      if (opt.pairs) expected.values[static_cast<std::size_t>(first) + i] = static_cast<index_t>(first) + order[i];
    }
  }
  return expected;
}

// Runs Upsweep's core layer (size query, poisoned temporary storage) with the layout's offsets:
// one array of int offsets when contiguous, else begin and end arrays of int64.
template <class Key>
sorted_output<Key> run_segmented(const std::vector<Key>& host_keys, const segment_layout& layout,
                                 const segmented_options& opt) {
  const std::int64_t n = layout.num_items;
  const auto segments = static_cast<std::int64_t>(layout.begins.size());
  std::vector<index_t> positions(static_cast<std::size_t>(n));
  std::iota(positions.begin(), positions.end(), index_t{0});
  device_buffer<Key> keys_in(host_keys), keys_out(n, guard_items);
  device_buffer<index_t> values_in(positions), values_out(n, guard_items);
  check(cudaMemset(keys_out.data(), poison_byte, (n + guard_items) * sizeof(Key)), "poison keys");
  check(cudaMemset(values_out.data(), poison_byte, (n + guard_items) * sizeof(index_t)), "poison values");
  Key* const d_keys_out = opt.in_place ? keys_in.data() : keys_out.data();
  index_t* const d_values_out = opt.in_place ? values_in.data() : values_out.data();
  const int end_bit = opt.end_bit < 0 ? upsweep::key_bits_v<Key> : opt.end_bit;
  std::vector<int> int_offsets;
  for (const std::int64_t o : layout.offsets()) int_offsets.push_back(static_cast<int>(o));
  const device_buffer<int> offsets(int_offsets);
  const device_buffer<std::int64_t> begins(layout.begins), ends(layout.ends);
  const auto call = [&](void* d_temp, std::size_t& bytes, auto begin_offsets, auto end_offsets) {
    if (opt.pairs)
      return opt.descending ? upsweep::segmented_sort_pairs_descending(
                                  d_temp, bytes, keys_in.data(), d_keys_out, values_in.data(), d_values_out, n,
                                  segments, begin_offsets, end_offsets, opt.begin_bit, end_bit)
                            : upsweep::segmented_sort_pairs(d_temp, bytes, keys_in.data(), d_keys_out, values_in.data(),
                                                            d_values_out, n, segments, begin_offsets, end_offsets,
                                                            opt.begin_bit, end_bit);
    return opt.descending
               ? upsweep::segmented_sort_keys_descending(d_temp, bytes, keys_in.data(), d_keys_out, n, segments,
                                                         begin_offsets, end_offsets, opt.begin_bit, end_bit)
               : upsweep::segmented_sort_keys(d_temp, bytes, keys_in.data(), d_keys_out, n, segments, begin_offsets,
                                              end_offsets, opt.begin_bit, end_bit);
  };
  const auto run = [&](void* d_temp, std::size_t& bytes) {
    return layout.contiguous ? call(d_temp, bytes, offsets.data(), offsets.data() + 1)
                             : call(d_temp, bytes, begins.data(), ends.data());
  };
  std::size_t bytes = 0;
  check(run(nullptr, bytes), "size query");
  device_buffer<unsigned char> temp(static_cast<std::int64_t>(bytes));
  check(cudaMemset(temp.data(), poison_byte, bytes), "poison temp");
  check(run(temp.data(), bytes), "segmented sort");
  check(cudaDeviceSynchronize(), "segmented sort kernels");
  sorted_output<Key> out;
  out.keys = opt.in_place ? keys_in.download() : keys_out.download();
  if (opt.pairs) out.values = opt.in_place ? values_in.download() : values_out.download();
  if (!opt.in_place) {
    for (const Key& k : keys_out.download(guard_items, n)) {
      bits_of<Key> bits;
      std::memcpy(&bits, &k, sizeof(Key));
      EXPECT_EQ(bits, static_cast<bits_of<Key>>(0xA5A5A5A5A5A5A5A5ull)) << "keys written past the end";
    }
    const std::vector<Key> input_after = keys_in.download();
    EXPECT_EQ(0, std::memcmp(input_after.data(), host_keys.data(), host_keys.size() * sizeof(Key))) << "input changed";
  }
  return out;
}

// Checks one run against the host reference, keys bitwise, values as input positions.
template <class Key>
void expect_segmented_sort(const std::vector<Key>& keys, const segment_layout& layout, const segmented_options& opt) {
  const auto n = static_cast<std::size_t>(layout.num_items);
  sorted_output<Key> outside;
  if (opt.in_place) {
    outside.keys = keys;
    outside.values.resize(n);
    std::iota(outside.values.begin(), outside.values.end(), index_t{0});
  } else {
    outside.keys.resize(n);
    std::memset(static_cast<void*>(outside.keys.data()), poison_byte, n * sizeof(Key));
    outside.values.assign(n, 0xA5A5A5A5u);
  }
  if (!opt.pairs) outside.values.clear();
  const sorted_output<Key> expected = segmented_reference(keys, layout, opt, outside);
  const sorted_output<Key> got = run_segmented(keys, layout, opt);
  expect_same_bits(got.keys, expected.keys);
  if (opt.pairs) expect_same_bits(got.values, expected.values);
}

inline std::string segmented_case_name(const segmented_options& opt, const segment_layout& layout) {
  return std::string(opt.descending ? "descending" : "ascending") + (opt.pairs ? ", pairs" : ", keys") +
         (opt.in_place ? ", in place" : "") + (layout.contiguous ? ", one offsets array" : ", gaps") + ", bits [" +
         std::to_string(opt.begin_bit) + ", " + std::to_string(opt.end_bit) + "), " +
         std::to_string(layout.begins.size()) + " segments, " + std::to_string(layout.num_items) + " items";
}

}  // namespace upsweep::test
