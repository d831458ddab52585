// roofline marker API (C++): RAII scopes over the C API in roofline.h.
//
//   roofline::Region r("solve");          // begin now, end at scope exit
//   ROOFLINE_SCOPE("assemble");           // same, with a hidden variable name
//
// Near-zero cost when the program is not run under `roofline measure`.
#ifndef ROOFLINE_ROOFLINE_HPP
#define ROOFLINE_ROOFLINE_HPP

#include <string>

#include "roofline.h"

namespace roofline {

inline void init() noexcept { roofline_init(); }
inline void finalize() noexcept { roofline_finalize(); }
inline bool active() noexcept { return roofline_active() != 0; }
inline void begin(const char* name) noexcept { roofline_begin(name); }
inline void end(const char* name) noexcept { roofline_end(name); }

// One region from construction to destruction. Not copyable or movable, so the
// name it passes to end() is the one it passed to begin().
class Region {
public:
    explicit Region(const char* name) noexcept : name_(name) { roofline_begin(name_); }
    // Keeps its own copy, so a temporary string is fine.
    explicit Region(const std::string& name) : owned_(name), name_(owned_.c_str()) {
        roofline_begin(name_);
    }
    ~Region() { roofline_end(name_); }
    Region(const Region&) = delete;
    Region& operator=(const Region&) = delete;
    Region(Region&&) = delete;
    Region& operator=(Region&&) = delete;

private:
    std::string owned_;
    const char* name_;
};

// roofline_init() now, roofline_finalize() at scope exit (e.g. in main).
class Session {
public:
    Session() noexcept { roofline_init(); }
    ~Session() { roofline_finalize(); }
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;
};

}  // namespace roofline

#define ROOFLINE_DETAIL_CONCAT2(a, b) a##b
#define ROOFLINE_DETAIL_CONCAT(a, b) ROOFLINE_DETAIL_CONCAT2(a, b)
#define ROOFLINE_SCOPE(name) \
    ::roofline::Region ROOFLINE_DETAIL_CONCAT(roofline_scope_, __LINE__)(name)

#endif
