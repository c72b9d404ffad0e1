// Small helpers for the tools' reports: wall-clock phases, GiB, JSON strings. Host C++ only.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace upsweep::apps {

inline constexpr double bytes_per_gib = 1024.0 * 1024.0 * 1024.0;

inline double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// `s` as a JSON string literal, quotes included.
inline std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", static_cast<unsigned>(c));
      out += escape;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace upsweep::apps
