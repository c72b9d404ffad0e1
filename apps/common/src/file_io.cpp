// Threaded reads and writes of large binary ranges (file_io.hpp).
#include <upsweep/apps/file_io.hpp>

#include <upsweep/apps/read_numbers.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <new>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace upsweep::apps {
namespace {

// The work unit and the progress step: about 64 pieces a file, from 1 to 64 MB each.
std::size_t piece_size(std::size_t bytes) {
  return std::min(std::size_t{64} << 20, std::max(std::size_t{1} << 20, bytes / 64));
}

// Runs io(offset, pointer, count) over `bytes` in pieces, on up to 8 threads; the first error
// (errno) wins and stops the others at their next piece.
template <class Io>
int for_pieces(std::size_t bytes, const std::function<void(std::int64_t, std::int64_t)>& progress, Io io) {
  const std::size_t piece_bytes = piece_size(bytes);
  const std::size_t pieces = (bytes + piece_bytes - 1) / piece_bytes;
  const unsigned threads = static_cast<unsigned>(std::min<std::size_t>(
      pieces, std::max(1u, std::min(8u, std::thread::hardware_concurrency()))));
  std::atomic<std::size_t> next{0}, done{0};
  std::atomic<int> error{0};
  std::mutex report;
  auto work = [&] {
    for (std::size_t p; (p = next++) < pieces && error == 0;) {
      const std::size_t first = p * piece_bytes, count = std::min(piece_bytes, bytes - first);
      const int e = io(first, count);
      if (e != 0) {
        error = e;
        return;
      }
      const std::size_t total = done += count;
      if (progress) {
        std::lock_guard<std::mutex> lock(report);
        progress(static_cast<std::int64_t>(total), static_cast<std::int64_t>(bytes));
      }
    }
  };
  std::vector<std::thread> helpers;
  for (unsigned t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
  for (std::thread& helper : helpers) helper.join();
  return error;
}

}  // namespace

int create_temp_beside(const std::string& path, std::string& temp) {
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  temp = dir + "." + base + ".tmp.XXXXXX";
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) throw input_error(path, std::strerror(errno));
  return fd;
}

void publish_temp(const std::string& temp, const std::string& path) {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::chmod(temp.c_str(), 0666 & ~mask);
  if (std::rename(temp.c_str(), path.c_str()) != 0) throw input_error(path, std::strerror(errno));
}

namespace {

// call(done) moves from byte `done` on until `bytes` have moved: 0, or the errno (EIO for an
// early end of file).
template <class Call>
int move_whole(Call call, std::size_t bytes) {
  for (std::size_t done = 0; done < bytes;) {
    const ssize_t moved = call(done);
    if (moved < 0 && errno == EINTR) continue;
    if (moved < 0) return errno;
    if (moved == 0) return EIO;
    done += static_cast<std::size_t>(moved);
  }
  return 0;
}

}  // namespace

int pread_all(int fd, void* to, std::size_t bytes, std::uint64_t offset) {
  char* out = static_cast<char*>(to);
  return move_whole([&](std::size_t done) { return ::pread(fd, out + done, bytes - done, static_cast<off_t>(offset + done)); },
                    bytes);
}

int pwrite_all(int fd, const void* from, std::size_t bytes, std::uint64_t offset) {
  const char* in = static_cast<const char*>(from);
  return move_whole([&](std::size_t done) { return ::pwrite(fd, in + done, bytes - done, static_cast<off_t>(offset + done)); },
                    bytes);
}

void read_file_range(int fd, const std::string& name, std::uint64_t offset, void* to, std::size_t bytes,
                     const std::function<void(std::int64_t, std::int64_t)>& progress) {
  char* out = static_cast<char*>(to);
  const int error = for_pieces(bytes, progress, [&](std::size_t first, std::size_t count) {
    return pread_all(fd, out + first, count, offset + first);
  });
  if (error != 0) throw input_error(name, std::strerror(error));
}

// The blocks reserved first, where the file system can (4 GiB from memory into the page cache on
// the H100 machine's ext4: 0.79 s after fallocate, 1.0 s into a sparse file, 8 threads either way).
temp_output::temp_output(const std::string& path, std::size_t bytes) : path_(path) {
  fd_ = create_temp_beside(path, temp_);
  int error = 0;
  if (bytes > 0 && ::fallocate(fd_, 0, 0, static_cast<off_t>(bytes)) != 0)
    error = ::ftruncate(fd_, static_cast<off_t>(bytes)) == 0 ? 0 : errno;
  if (error != 0) {
    ::close(fd_);
    ::unlink(temp_.c_str());
    throw input_error(path, std::strerror(error));
  }
}

temp_output::~temp_output() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

void temp_output::publish() {
  const int closed = ::close(fd_);
  fd_ = -1;
  if (closed != 0) throw input_error(path_, std::strerror(errno));
  publish_temp(temp_, path_);
  temp_.clear();
}

void write_file_bytes_atomically(const std::string& path, const void* from, std::size_t bytes,
                                 const std::function<void(std::int64_t, std::int64_t)>& progress) {
  temp_output out(path, bytes);
  const char* in = static_cast<const char*>(from);
  const int error = for_pieces(bytes, progress, [&](std::size_t first, std::size_t count) {
    return pwrite_all(out.fd(), in + first, count, first);
  });
  if (error != 0) throw input_error(path, std::strerror(error));
  out.publish();
}

}  // namespace upsweep::apps

namespace upsweep::apps {

raw_memory::raw_memory(std::size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  data_ = p;
  // Huge pages where the kernel has them: a 4 GiB output first touched 2 MiB at a time, not in a
  // million 4 KiB faults. Only advice: without them the memory works the same.
  static_cast<void>(::madvise(p, bytes, MADV_HUGEPAGE));
}

raw_memory::~raw_memory() {
  if (data_ != nullptr) ::munmap(data_, bytes_);
}

}  // namespace upsweep::apps
