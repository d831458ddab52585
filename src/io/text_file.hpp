// Whole-file text I/O with clear errors. Writes are atomic (temporary file in
// the same directory + rename) so an interrupted run never leaves half a file.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace roofline {

// Replaces `path` with `content`. Throws std::runtime_error naming the path
// and the system error on failure; the original file is then left untouched.
void write_text_file_atomic(const std::string& path, const std::string& content);

// Reads a whole file. Throws std::runtime_error naming the path when it cannot.
std::string read_text_file(const std::string& path);

// The whole file (bytes as they are), or nullopt when it cannot be read.
std::optional<std::string> read_file_if_exists(const std::string& path);

// The regular files in `dir` whose names end in `extension` (".txt"), sorted;
// empty when the directory cannot be read.
std::vector<std::string> files_in(const std::string& dir, const std::string& extension);

// Fails fast (std::runtime_error) when `path` could not be written later:
// its directory is missing or not writable, or `path` is a directory.
// Probes by creating and removing a temporary file; never touches `path` itself.
void check_file_writable(const std::string& path);

} // namespace roofline
