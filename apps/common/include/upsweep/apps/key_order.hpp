// The radix-sort key order on the host, written apart from sort/'s radix_traits so that the tool's
// checks and the tests' CPU reference do not share the code they check. It is CUB's order:
// integers numerically; floats with -0.0 equal to +0.0 and NaNs by bit pattern (+NaN after +inf,
// -NaN before -inf). A bit window [begin_bit, end_bit) sorts by those bits of the ordered key
// only; descending reverses the order. Equal keys keep their input order in every mode.
#pragma once

#include <upsweep/apps/numbers.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace upsweep::apps {

struct sort_order {
  int begin_bit = 0;
  int end_bit = -1;  // -1: every bit of the key
  bool descending = false;
};

int key_bits(element_type type);

// The stable sorted order of `keys`: result[i] is the input index of the i-th output item.
std::vector<std::uint64_t> reference_order(const number_array& keys, const sort_order& order);

// out[i] = keys[order[i]].
number_array gather(const number_array& keys, const std::vector<std::uint64_t>& order);

// Checks of a sort's result. Each returns an empty string when the property holds, else what is
// wrong (with the first offending output index).
std::string check_sorted(const number_array& out, const sort_order& order);
// out holds the same keys, bit for bit, as `in`: an order-independent checksum of both.
std::string check_permutation(const number_array& in, const number_array& out);
// `indices` (u32 or u64) is a permutation of 0..n-1, out[i] is in[indices[i]] bit for bit, and
// equal keys (in the window) keep their input order.
std::string check_pairs(const number_array& in, const number_array& out, const number_array& indices,
                        const sort_order& order);

}  // namespace upsweep::apps
