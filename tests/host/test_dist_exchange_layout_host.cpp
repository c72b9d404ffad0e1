// Sort across ranks, the exchange's layout: every piece leaves from an aligned item, covers its own
// items and stays within the sender's slice plus `align` items; the pieces a rank receives land on
// aligned slots, apart, within its buffer; a round is padded to equal pieces exactly when its
// longest piece fits every sender and every receiver. Fresh random bucket sizes, seed printed.
#include "../support/seed.hpp"

#include <upsweep/sort/detail/dist_exchange_layout.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using upsweep::detail::dist_exchange_layout;
using upsweep::detail::dist_receive_slots;

constexpr int splits = 4;

// Bucket sizes of every rank: `mean` items each, spread by +-`spread` (a fraction); with
// heavy_to >= 0, the buckets bound for that rank 19 times those bound for the others; with
// all_to >= 0, every item in rank 0's first bucket bound for rank `all_to`.
struct slices {
  int ranks;
  std::vector<std::vector<std::int64_t>> firsts;  // firsts[q][b], b = 0..buckets
  std::int64_t bucket_first(int q, int b) const { return firsts[q][b]; }
  std::int64_t received(int t) const {
    std::int64_t sum = 0;
    for (int q = 0; q < ranks; ++q) sum += firsts[q][(t + 1) * splits] - firsts[q][t * splits];
    return sum;
  }
};

slices make_slices(int p, std::int64_t mean, double spread, std::uint64_t seed, int all_to = -1, int heavy_to = -1) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> jitter(-spread, spread);
  slices s{p, {}};
  for (int q = 0; q < p; ++q) {
    std::vector<std::int64_t> first(1, 0);
    for (int b = 0; b < p * splits; ++b) {
      const double weight = heavy_to < 0 ? 1.0 : b / splits == heavy_to ? 1.9 : 0.1;
      std::int64_t items = static_cast<std::int64_t>(static_cast<double>(mean) * weight * (1 + jitter(random)));
      if (all_to >= 0) items = q == 0 && b == all_to * splits ? mean * p * p * splits : 0;
      first.push_back(first.back() + items);
    }
    s.firsts.push_back(first);
  }
  return s;
}

enum class padding { expected, not_expected, either };

// Every rule of the layout's contract, for capacities equal to what each rank receives.
void check_layout(const slices& s, int rounds, std::int64_t align, padding expect) {
  const int p = s.ranks;
  std::vector<std::int64_t> slots(static_cast<std::size_t>(p));
  for (int t = 0; t < p; ++t) slots[t] = dist_receive_slots(s.received(t), p * splits, align);
  const dist_exchange_layout layout(p, splits, rounds, align, [&](int q, int b) { return s.bucket_first(q, b); }, slots);
  for (int c = 0; c < rounds; ++c) {
    if (expect != padding::either) {
      EXPECT_EQ(expect == padding::expected, layout.padded(c) > 0) << "round " << c;
    }
    for (int t = 0; t < p; ++t) {
      std::vector<std::pair<std::int64_t, std::int64_t>> landed;  // slot, sent
      for (int q = 0; q < p; ++q) {
        const dist_exchange_layout::piece& piece = layout.of(q, t, c);
        SCOPED_TRACE(testing::Message() << "round " << c << ", from " << q << " to " << t);
        const std::int64_t length = s.bucket_first(q, p * splits);
        const std::int64_t per_round = splits / rounds;
        EXPECT_EQ(s.bucket_first(q, t * splits + c * per_round), piece.first);
        EXPECT_EQ(s.bucket_first(q, t * splits + (c + 1) * per_round) - piece.first, piece.items);
        EXPECT_EQ(0, piece.sent_first % align);
        EXPECT_LE(0, piece.sent_first);
        if (piece.items > 0) {
          EXPECT_LE(piece.sent_first, piece.first);
          EXPECT_GE(piece.sent_first + piece.sent, piece.first + piece.items);
        }
        EXPECT_LE(piece.sent_first + piece.sent, length + align);
        if (layout.padded(c) > 0) {
          EXPECT_EQ(layout.padded(c), piece.sent);
        }
        EXPECT_EQ(0, piece.slot % align);
        landed.emplace_back(piece.slot, piece.sent);
      }
      std::sort(landed.begin(), landed.end());
      for (std::size_t i = 0; i + 1 < landed.size(); ++i)
        EXPECT_LE(landed[i].first + landed[i].second, landed[i + 1].first) << "rank " << t << " round " << c;
      EXPECT_LE(landed.back().first + landed.back().second, slots[t]) << "rank " << t;
    }
  }
}

TEST(DistExchangeLayout, PiecesWithinAPercentArePaddedToEqualLengths) {
  const std::uint64_t seed = upsweep::test::fresh_seed();
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  for (int p : {2, 3, 4, 8})
    for (int rounds : {1, 2, 4})
      for (std::int64_t align : {1, 32, 128}) check_layout(make_slices(p, 100000, 0.01, seed + p), rounds, align, padding::expected);
}

TEST(DistExchangeLayout, OneRankHoldingEverythingIsNotPadded) {
  const std::uint64_t seed = upsweep::test::fresh_seed();
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  for (int p : {2, 4, 8})
    for (int rounds : {1, 4}) check_layout(make_slices(p, 1000, 0, seed, p - 1), rounds, 32, padding::not_expected);
}

TEST(DistExchangeLayout, PiecesBoundMostlyForOneRankFitUnpaddedInTheBuffers) {
  const std::uint64_t seed = upsweep::test::fresh_seed();
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  for (int p : {2, 4, 8})
    for (int rounds : {1, 2, 4})
      check_layout(make_slices(p, 5000, 0.05, seed + p, -1, 0), rounds, 128, padding::not_expected);
}

TEST(DistExchangeLayout, TinySlicesKeepTheirPiecesWithinTheSliceAndTheAlignedTail) {
  const std::uint64_t seed = upsweep::test::fresh_seed();
  SCOPED_TRACE(upsweep::test::seed_trace(seed));
  for (int p : {2, 5})
    for (int rounds : {1, 4}) check_layout(make_slices(p, 3, 0.7, seed + p), rounds, 128, padding::either);
}

}  // namespace
