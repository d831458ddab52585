// A private temporary directory under $TMPDIR (or /tmp), removed with the
// object: where measure's children write their protocol files.
#pragma once

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

private:
    std::string path_;
};

} // namespace roofline
