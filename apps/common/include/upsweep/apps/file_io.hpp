// Large binary reads and writes by several threads (pread/pwrite of disjoint ranges): one thread
// copies from the page cache at a few GB/s, well below what a file sort needs. Host C++ only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace upsweep::apps {

// A new temporary file beside `path` (mkstemp, named .BASE.tmp.XXXXXX): its descriptor; `temp`
// gets its name. Throws input_error naming `path`.
int create_temp_beside(const std::string& path, std::string& temp);

// Gives the temporary file the usual permissions (0666 less the umask; mkstemp made it 0600) and
// renames it over `path`. Throws input_error naming `path`.
void publish_temp(const std::string& temp, const std::string& path);

// Reads bytes [offset, offset + bytes) of the open file `fd` into `to`; `name` for errors
// (input_error naming the file and errno). `progress(done, total)` after each piece.
void read_file_range(int fd, const std::string& name, std::uint64_t offset, void* to, std::size_t bytes,
                     const std::function<void(std::int64_t, std::int64_t)>& progress = {});

// Writes `bytes` from `from` to `path` through a temporary file renamed when complete (nothing is
// left half-written on failure).
void write_file_bytes_atomically(const std::string& path, const void* from, std::size_t bytes,
                                 const std::function<void(std::int64_t, std::int64_t)>& progress = {});

}  // namespace upsweep::apps

namespace upsweep::apps {

// An existing file mapped read-only, its pages mapped up front (MAP_POPULATE: from the page cache
// in one call, not a fault a page). The sort of a binary file reads its keys from here, with no
// copy into a buffer of the tool's.
class mapped_file {
 public:
  static mapped_file open_read(const std::string& path);
  mapped_file(mapped_file&& other) noexcept;
  mapped_file& operator=(mapped_file&&) = delete;
  mapped_file(const mapped_file&) = delete;
  ~mapped_file();
  const void* data() const { return data_; }
  std::size_t size() const { return bytes_; }

 private:
  mapped_file() = default;
  int fd_ = -1;
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// Anonymous memory, not cleared (std::vector would zero it on one thread first): its pages are
// first touched by whoever writes them, the sort's staging threads.
class raw_memory {
 public:
  explicit raw_memory(std::size_t bytes);  // throws std::bad_alloc
  raw_memory(const raw_memory&) = delete;
  raw_memory& operator=(const raw_memory&) = delete;
  ~raw_memory();
  void* data() const { return data_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace upsweep::apps
