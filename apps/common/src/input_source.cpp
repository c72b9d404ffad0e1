// Reading or generating the tools' input (input_source.hpp).
#include <upsweep/apps/input_source.hpp>

#include <upsweep/apps/file_io.hpp>
#include <upsweep/apps/generate.hpp>
#include <upsweep/apps/progress.hpp>
#include <upsweep/apps/report.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace upsweep::apps {
namespace {

// The items of a regular file of `type` items, or -1 for anything else (stdin, pipes).
std::int64_t binary_items(int fd, const std::string& path, element_type type) {
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) return -1;
  const auto bytes = static_cast<std::size_t>(info.st_size);
  const std::size_t size = type_size(type);
  if (bytes % size != 0)
    throw input_error(path, "size " + std::to_string(bytes) + " bytes is not a multiple of " + std::to_string(size) +
                                " (" + type_name(type) + ")");
  return static_cast<std::int64_t>(bytes / size);
}

// Part `part` of `parts` of a raw binary file, read straight into an array by several threads (no
// byte copy, no parse); false for what is not a regular file.
bool read_binary_items(const std::string& path, element_type type, int part, int parts,
                       number_array& data, std::int64_t& total,
                       const std::function<void(std::int64_t, std::int64_t)>& progress) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw input_error(path, std::strerror(errno));
  try {
    total = binary_items(fd, path, type);
    if (total >= 0) {
      const std::int64_t first = part_begin(total, parts, part);
      const std::size_t size = type_size(type);
      data = make_array(type, static_cast<std::size_t>(part_begin(total, parts, part + 1) - first));
      std::visit([&](auto& v) { read_file_range(fd, path, first * size, v.data(), v.size() * size, progress); }, data);
    }
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  return total >= 0;
}

// A whole raw binary file; false for what is not a regular file, which takes the general path.
bool read_binary_file(const std::string& path, element_type type, number_array& data,
                      const std::function<void(std::int64_t, std::int64_t)>& progress) {
  std::int64_t total = 0;
  return path != "-" && read_binary_items(path, type, 0, 1, data, total, progress);
}

}  // namespace

number_array read_input(const std::string& path, file_format format, const std::string& type, const std::string& column,
                        bool progress, csv_layout* layout, std::string* keep_bytes) {
  read_options ro;
  ro.format = format;
  ro.column = column;
  ro.layout = layout;
  if (!type.empty()) ro.type = parse_type_name(type);
  else if (format == file_format::text || format == file_format::csv) ro.type = element_type::f64;
  else if (format == file_format::binary)
    throw usage_error(path + ": raw binary input needs --type (u8..u64, i8..i64, f32, f64)");
  std::string bytes;
  {
    progress_bar bar("reading " + path, progress);
    const auto read_progress = [&](std::int64_t done, std::int64_t total) { bar.update(done, total); };
    number_array raw;
    if (format == file_format::binary && !keep_bytes && read_binary_file(path, *ro.type, raw, read_progress)) return raw;
    bytes = read_file_bytes(path, read_progress);
  }
  progress_bar bar("parsing " + path, progress && (format == file_format::text || format == file_format::csv));
  ro.progress = [&](std::int64_t done, std::int64_t total) { bar.update(done, total); };
  number_array data = parse_numbers(bytes, path == "-" ? "<stdin>" : path, ro);
  if (keep_bytes) *keep_bytes = std::move(bytes);
  return data;
}

number_array read_binary_part(const std::string& path, element_type type, int part, int parts, std::int64_t& total) {
  number_array data;
  if (!read_binary_items(path, type, part, parts, data, total, {}))
    throw input_error(path, "not a regular file: each rank reads its part at its offset");
  return data;
}

loaded_input load_input(const input_spec& spec, std::int64_t demo_count, bool keep_csv_rows) {
  const auto t0 = std::chrono::steady_clock::now();
  loaded_input in;
  if (!spec.path.empty()) {
    try {
      in.format = spec.format.empty() ? format_from_path(spec.path, file_format::text) : parse_format_name(spec.format);
    } catch (const std::invalid_argument& e) {
      throw usage_error(e.what());
    }
    const bool rows = keep_csv_rows && in.format == file_format::csv;
    in.data = read_input(spec.path, in.format, spec.type, spec.column, spec.progress, rows ? &in.layout : nullptr,
                         rows ? &in.bytes : nullptr);
    in.source = spec.path == "-" ? "<stdin>" : spec.path;
  } else {
    std::int64_t n = demo_count;
    element_type type = element_type::u32;
    distribution dist{};
    try {
      if (!spec.generate.empty()) n = parse_count(spec.generate);
      if (!spec.type.empty()) type = parse_type_name(spec.type);
      dist = parse_distribution(spec.dist);
    } catch (const std::invalid_argument& e) {
      throw usage_error(std::string("--generate: ") + e.what());
    }
    try {
      in.data = generate_numbers(type, n, dist, spec.seed);
    } catch (const std::bad_alloc&) {
      throw usage_error("--generate " + spec.generate + ": not enough host memory for " + std::to_string(n) + " " +
                        type_name(type) + " items");
    }
    in.generated = true;
    in.source = "generated " + spec.dist + " " + std::to_string(n) + ", seed " + std::to_string(spec.seed);
  }
  in.read_ms = ms_since(t0);
  return in;
}

file_format output_format_for(const std::string& output, const std::string& option, const loaded_input& in) {
  if (!option.empty()) {
    try {
      return parse_format_name(option);
    } catch (const std::invalid_argument& e) {
      throw usage_error(e.what());
    }
  }
  const file_format fallback = in.generated && output == "-" ? file_format::text : in.format;
  return format_from_path(output, fallback);
}

}  // namespace upsweep::apps
