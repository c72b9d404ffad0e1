// Text and CSV parsed on several threads: the bytes are cut at line starts into pieces, each piece
// is parsed on its own into its own array, and the arrays are joined in order. One thread parses
// from_chars at a few hundred MB/s, far below what the file read and the GPU take. Not installed.
#pragma once

#include <upsweep/apps/numbers.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace upsweep::apps::detail {

using progress_fn = std::function<void(std::int64_t done, std::int64_t total)>;

// How the text is cut: `threads` workers over `pieces` pieces (several a thread, so the progress
// moves and an unlucky slow piece does not hold the others back). `requested` threads, or one
// for each 4 MiB of text up to the machine's threads (16 at most).
struct piece_plan {
  std::size_t threads = 1, pieces = 1;
};
piece_plan plan_pieces(std::size_t bytes, unsigned requested);

// At most `pieces` consecutive non-empty pieces of `text`, each starting at a line start; joined
// they are `text`. Fewer when the text has fewer lines.
std::vector<std::string_view> split_at_lines(std::string_view text, std::size_t pieces);

// An input_error of a piece (lines counted from 1 at the piece's start) with its line counted
// from the start of `whole` instead.
input_error at_line_of_whole(const input_error& e, std::string_view whole, std::string_view piece);

// Runs parse(piece) for every piece on `threads` threads; the results in piece order. When pieces
// fail, the first in file order wins, as on one thread (an input_error gets its line in `whole`).
// `progress(bytes parsed, total)` as pieces finish.
template <class Result, class Parse>
std::vector<Result> parse_pieces(std::string_view whole, const std::vector<std::string_view>& pieces,
                                 std::size_t threads, const progress_fn& progress, Parse parse) {
  std::vector<Result> results(pieces.size());
  std::vector<std::exception_ptr> errors(pieces.size());
  std::atomic<std::size_t> next{0};
  std::atomic<std::int64_t> done{0};
  std::atomic<bool> failed{false};
  std::mutex report;
  auto work = [&] {
    for (std::size_t p; !failed && (p = next++) < pieces.size();) {
      try {
        results[p] = parse(pieces[p]);
      } catch (...) {
        errors[p] = std::current_exception();
        failed = true;  // later pieces stop; earlier ones already taken finish, so the first error is found
      }
      const std::int64_t total = done += static_cast<std::int64_t>(pieces[p].size());
      if (progress) {
        std::lock_guard<std::mutex> lock(report);
        progress(total, static_cast<std::int64_t>(whole.size()));
      }
    }
  };
  std::vector<std::thread> helpers;
  for (std::size_t t = 1; t < threads && t < pieces.size(); ++t) helpers.emplace_back(work);
  work();
  for (std::thread& helper : helpers) helper.join();
  for (std::size_t p = 0; p < pieces.size(); ++p) {
    if (!errors[p]) continue;
    try {
      std::rethrow_exception(errors[p]);
    } catch (const input_error& e) {
      throw at_line_of_whole(e, whole, pieces[p]);
    }
  }
  return results;
}

// The arrays, in order, as one array of `type`.
number_array concatenate(std::vector<number_array>& parts, element_type type);

}  // namespace upsweep::apps::detail
