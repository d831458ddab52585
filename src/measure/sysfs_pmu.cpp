#include "measure/sysfs_pmu.hpp"

#include "io/text_file.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <stdexcept>

namespace roofline::measure {
namespace {

namespace fs = std::filesystem;

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string::size_type start = 0;
    while (true) {
        const auto at = s.find(sep, start);
        out.push_back(trim(s.substr(start, at == std::string::npos ? std::string::npos : at - start)));
        if (at == std::string::npos) return out;
        start = at + 1;
    }
}

std::uint64_t parse_number(const std::string& text, const std::string& what) {
    std::size_t used = 0;
    std::uint64_t v = 0;
    try {
        v = std::stoull(text, &used, 0);
    } catch (const std::exception&) {
        used = 0;
    }
    if (text.empty() || used != text.size() || text[0] == '-')
        throw std::runtime_error(fmt::format("{}: '{}' is not a number", what, text));
    return v;
}

// A sysfs text file of at most a few lines.
std::string small_file(const fs::path& p) {
    const auto text = read_file_if_exists(p.string());
    if (!text) throw std::runtime_error(fmt::format("cannot read {}", p.string()));
    return trim(*text);
}

// format/<term>: "config:0-7,32-35" or "config1:3". Puts `value`'s low bits, in
// order, into those bit ranges of config, config1 or config2.
void place_term(SysfsEvent& e, const std::string& format, std::uint64_t value, const std::string& what) {
    const auto colon = format.find(':');
    if (colon == std::string::npos) throw std::runtime_error(fmt::format("{}: format '{}' has no ':'", what, format));
    const std::string field = format.substr(0, colon);
    std::uint64_t* target = field == "config" ? &e.config : field == "config1" ? &e.config1
                          : field == "config2" ? &e.config2 : nullptr;
    if (!target) throw std::runtime_error(fmt::format("{}: unknown format field '{}'", what, field));
    int used = 0;
    for (const auto& range : split(format.substr(colon + 1), ',')) {
        const auto dash = range.find('-');
        const auto lo = parse_number(range.substr(0, dash), what);
        const auto hi = dash == std::string::npos ? lo : parse_number(range.substr(dash + 1), what);
        if (hi < lo || hi > 63) throw std::runtime_error(fmt::format("{}: bad bit range '{}'", what, range));
        for (auto bit = lo; bit <= hi; ++bit, ++used)
            if (used < 64 && (value >> used) & 1u) *target |= std::uint64_t{1} << bit;
    }
    if (used < 64 && (value >> used) != 0)
        throw std::runtime_error(fmt::format("{}: value {:#x} does not fit its {} bits", what, value, used));
}

// "event=0x04,umask=0x03" (or a bare flag "edge", = 1) into an event of `dir`'s PMU.
void apply_terms(SysfsEvent& e, const fs::path& dir, const std::string& terms, const std::string& what) {
    for (const auto& term : split(terms, ',')) {
        if (term.empty()) continue;
        const auto eq = term.find('=');
        const std::string name = trim(term.substr(0, eq));
        const std::uint64_t value = eq == std::string::npos ? 1 : parse_number(trim(term.substr(eq + 1)), what);
        const auto format = dir / "format" / name;
        if (!fs::exists(format))
            throw std::runtime_error(fmt::format("{}: PMU {} has no term '{}'", what, dir.filename().string(), name));
        place_term(e, small_file(format), value, what + " " + name);
    }
}

} // namespace

std::vector<int> parse_cpu_list(const std::string& text) {
    std::vector<int> cpus;
    for (const auto& item : split(trim(text), ',')) {
        if (item.empty()) continue;
        const auto dash = item.find('-');
        const auto lo = parse_number(item.substr(0, dash), "cpu list");
        const auto hi = dash == std::string::npos ? lo : parse_number(item.substr(dash + 1), "cpu list");
        if (hi < lo || hi > 65535) throw std::runtime_error(fmt::format("cpu list: bad range '{}'", item));
        for (auto c = lo; c <= hi; ++c) cpus.push_back(static_cast<int>(c));
    }
    return cpus;
}

std::vector<SysfsEvent> resolve_sysfs_event(const std::string& spec, const std::string& root) {
    const auto slash = spec.find('/');
    if (slash == std::string::npos || spec.size() < slash + 2 || spec.back() != '/' || slash == 0)
        throw std::runtime_error(fmt::format("'{}': expected PMU/EVENT/ (as perf writes it)", spec));
    const std::string pmu = spec.substr(0, slash);
    const std::string event = spec.substr(slash + 1, spec.size() - slash - 2);
    const bool prefix = pmu.back() == '*';
    const std::string stem = prefix ? pmu.substr(0, pmu.size() - 1) : pmu;
    std::vector<fs::path> dirs;
    std::error_code ec;
    if (prefix) {
        for (const auto& d : fs::directory_iterator(root, ec))
            if (d.path().filename().string().rfind(stem, 0) == 0) dirs.push_back(d.path());
        std::sort(dirs.begin(), dirs.end());
    } else if (fs::exists(fs::path(root) / pmu, ec)) {
        dirs.push_back(fs::path(root) / pmu);
    }
    if (dirs.empty()) throw std::runtime_error(fmt::format("no PMU {} in {}", pmu, root));
    std::vector<SysfsEvent> out;
    for (const auto& dir : dirs) {
        const std::string what = fmt::format("{}/{}/", dir.filename().string(), event);
        std::string terms = event;
        if (event.find('=') == std::string::npos) {
            const auto file = dir / "events" / event;
            if (!fs::exists(file, ec)) {
                if (prefix) continue;  // an instance of another kind (uncore_imc_free_running_0)
                throw std::runtime_error(fmt::format("PMU {} has no event '{}'", pmu, event));
            }
            terms = small_file(file);
        }
        SysfsEvent e;
        e.pmu = dir.filename().string();
        e.type = static_cast<std::uint32_t>(parse_number(small_file(dir / "type"), what + " type"));
        apply_terms(e, dir, terms, what);
        const auto cpumask = read_file_if_exists((dir / "cpumask").string());
        e.cpus = cpumask ? parse_cpu_list(*cpumask) : std::vector<int>{0};
        if (e.cpus.empty()) e.cpus = {0};
        out.push_back(std::move(e));
    }
    if (out.empty())
        throw std::runtime_error(fmt::format("no {} PMU has the event '{}'", pmu, event));
    return out;
}

} // namespace roofline::measure
