// The progress bar: `\r[#####.....] 42% 1.2 GB/4.0 GB 850 MB/s` on a terminal's stderr.
#include <upsweep/apps/progress.hpp>

#include <cstdio>
#include <unistd.h>

namespace upsweep::apps {

progress_bar::progress_bar(std::string label, bool enabled, bool items)
    : label_(std::move(label)), enabled_(enabled && stderr_is_terminal()), items_(items),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

progress_bar::~progress_bar() {
  if (drawn_) std::fputc('\n', stderr);
}

bool progress_bar::stderr_is_terminal() { return ::isatty(::fileno(stderr)) != 0; }

void progress_bar::update(std::int64_t done, std::int64_t total) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  const bool finished = total >= 0 && done >= total;
  if (elapsed < 1.0 || (!finished && now - last_ < std::chrono::milliseconds(100))) return;
  last_ = now;
  drawn_ = true;
  const double gb = items_ ? 1e6 : 1e9;  // "GB", or millions of items
  const char* big = items_ ? "M items" : "GB";
  const char* per_second = items_ ? "M items/s" : "MB/s";
  const double rate = static_cast<double>(done) / elapsed / 1e6;
  if (total > 0) {
    const int width = 30;
    const int filled = static_cast<int>(static_cast<double>(done) / static_cast<double>(total) * width);
    char bar[width + 1];
    for (int i = 0; i < width; ++i) bar[i] = i < filled ? '#' : '.';
    bar[width] = '\0';
    std::fprintf(stderr, "\r%s [%s] %3d%% %.1f %s/%.1f %s %.0f %s", label_.c_str(), bar,
                 static_cast<int>(100.0 * static_cast<double>(done) / static_cast<double>(total)),
                 static_cast<double>(done) / gb, big, static_cast<double>(total) / gb, big, rate, per_second);
  } else {
    std::fprintf(stderr, "\r%s %.1f %s %.0f %s", label_.c_str(), static_cast<double>(done) / gb, big, rate, per_second);
  }
  std::fflush(stderr);
}

}  // namespace upsweep::apps
