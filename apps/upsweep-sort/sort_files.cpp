// upsweep-sort's file-to-file sort: a binary file of keys through Upsweep's host streams into a
// temporary file published by rename (sort_gpu.hpp's sort_binary_file).
#include "sort_gpu_sorter.hpp"

#include <upsweep/apps/file_io.hpp>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace upsweep::apps {

sort_report sort_binary_file(const std::string& in_path, const std::string& out_path, element_type type,
                             const sort_job& job, file_sort_times& times) {
  auto t = std::chrono::steady_clock::now();
  const int in_fd = ::open(in_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (in_fd < 0) throw input_error(in_path, std::strerror(errno));
  struct closer {
    int fd;
    ~closer() { ::close(fd); }
  } close_input{in_fd};
  struct stat info {};
  if (::fstat(in_fd, &info) != 0) throw input_error(in_path, std::strerror(errno));
  if (!S_ISREG(info.st_mode)) throw input_error(in_path, "not a regular file");
  const auto bytes = static_cast<std::size_t>(info.st_size);
  const std::size_t size = type_size(type);
  if (bytes % size != 0)
    throw input_error(in_path, "size " + std::to_string(bytes) + " bytes is not a multiple of " +
                                   std::to_string(size) + " (" + type_name(type) + ")");
  times.items = static_cast<std::int64_t>(bytes / size);
  temp_output out(out_path, bytes);
  times.open_ms = ms_since(t);
  sort_report r;
  if (times.items > 0)
    r = with_element_type(type, [&](auto key) { return sorter<decltype(key), no_index>(job, times.items).run_files(in_fd, out.fd()); });
  t = std::chrono::steady_clock::now();
  out.publish();
  times.publish_ms = ms_since(t);
  return r;
}

}  // namespace upsweep::apps
