// Generated inputs for the tools (`--generate N --dist D --seed S`): deterministic for a seed,
// the same on every machine (a splitmix64 stream, no std:: distributions).
#pragma once

#include <upsweep/apps/numbers.hpp>

#include <cstdint>
#include <string_view>

namespace upsweep::apps {

enum class distribution { uniform, normal, sorted, reverse, few_unique, zipf, all_equal };

const char* distribution_name(distribution d);
distribution parse_distribution(std::string_view name);  // throws std::invalid_argument

// "1000", "10k", "4M", "1G" (powers of 1000) and "64Ki", "256Mi", "1Gi" (powers of 1024).
// Throws std::invalid_argument for anything else, for negative values and on overflow.
std::int64_t parse_count(std::string_view text);

// uniform: integers over the whole range of the type, floats in [-1, 1); normal: floats N(0, 1),
// integers centred in their range with a spread of an eighth of it; sorted/reverse: uniform, then
// sorted ascending/descending; few-unique: 16 distinct uniform values; zipf: P(k) ~ 1/(k+1) over
// [0, min(max, 2^20)); all-equal: one uniform value repeated.
number_array generate_numbers(element_type type, std::int64_t n, distribution dist, std::uint64_t seed);

}  // namespace upsweep::apps
