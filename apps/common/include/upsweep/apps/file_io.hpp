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

// A file mapped into memory: an existing one read-only, or a new one of `bytes` that replaces
// `path` on commit() (written under a temporary name, removed if never committed). The sort of a
// binary file to a binary file reads and writes the page cache through these, with no copy into
// a buffer of the tool's own.
class mapped_file {
 public:
  static mapped_file open_read(const std::string& path);
  static mapped_file create(const std::string& path, std::size_t bytes);
  mapped_file(mapped_file&& other) noexcept;
  mapped_file& operator=(mapped_file&&) = delete;
  mapped_file(const mapped_file&) = delete;
  ~mapped_file();
  void* data() const { return data_; }
  std::size_t size() const { return bytes_; }
  void commit();  // unmap, close, rename over the final path; throws input_error

 private:
  mapped_file() = default;
  void release() noexcept;
  std::string path_, temp_;  // temp_ empty: read-only
  int fd_ = -1;
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace upsweep::apps
