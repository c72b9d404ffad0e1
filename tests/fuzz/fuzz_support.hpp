// Shared by the libFuzzer targets of the tools' parsers: the element type an input's first byte
// picks, the exceptions a parser may throw on bad input (anything else escapes and is a crash),
// and a bitwise comparison of two arrays that lets NaNs match whatever their payload.
#pragma once

#include <upsweep/apps/numbers.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <variant>

namespace upsweep::fuzz {

using apps::element_type;
using apps::number_array;

inline element_type type_from_byte(std::uint8_t b) { return static_cast<element_type>(b % 10); }

// Aborts (libFuzzer reports a crash with the input) when `ok` is false.
inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz property failed: %s\n", what);
    std::abort();
  }
}

// Same length and the same bits item by item, except that any NaN matches any NaN (the text
// formats keep no payload).
inline bool same_items(const number_array& a, const number_array& b) {
  if (a.index() != b.index()) return false;
  return std::visit(
      [&](const auto& x) {
        using vec = std::decay_t<decltype(x)>;
        using T = typename vec::value_type;
        const auto& y = std::get<vec>(b);
        if (x.size() != y.size()) return false;
        for (std::size_t i = 0; i < x.size(); ++i) {
          if constexpr (std::is_floating_point_v<T>) {
            if (std::isnan(x[i]) && std::isnan(y[i])) continue;
          }
          if (std::memcmp(&x[i], &y[i], sizeof(T)) != 0) return false;
        }
        return true;
      },
      a);
}

}  // namespace upsweep::fuzz
