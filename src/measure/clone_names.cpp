#include "measure/clone_names.hpp"

#include "measure/process_code.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <string_view>

namespace roofline::measure {
namespace {

// The suffixes GCC gives clones (gcc/cgraphclones.cc clone_function_name: NAME.SUFFIX.N; the
// hot/cold split's `.cold`, gcc/bb-reorder.cc), as `.constprop` / `.constprop.0`.
constexpr std::string_view kCloneKinds[] = {"constprop", "isra", "part", "cold", "lto_priv", "localalias"};

// The length of `name` without one trailing `.KIND` or `.KIND.N`; npos when it has none.
std::size_t strip_one(std::string_view name) {
    std::string_view rest = name;
    // `.N`
    std::size_t digits = 0;
    while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[rest.size() - 1 - digits]))) ++digits;
    if (digits > 0 && digits < rest.size() && rest[rest.size() - 1 - digits] == '.') rest.remove_suffix(digits + 1);
    for (const auto kind : kCloneKinds) {
        if (rest.size() > kind.size() + 1 && rest.ends_with(kind) && rest[rest.size() - kind.size() - 1] == '.')
            return rest.size() - kind.size() - 1;
    }
    return std::string_view::npos;
}

} // namespace

std::string clone_origin(const std::string& name) {
    std::string out = name;
    for (;;) {
        // Demangled C++: "foo(int) [clone .constprop.0] [clone .cold]".
        constexpr std::string_view clone = " [clone .";
        if (out.ends_with("]")) {
            const auto at = out.rfind(clone);
            if (at != std::string::npos && at > 0) {
                const std::string inner = "x." + out.substr(at + clone.size(), out.size() - 1 - at - clone.size());
                if (strip_one(inner) == 1) {
                    out.resize(at);
                    continue;
                }
            }
        }
        const auto keep = strip_one(out);
        if (keep == std::string_view::npos || keep == 0) return out;
        out.resize(keep);
    }
}

std::map<std::string, CloneMatch> match_clones(const std::vector<std::string>& counted,
                                               const std::vector<std::string>& timed) {
    const std::set<std::string> timed_names(timed.begin(), timed.end());
    std::set<std::string> claimed;
    std::map<std::string, CloneMatch> out;
    std::map<std::string, std::vector<std::string>> waiting;  // origin -> counted names not found by name
    for (const auto& c : counted) {
        if (timed_names.count(c)) {
            out[c].timed = c;
            claimed.insert(c);
        } else {
            out[c];
            waiting[clone_origin(c)].push_back(c);
        }
    }
    // A `.cold` part beside the function it was split from is that function's code, not a function.
    const auto split_part = [&](const std::string& t) {
        for (const std::string_view cold : {".cold", " [clone .cold]"})
            if (t.ends_with(cold) && timed_names.count(t.substr(0, t.size() - cold.size()))) return true;
        return false;
    };
    std::map<std::string, std::vector<std::string>> candidates;  // origin -> timed names free to take
    for (const auto& t : timed_names)
        if (!claimed.count(t) && !split_part(t)) {
            const auto origin = clone_origin(t);
            if (waiting.count(origin)) candidates[origin].push_back(t);
        }
    for (const auto& [origin, names] : waiting) {
        const auto& free = candidates[origin];
        for (const auto& c : names) {
            auto& m = out[c];
            if (names.size() == 1 && free.size() == 1) {
                m.timed = free.front();
                m.by_origin = true;
            } else {
                m.candidates = free;
            }
        }
    }
    return out;
}

std::vector<std::string> use_counted_build_names(const std::vector<RegionCounts>& tool_functions,
                                                 const std::string& counted_file, const std::string& timed_file,
                                                 SamplingResult& sampling) {
    const auto counted_path = canonical_file(counted_file), timed_path = canonical_file(timed_file);
    std::vector<std::string> counted, timed;
    for (const auto& f : tool_functions)
        if (!f.object.empty() && canonical_file(f.object) == counted_path) counted.push_back(f.name);
    for (const auto& [name, t] : sampling.functions)
        if (!t.file.empty() && canonical_file(t.file) == timed_path) timed.push_back(name);
    std::map<std::string, std::string> renamed;  // the timed build's name -> the counted build's
    std::vector<std::string> notes;
    for (const auto& [name, m] : match_clones(counted, timed)) {
        if (m.by_origin) {
            renamed[m.timed] = name;
            notes.push_back(fmt::format("{}: its time is that of {} in {}, the only function there of the same origin "
                                        "(GCC names a clone after its origin: .constprop, .isra, .part, .cold)",
                                        name, m.timed, std::filesystem::path(timed_file).filename().string()));
        } else if (m.timed.empty() && !m.candidates.empty()) {
            notes.push_back(fmt::format("{}: not a function of {} by that name, and of those there of the same origin "
                                        "({}: GCC's clones) none is its alone, so none is taken for it: it has no time",
                                        name, std::filesystem::path(timed_file).filename().string(),
                                        fmt::join(m.candidates, ", ")));
        }
    }
    if (renamed.empty()) return notes;
    const auto in_timed = [&](const std::string& file) { return !file.empty() && canonical_file(file) == timed_path; };
    std::map<std::string, FunctionTime> functions;
    for (auto& [name, t] : sampling.functions) {
        const auto r = renamed.find(name);
        auto& to = functions[r != renamed.end() && in_timed(t.file) ? r->second : name];
        to.samples += t.samples;
        to.seconds += t.seconds;
        if (to.file.empty()) to.file = t.file;
    }
    sampling.functions = std::move(functions);
    for (std::size_t i = 0; i < sampling.stack_functions.size() && i < sampling.stack_function_files.size(); ++i)
        if (const auto r = renamed.find(sampling.stack_functions[i]);
            r != renamed.end() && in_timed(sampling.stack_function_files[i]))
            sampling.stack_functions[i] = r->second;
    return notes;
}

} // namespace roofline::measure
