// Writing the tools' outputs in the same formats as the inputs. A file is written to a temporary
// file in the target's directory and renamed over the target only when complete, so a failure
// leaves nothing behind; `-` writes to stdout.
#pragma once

#include <upsweep/apps/numbers.hpp>
#include <upsweep/apps/read_numbers.hpp>

#include <cstdio>
#include <functional>
#include <string>

namespace upsweep::apps {

// Calls body(file) on a temporary file next to `path`, then renames it to `path`. If body throws
// or any write fails, the temporary file is removed and an input_error (or body's exception)
// propagates.
void write_file_atomically(const std::string& path, const std::function<void(std::FILE*)>& body);

// `column_name` is the CSV header (ignored by other formats).
void write_numbers(const std::string& path, const number_array& data, file_format format,
                   const std::string& column_name = "value");

// The bytes write_numbers would write, for tests and stdout.
std::string format_numbers(const number_array& data, file_format format, const std::string& column_name = "value");

}  // namespace upsweep::apps
