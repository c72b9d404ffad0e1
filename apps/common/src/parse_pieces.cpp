// Cutting text into pieces at line starts, and joining the pieces' arrays (parse_pieces.hpp).
#include "parse_pieces.hpp"

#include <algorithm>
#include <cstring>

namespace upsweep::apps::detail {

piece_plan plan_pieces(std::size_t bytes, unsigned requested) {
  constexpr std::size_t bytes_per_thread = std::size_t{4} << 20, pieces_per_thread = 4;
  std::size_t threads = requested;
  if (threads == 0) {
    const std::size_t machine = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 16);
    threads = std::clamp<std::size_t>(bytes / bytes_per_thread, 1, machine);
  }
  return {threads, threads == 1 ? 1 : threads * pieces_per_thread};
}

std::vector<std::string_view> split_at_lines(std::string_view text, std::size_t pieces) {
  std::vector<std::string_view> out;
  const std::size_t target = std::max<std::size_t>(1, text.size() / std::max<std::size_t>(pieces, 1));
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.size();
    if (out.size() + 1 < pieces && begin + target < text.size()) {
      const std::size_t newline = text.find('\n', begin + target - 1);  // the piece ends after a newline
      if (newline != std::string_view::npos) end = newline + 1;
    }
    out.push_back(text.substr(begin, end - begin));
    begin = end;
  }
  return out;
}

input_error at_line_of_whole(const input_error& e, std::string_view whole, std::string_view piece) {
  if (e.line() == 0) return e;  // an error of the whole file, not of a line
  const auto before = static_cast<std::int64_t>(std::count(whole.data(), piece.data(), '\n'));
  return input_error(e.file(), before + e.line(), e.column(), e.message());
}

number_array concatenate(std::vector<number_array>& parts, element_type type) {
  if (parts.size() == 1 && type_of(parts.front()) == type) return std::move(parts.front());
  std::size_t total = 0;
  for (const number_array& part : parts) total += static_cast<std::size_t>(size_of(part));
  number_array out = make_array(type, total);
  std::visit(
      [&](auto& all) {
        using vector_t = std::decay_t<decltype(all)>;
        std::size_t at = 0;
        for (number_array& part : parts) {
          vector_t& items = std::get<vector_t>(part);
          if (!items.empty()) std::memcpy(all.data() + at, items.data(), items.size() * sizeof(items[0]));
          at += items.size();
          vector_t().swap(items);  // the piece's memory back as soon as it is copied
        }
      },
      out);
  return out;
}

}  // namespace upsweep::apps::detail
