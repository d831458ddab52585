// A private temporary directory under $TMPDIR (or /tmp), removed with the
// object: where measure's children write their protocol files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

class TempDir {
public:
    // `prefix` names the directory ("roofline-measure" -> /tmp/roofline-measure-XXXXXX).
    // Throws std::runtime_error when it cannot be created.
    explicit TempDir(const std::string& prefix = "roofline");
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::string& path() const { return path_; }
    std::string file(const std::string& name) const { return path_ + "/" + name; }
    // The regular files in it whose names start with `prefix`, sorted (what children wrote).
    std::vector<std::string> files_with_prefix(const std::string& prefix) const;
    // The bytes this process may still write on the directory's file system (root may use the
    // blocks kept for it); nullopt when the system does not say.
    std::optional<std::uint64_t> free_bytes() const;

private:
    std::string path_;
};

} // namespace roofline
