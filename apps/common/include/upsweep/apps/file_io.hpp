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

// Positional I/O of a whole range on an open descriptor, retried until done: 0, or the errno (EIO
// for an early end of file). Safe from several threads on disjoint ranges.
int pread_all(int fd, void* to, std::size_t bytes, std::uint64_t offset);
int pwrite_all(int fd, const void* from, std::size_t bytes, std::uint64_t offset);

// A file of `bytes` bytes written in place and renamed over `path` only when complete: a temporary
// file beside it (create_temp_beside) with its blocks reserved, removed unless publish() ran.
class temp_output {
 public:
  temp_output(const std::string& path, std::size_t bytes);  // throws input_error naming `path`
  temp_output(const temp_output&) = delete;
  temp_output& operator=(const temp_output&) = delete;
  ~temp_output();
  int fd() const { return fd_; }
  // Closes the file and renames it over the path; throws input_error (and removes it) on failure.
  void publish();

 private:
  std::string path_, temp_;
  int fd_ = -1;
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
