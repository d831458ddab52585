// Whole-file text I/O with clear errors. Writes to regular files are atomic
// (temporary file in the same directory + rename) so an interrupted run never
// leaves half a file.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

// The largest input file read: every reader holds the whole file in memory,
// so /dev/zero or a runaway pipe must stop with an error, not exhaust memory.
inline constexpr std::uint64_t kMaxInputFileBytes = std::uint64_t{256} << 20;

// "-" as an output path is standard output (`-o -`): write_text_file_atomic
// writes it in place, every write checked, to the descriptor
// set_standard_output_descriptor gave (1 unless the cli moved the result off
// file descriptor 1, see cli/result_output.hpp); check_file_writable checks only
// that the descriptor is open, and same_output_file says "-" and "-" are one file.
inline constexpr const char* kStandardOutputPath = "-";
bool is_standard_output_path(const std::string& path);
void set_standard_output_descriptor(int fd);
int standard_output_descriptor();

// Replaces `path` with `content`. Throws std::runtime_error naming the path
// and the system error on failure; the original file is then left untouched.
// A replaced regular file keeps its permission bits (and, when run as root,
// its owner and group); a new file gets the usual umask-based mode.
// A symlink's target is written (the link kept); a character device or a FIFO
// is written in place (a FIFO no process reads is an error, not a wait);
// directories, block devices, sockets and SQLite databases (results stores)
// are refused.
void write_text_file_atomic(const std::string& path, const std::string& content);

// Reads a whole file: a regular file (also /proc's, which report size 0) or a
// pipe (`<(...)`), of at most `max_bytes`. Devices, directories and sockets are
// refused. Throws std::runtime_error naming the path when it cannot.
std::string read_text_file(const std::string& path, std::uint64_t max_bytes = kMaxInputFileBytes);

// The same for a file that must be a regular file (a configuration file): a
// FIFO is refused as a device is, never waited on (its open would block until
// some process writes to it).
std::string read_regular_text_file(const std::string& path, std::uint64_t max_bytes = kMaxInputFileBytes);

// The whole file (bytes as they are), or nullopt when read_text_file would fail.
std::optional<std::string> read_file_if_exists(const std::string& path,
                                               std::uint64_t max_bytes = kMaxInputFileBytes);

// The regular files in `dir` whose names end in `extension` (".txt"), sorted;
// empty when the directory cannot be read.
std::vector<std::string> files_in(const std::string& dir, const std::string& extension);

// Keeps results a failed destination could not take: calls `write(path)` for
// `file_name` in the working directory, then in the temporary directory (often
// another file system than a full disk). Returns the path that worked; throws
// std::runtime_error naming every failure when none did.
std::string write_somewhere_safe(const std::string& file_name, const std::function<void(const std::string&)>& write);

// Fails fast (std::runtime_error) when `path` could not be written later:
// its directory is missing or not writable, its file system is full (or the
// quota spent), an existing file there cannot be replaced (immutable or
// append-only, another user's in a sticky directory), a character device
// refuses writes (/dev/full), or `path` is something write_text_file_atomic
// refuses (a directory, an SQLite database ...). Probes by writing one block
// to a temporary file next to it (removed) or zero bytes to a device; never
// changes `path` itself (text_file.cpp says why each probe is as it is).
void check_file_writable(const std::string& path);

// Whether writing `a` and then `b` would write one file twice (the second
// replacing the first): the same path once normalised and its symlinks
// followed (existing or about to be created), or the same existing regular
// file under two names (a hard link, a bind mount). Character devices and
// FIFOs are written in place, where two outputs only follow each other
// (/dev/null for both is fine): never the same file here.
bool same_output_file(const std::string& a, const std::string& b);

} // namespace roofline
