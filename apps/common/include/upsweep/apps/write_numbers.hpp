// Writing the tools' outputs in the same formats as the inputs. A file is written to a temporary
// file in the target's directory and renamed over the target only when complete, so a failure
// leaves nothing behind; `-` writes to stdout.
#pragma once

#include <upsweep/apps/numbers.hpp>
#include <upsweep/apps/read_numbers.hpp>

#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

namespace upsweep::apps {

// Calls body(file) on a temporary file next to `path`, then renames it to `path`. If body throws
// or any write fails, the temporary file is removed and an input_error (or body's exception)
// propagates.
void write_file_atomically(const std::string& path, const std::function<void(std::FILE*)>& body);

// Items written so far, and the total: for a progress bar.
using progress_fn = std::function<void(std::int64_t done, std::int64_t total)>;

// `column_name` is the CSV header (ignored by other formats).
void write_numbers(const std::string& path, const number_array& data, file_format format,
                   const std::string& column_name = "value", const progress_fn& progress = {});

// upsweep-sort --pairs, keys with their input indices. CSV: a `key_name,index` header, then one
// `key,index` row an item; text: `key index` a line; binary and .npy: two files, the keys at
// `path` and the indices as u64 at index_path(path) ("sorted.npy" -> "sorted.index.npy").
void write_pairs(const std::string& path, const number_array& keys, const number_array& indices, file_format format,
                 const std::string& key_name = "key", const progress_fn& progress = {});
std::string index_path(const std::string& path);
std::string format_pairs(const number_array& keys, const number_array& indices, file_format format,
                         const std::string& key_name = "key", const progress_fn& progress = {});

// upsweep-sort --pairs on a CSV: the header line, then row order[i] of the input for i = 0..n-1
// (`bytes` is the input's content, `layout` where its rows lie).
void write_csv_rows(const std::string& path, std::string_view bytes, const csv_layout& layout, const number_array& order,
                    const progress_fn& progress = {});

// The bytes write_numbers would write, for tests and stdout.
std::string format_numbers(const number_array& data, file_format format, const std::string& column_name = "value");

}  // namespace upsweep::apps
