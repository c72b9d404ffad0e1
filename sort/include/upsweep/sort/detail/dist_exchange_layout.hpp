// Sort across ranks, where the exchange's pieces leave from and land (host only, no CUDA calls).
// Each round sends rank q's items of bucket range c to rank t. Two rules from NCCL on 4 H200s
// (NCCL 2.28.9, 2026-11-26):
//  - a piece leaves from an aligned item (its 128-byte boundary) at or before its first item, and
//    lands on an aligned slot: pieces off 16 bytes moved 2.7x slower;
//  - the pieces of one round have equal lengths where that fits: an all-to-all whose pieces differ
//    by 0.1 % around 128 or 256 MB a peer took 1.3x to 1.4x as long as one of equal pieces (NCCL
//    likely gives a piece just over such a size twice the channels of one just under it). A padded
//    piece reaches past its items into the slice around it; it may end up to `align` items past
//    the slice, so the sender's slice is followed by `align` initialised items.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace upsweep::detail {

// Items a rank's receive buffer holds for `capacity` items of output and `buckets` pieces: each
// piece's lead and rounding (2 align), and room for padding (a sixteenth of the capacity).
inline std::int64_t dist_receive_slots(std::int64_t capacity, std::int64_t buckets, std::int64_t align) {
  return capacity + capacity / 16 + buckets * 2 * align;
}

class dist_exchange_layout {
 public:
  struct piece {
    std::int64_t sent_first = 0, sent = 0;  // the items the sender sends (from an aligned item)
    std::int64_t first = 0, items = 0;      // its own items among them, in the sender's slice
    std::int64_t slot = 0;                  // where the sent items land in the receiver's buffer
  };

  dist_exchange_layout() = default;
  // bucket_first(q, b): bucket b's first item in rank q's sorted slice (b = buckets: the slice's
  // length); slots[t]: rank t's receive buffer in items. The round of bucket b is b % splits /
  // (splits / rounds). Every rank computes the same layout.
  template <class BucketFirst>
  dist_exchange_layout(int ranks, int splits, int rounds, std::int64_t align, BucketFirst bucket_first,
                       const std::vector<std::int64_t>& slots)
      : ranks_(ranks), rounds_(rounds), pieces_(static_cast<std::size_t>(ranks) * ranks * rounds) {
    const int per_round = splits / rounds;
    for (int c = 0; c < rounds; ++c)
      for (int q = 0; q < ranks; ++q)
        for (int t = 0; t < ranks; ++t) {
          piece& p = at(q, t, c);
          p.first = bucket_first(q, t * splits + c * per_round);
          p.items = bucket_first(q, t * splits + (c + 1) * per_round) - p.first;
          p.sent_first = p.first - p.first % align;
          p.sent = p.items > 0 ? p.items + p.first % align : 0;
        }
    std::vector<std::int64_t> length(static_cast<std::size_t>(ranks));
    for (int q = 0; q < ranks; ++q) length[q] = bucket_first(q, ranks * splits);
    place(align, length, slots);
  }

  const piece& of(int from, int to, int round) const { return pieces_[index(from, to, round)]; }
  // The length every piece of `round` was padded to, or 0.
  std::int64_t padded(int round) const { return padded_[static_cast<std::size_t>(round)]; }

 private:
  std::size_t index(int from, int to, int round) const {
    return (static_cast<std::size_t>(round) * ranks_ + from) * ranks_ + to;
  }
  piece& at(int from, int to, int round) { return pieces_[index(from, to, round)]; }

  static std::int64_t round_up(std::int64_t x, std::int64_t a) { return (x + a - 1) / a * a; }

  // Each rank's slots used by rounds c.. without padding.
  std::vector<std::int64_t> unpadded_from(int c, std::int64_t align) const {
    std::vector<std::int64_t> used(static_cast<std::size_t>(ranks_));
    for (int k = c; k < rounds_; ++k)
      for (int q = 0; q < ranks_; ++q)
        for (int t = 0; t < ranks_; ++t) used[t] += round_up(of(q, t, k).sent, align);
    return used;
  }

  // Round by round: pad to the round's longest piece when every sender's slice (plus the align
  // initialised items after it) holds it and every receiver keeps room for the rounds after.
  void place(std::int64_t align, const std::vector<std::int64_t>& length, const std::vector<std::int64_t>& slots) {
    std::vector<std::int64_t> next(static_cast<std::size_t>(ranks_), 0);
    padded_.assign(static_cast<std::size_t>(rounds_), 0);
    for (int c = 0; c < rounds_; ++c) {
      std::int64_t longest = 0;
      for (int q = 0; q < ranks_; ++q)
        for (int t = 0; t < ranks_; ++t) longest = std::max(longest, of(q, t, c).sent);
      bool fits = longest > 0;
      for (int q = 0; q < ranks_; ++q) fits = fits && longest <= length[q] + align;
      const std::vector<std::int64_t> after = unpadded_from(c + 1, align);
      for (int t = 0; t < ranks_; ++t) fits = fits && next[t] + ranks_ * round_up(longest, align) + after[t] <= slots[t];
      if (fits) padded_[c] = longest;
      for (int t = 0; t < ranks_; ++t)
        for (int q = 0; q < ranks_; ++q) {
          piece& p = at(q, t, c);
          if (fits) {  // shifted back where the padding would pass the slice's initialised end
            p.sent_first = std::min(p.sent_first, (length[q] + align - longest) / align * align);
            p.sent = longest;
          }
          p.slot = next[t];
          next[t] += round_up(p.sent, align);
        }
    }
  }

  int ranks_ = 0, rounds_ = 0;
  std::vector<piece> pieces_;
  std::vector<std::int64_t> padded_;
};

}  // namespace upsweep::detail
