// A one-line progress bar on stderr for reading and writing large files. Drawn only when stderr
// is a terminal and the work has taken over a second; at most about 10 times a second.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace upsweep::apps {

class progress_bar {
 public:
  // `items`: done and total count items ("12.0 M items"), not bytes ("1.2 GB").
  progress_bar(std::string label, bool enabled, bool items = false);
  ~progress_bar();  // ends the line if anything was drawn
  void update(std::int64_t done, std::int64_t total);
  static bool stderr_is_terminal();

 private:
  std::string label_;
  bool enabled_;
  bool items_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace upsweep::apps
