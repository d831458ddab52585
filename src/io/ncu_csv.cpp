#include "io/ncu_csv.hpp"

#include "core/closest_words.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>

// The records are split here, not by a CSV library (libcsv, Debian's libcsv-dev, was weighed):
// what is particular to ncu's CSV is around the records, not in them (the program's output
// before the header, quotes and all; ==PROF== lines between records but not inside a quoted
// field; every error with its line; a stray quote refused, where libcsv's default accepts it),
// the tokenizer is the 40 lines of read_record, and a library would be a new run-time
// dependency of the .deb, the Spack recipe (which has no libcsv) and the GPU kit.

namespace roofline {
namespace {

[[noreturn]] void fail(std::size_t line, const std::string& what) {
    throw std::runtime_error(fmt::format("line {}: {}", line, what));
}

bool starts_with(std::string_view s, std::string_view head) { return s.substr(0, head.size()) == head; }
bool ends_with(std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// One RFC 4180 record from text[pos]: fields split at commas outside quotes, "" for a quote
// inside a quoted field, which may also hold commas and line breaks. Moves pos past the
// record's line break and line over the line breaks crossed. A quote inside an unquoted
// field, text after a closing quote and a quoted field not closed are refused.
std::vector<std::string> read_record(std::string_view text, std::size_t& pos, std::size_t& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;      // inside a quoted field
    bool closed = false;      // the current field was quoted and its quote closed
    std::size_t opened = 0;   // the line its quote opened on
    while (pos < text.size()) {
        const char c = text[pos++];
        if (quoted) {
            if (c != '"') {
                if (c == '\n') ++line;
                fields.back() += c;
            } else if (pos < text.size() && text[pos] == '"') {
                fields.back() += '"';
                ++pos;
            } else {
                quoted = false;
                closed = true;
            }
        } else if (c == ',') {
            fields.emplace_back();
            closed = false;
        } else if (c == '\n') {
            ++line;
            return fields;
        } else if (c == '\r' && (pos == text.size() || text[pos] == '\n')) {
            // the CR of a CRLF line end
        } else if (closed) {
            fail(line, "text after a quoted field's closing quote (a quote inside a field is written \"\")");
        } else if (c == '"') {
            if (!fields.back().empty()) fail(line, "a quote inside a field that is not quoted");
            quoted = true;
            opened = line;
        } else {
            fields.back() += c;
        }
    }
    if (quoted) fail(opened, "a quoted field opened on this line is not closed");
    return fields;
}

std::optional<std::size_t> column(const std::vector<std::string>& header, const char* name) {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) return std::nullopt;
    return static_cast<std::size_t>(it - header.begin());
}

bool all_digits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A number as ncu writes it: an optional '-' (negative values are refused with their own
// words), digits either plain or grouped in threes by ',' (its thousands separator, "370,688"),
// an optional fraction ".digits", an optional exponent "e" or "E", a sign and digits. Parsed
// without the locale (std::from_chars). Nullopt with why in `why` otherwise.
std::optional<double> ncu_number(std::string_view s, std::string& why) {
    std::string plain;
    std::size_t i = 0;
    if (i < s.size() && s[i] == '-') plain += s[i++];
    const std::size_t int_start = i;
    std::size_t group = 0;  // digits since the last ','
    bool grouped = false;
    while (i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == ',')) {
        if (s[i] == ',') {
            // A separator after 1-3 digits first, then after exactly 3.
            if (group == 0 || group > 3 || (grouped && group != 3)) {
                why = "a ',' that does not separate thousands";
                return std::nullopt;
            }
            grouped = true;
            group = 0;
        } else {
            plain += s[i];
            ++group;
        }
        ++i;
    }
    if (i == int_start) {
        why = i == s.size() ? "no digits"
              : s[i] == '+' ? "a '+' sign: ncu writes none"
              : s[i] == '.' ? "no digits before its decimal point"
                            : "not digits, ',' thousands, '.' and an exponent";
        return std::nullopt;
    }
    if (i < s.size() && (s[i] == 'x' || s[i] == 'X')) {
        why = "hexadecimal: ncu writes decimal";
        return std::nullopt;
    }
    if (grouped && group != 3) {
        why = "a ',' that does not separate thousands";
        return std::nullopt;
    }
    if (i < s.size() && s[i] == '.') {
        plain += s[i++];
        const std::size_t start = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') plain += s[i++];
        if (i == start) {
            why = "no digits after its decimal point";
            return std::nullopt;
        }
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        plain += s[i++];
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) plain += s[i++];
        const std::size_t start = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9') plain += s[i++];
        if (i == start) {
            why = "an exponent without digits";
            return std::nullopt;
        }
    }
    if (i != s.size()) {
        why = "not digits, ',' thousands, '.' and an exponent";
        return std::nullopt;
    }
    double v = 0;
    const auto [end, error] = std::from_chars(plain.data(), plain.data() + plain.size(), v);
    if (error == std::errc::result_out_of_range) {
        why = "out of the range of a double";
        return std::nullopt;
    }
    if (error != std::errc() || end != plain.data() + plain.size()) {
        why = "not digits, ',' thousands, '.' and an exponent";
        return std::nullopt;
    }
    return v;
}

// What a metric the points read may be, by kind: its units (factor to base units) and the
// most of it per nanosecond of its launch.
struct Unit {
    const char* name;
    double factor;
};
constexpr Unit kTimeUnits[] = {{"ns", 1},      {"nsecond", 1}, {"us", 1e3},     {"usecond", 1e3},
                               {"ms", 1e6},    {"msecond", 1e6}, {"s", 1e9},    {"second", 1e9}};
constexpr Unit kByteUnits[] = {{"byte", 1}, {"B", 1}};
constexpr Unit kCountUnits[] = {{"inst", 1}, {"", 1}};
constexpr const char* kPrefixedBytes[] = {"Kbyte", "Mbyte", "Gbyte", "Tbyte", "Pbyte", "KB", "MB", "GB", "TB", "PB",
                                          "KiB",   "MiB",   "GiB",   "TiB",   "kbyte", "kB"};

// Units of the metrics the points do not read: converted where known, else kept as printed.
std::optional<double> other_unit_factor(const std::string& unit) {
    for (const auto& u : kTimeUnits)
        if (unit == u.name) return u.factor;
    return std::nullopt;
}

const char* kind_name(NcuUnitKind kind) {
    switch (kind) {
    case NcuUnitKind::time: return "a time";
    case NcuUnitKind::bytes: return "bytes";
    case NcuUnitKind::count: return "a count (instructions or operations)";
    case NcuUnitKind::none: break;
    }
    return "";
}

// The factor to base units of `unit` for `metric` of `kind`; refused (the line, metric and
// unit named) when the unit is of another kind.
double unit_factor(NcuUnitKind kind, const std::string& metric, const std::string& unit, std::size_t line) {
    const auto pick = [&](const auto& units) -> std::optional<double> {
        for (const auto& u : units)
            if (unit == u.name) return u.factor;
        return std::nullopt;
    };
    std::optional<double> factor;
    const char* wanted = "";
    switch (kind) {
    case NcuUnitKind::time:
        factor = pick(kTimeUnits);
        wanted = "ns, us, ms, s, nsecond, usecond, msecond or second";
        break;
    case NcuUnitKind::bytes:
        if (std::find(std::begin(kPrefixedBytes), std::end(kPrefixedBytes), unit) != std::end(kPrefixedBytes))
            fail(line, fmt::format("{} is in {}: run ncu with --print-units base (a prefixed byte unit may mean "
                                   "1000 or 1024)",
                                   metric, unit));
        factor = pick(kByteUnits);
        wanted = "byte";
        break;
    case NcuUnitKind::count:
        factor = pick(kCountUnits);
        wanted = "inst or no unit";
        break;
    case NcuUnitKind::none: return other_unit_factor(unit).value_or(1);
    }
    if (!factor)
        fail(line, fmt::format("{} is in '{}', which is not {}: roofline reads it in {}, as ncu --print-units "
                               "base writes it",
                               metric, unit, kind_name(kind), wanted));
    return *factor;
}

double max_per_ns(const std::string& metric, NcuUnitKind kind) {
    if (kind == NcuUnitKind::bytes) return kNcuMaxBytesPerNs;
    if (starts_with(metric, "sm__ops_path_tensor")) return kNcuMaxOperationsPerNs;
    return kNcuMaxInstructionsPerNs;
}

const char* per_ns_unit(NcuUnitKind kind) { return kind == NcuUnitKind::bytes ? "bytes" : ""; }

struct Value {
    double value = 0;
    bool available = true;
    bool number = true;  // false: a metric not read whose value is not a number (left out)
};

// A metric's value in base units, checked as its kind asks.
Value parse_value(const std::string& text, NcuUnitKind kind, double factor, const std::string& metric,
                  std::size_t line) {
    if (text == "n/a" || text == "N/A" || text.empty()) return {0, false, true};
    std::string why;
    const auto v = ncu_number(text, why);
    if (kind == NcuUnitKind::none) {  // not read: kept if a number, left out if not
        if (!v) return {0, true, false};
        return {*v * factor, true, true};
    }
    if (!v) fail(line, fmt::format("{}: '{}' is not a number as ncu writes it ({})", metric, text, why));
    if (*v < 0) fail(line, fmt::format("{}: {} is negative: counts, bytes and times are not", metric, text));
    const double value = *v * factor;
    if (kind == NcuUnitKind::time) {
        if (value < kNcuMinKernelNs)
            fail(line, fmt::format("{} = {} ns: shorter than any kernel launch (the shortest last about a "
                                   "microsecond; below {} ns is no kernel's duration)",
                                   metric, value, kNcuMinKernelNs));
        if (value > kNcuMaxKernelNs)
            fail(line, fmt::format("{} = {} ns: longer than a week, longer than any kernel ncu profiles (it "
                                   "replays each kernel once per pass)",
                                   metric, value));
    } else if (const double most = max_per_ns(metric, kind) * kNcuMaxKernelNs; value > most) {
        fail(line, fmt::format("{} = {:g}{}{}: more than any GPU does in a week of one kernel (at most {:g} per "
                               "nanosecond)",
                               metric, value, *per_ns_unit(kind) ? " " : "", per_ns_unit(kind),
                               max_per_ns(metric, kind)));
    }
    return {value, true, true};
}

// A checked value of a launch, for the check against the launch's duration once it is known.
struct Checked {
    std::size_t line;
    std::string launch;
    std::string metric;
    NcuUnitKind kind;
    double value;
};

struct LaunchSeen {
    std::string kernel;
    std::size_t line = 0;
    std::optional<double> ns;       // its duration, when given and available
    std::size_t duration_line = 0;
};

constexpr const char* kDuration = "gpu__time_duration.sum";

// Counts and bytes against their launch's duration: no GPU moves or computes more per
// nanosecond than max_per_ns.
void check_rates(const std::vector<Checked>& checked, const std::map<std::string, LaunchSeen>& launches) {
    for (const auto& c : checked) {
        if (c.kind == NcuUnitKind::time) continue;
        const auto& l = launches.at(c.launch);
        if (!l.ns) continue;
        const double most = max_per_ns(c.metric, c.kind);
        if (c.value > most * *l.ns)
            fail(c.line, fmt::format("{} = {:g}{}{} in the {:g} ns of launch {} (its duration on line {}): {:g} per "
                                     "nanosecond, more than any GPU does (at most {:g})",
                                     c.metric, c.value, *per_ns_unit(c.kind) ? " " : "", per_ns_unit(c.kind), *l.ns,
                                     c.launch, l.duration_line, c.value / *l.ns, most));
    }
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string base_name(const std::string& metric) { return metric.substr(0, metric.find('.')); }

// Metrics of the file the points do not read that are likely a mistake for one they read and
// the file lacks: a spelling two edits away (case aside), or the same counter under another
// roll-up (dram__bytes.avg, dram__bytes.sum.per_second for dram__bytes.sum). The
// sm__ops_path_tensor* names are left to unknown_tensor_metrics (measure warns of them).
std::vector<std::string> near_miss_warnings(const std::vector<std::pair<std::string, std::size_t>>& unread,
                                            const std::set<std::string>& present) {
    std::vector<std::string> missing;
    for (const auto& m : ncu_all_roofline_metrics())
        if (!present.count(m)) missing.push_back(m);
    std::vector<std::string> warnings;
    for (const auto& [name, line] : unread) {
        if (starts_with(name, "sm__ops_path_tensor")) continue;
        const std::string low = lower(name);
        std::vector<std::pair<std::size_t, std::string>> near;
        for (const auto& m : missing) {
            const std::size_t longer = std::max(low.size(), m.size()), shorter = std::min(low.size(), m.size());
            // Only names of about the same length are measured: a hostile file's long names cost nothing.
            if (longer - shorter <= 2) {
                if (const std::size_t d = edit_distance(low, lower(m)); d <= 2) {
                    near.emplace_back(d, m);
                    continue;
                }
            }
            if (base_name(low) == lower(base_name(m)) && !base_name(m).empty()) near.emplace_back(3, m);
        }
        if (near.empty()) continue;
        std::stable_sort(near.begin(), near.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<std::string> names;
        for (const auto& n : near) names.push_back(n.second);
        warnings.push_back(fmt::format("line {}: {} is not a metric roofline reads (its values are in no point); "
                                       "did you mean {}? The file has no {}",
                                       line, name, fmt::join(names, " or "), names.front()));
    }
    return warnings;
}

bool at_line_start_skipped(std::string_view rest) {
    const std::string_view line = rest.substr(0, rest.find('\n'));
    return line.empty() || line == "\r" || starts_with(line, "==");
}

// ncu's ==ERROR== lines (a kernel it failed to profile, a permission it lacked): passed on,
// the first few.
struct NcuErrors {
    std::vector<std::string> lines;
    std::size_t more = 0;
    void add(std::string_view text, std::size_t line) {
        if (!starts_with(text, "==ERROR==")) return;
        if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
        if (lines.size() < 5) lines.push_back(fmt::format("line {}: ncu said: {}", line, text));
        else ++more;
    }
};

} // namespace

NcuUnitKind ncu_metric_unit_kind(const std::string& metric) {
    // Only counters summed over the launch (.sum): rates and averages are not read.
    if (!ends_with(metric, ".sum")) return NcuUnitKind::none;
    if (metric == kDuration) return NcuUnitKind::time;
    if (starts_with(metric, "sm__sass_thread_inst_executed_op_") || starts_with(metric, "sm__inst_executed_pipe_tensor") ||
        starts_with(metric, "sm__ops_path_tensor"))
        return NcuUnitKind::count;
    static const std::vector<std::string> read = ncu_all_roofline_metrics();
    if (std::find(read.begin(), read.end(), metric) != read.end() && metric.find("bytes") != std::string::npos)
        return NcuUnitKind::bytes;
    return NcuUnitKind::none;
}

NcuCsv read_ncu_csv(std::string_view text) {
    NcuCsv out;
    NcuErrors ncu_errors;
    // The header: the first line with the ID and Kernel Name columns (a line, not a record:
    // the program's output before it may hold any quotes).
    std::size_t pos = 0, line = 1;
    std::vector<std::string> header;
    std::size_t header_line = 0;
    while (pos < text.size()) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        const std::string_view l = text.substr(pos, end - pos);
        ncu_errors.add(l, line);
        if (l.find("\"ID\"") != std::string_view::npos && l.find("Kernel Name") != std::string_view::npos) {
            try {
                std::size_t p = 0, n = line;
                auto fields = read_record(l, p, n);
                if (column(fields, "ID") && column(fields, "Kernel Name")) {
                    header = std::move(fields);
                    header_line = line;
                }
            } catch (const std::runtime_error&) {
                // not CSV: the program's output
            }
        }
        pos = end + 1;
        ++line;
        if (!header.empty()) break;
    }
    if (header.empty())
        throw std::runtime_error("no Nsight Compute CSV header (\"ID\",...,\"Kernel Name\",...): not the output of "
                                 "'ncu --csv'");
    const std::size_t id = *column(header, "ID"), kernel = *column(header, "Kernel Name");
    const auto device = column(header, "Device");
    const auto metric_name = column(header, "Metric Name"), metric_unit = column(header, "Metric Unit"),
               metric_value = column(header, "Metric Value");
    const bool details_page = metric_name.has_value();
    if (details_page && (!metric_unit || !metric_value))
        fail(header_line, "a \"Metric Name\" column without \"Metric Unit\" and \"Metric Value\"");
    // Each column the reader uses once: a second would be read or ignored by chance.
    for (std::size_t c = 0; c < header.size(); ++c) {
        const bool used = header[c] == "ID" || header[c] == "Kernel Name" || header[c] == "Device" ||
                          (details_page ? starts_with(header[c], "Metric ") : header[c].find("__") != std::string::npos);
        if (used && std::find(header.begin(), header.begin() + static_cast<std::ptrdiff_t>(c), header[c]) !=
                        header.begin() + static_cast<std::ptrdiff_t>(c))
            fail(header_line, fmt::format("the header has the column '{}' twice", header[c]));
    }

    std::map<std::string, LaunchSeen> launches;
    std::vector<Checked> checked;
    std::vector<std::pair<std::string, std::size_t>> unread;  // metrics not read: name, first line
    std::set<std::string> present;                            // every metric name of the file
    const auto note_metric = [&](const std::string& name, std::size_t at) {
        if (!present.insert(name).second) return;
        const auto& read = ncu_all_roofline_metrics();
        if (std::find(read.begin(), read.end(), name) == read.end()) unread.emplace_back(name, at);
    };
    // The raw page: the units row's factors per column, and its line.
    std::vector<double> factors;
    std::vector<NcuUnitKind> kinds;
    bool units_read = false;
    if (!details_page)
        for (const auto& h : header) {
            kinds.push_back(h.find("__") == std::string::npos ? NcuUnitKind::none : ncu_metric_unit_kind(h));
            // A metric column (and a column with a dot: a metric misspelled without its "__"?).
            if (h.find("__") != std::string::npos || h.find('.') != std::string::npos) note_metric(h, header_line);
        }

    while (pos < text.size()) {
        if (at_line_start_skipped(text.substr(pos))) {
            const std::size_t end = std::min(text.find('\n', pos), text.size());
            ncu_errors.add(text.substr(pos, end - pos), line);
            pos = end + 1;
            ++line;
            continue;
        }
        const std::size_t n = line;
        const auto fields = read_record(text, pos, line);
        if (fields.size() != header.size())
            fail(n, fmt::format("{} fields where the header has {}", fields.size(), header.size()));
        if (!details_page && !units_read) {  // the raw page's units row
            if (!fields[id].empty()) fail(n, "the raw page's second row should give the units (its ID empty)");
            for (std::size_t c = 0; c < header.size(); ++c)
                factors.push_back(header[c].find("__") == std::string::npos ? 1
                                                                             : unit_factor(kinds[c], header[c], fields[c], n));
            units_read = true;
            continue;
        }
        GpuKernelMetric m;
        m.launch = fields[id];
        m.kernel = fields[kernel];
        m.device = device ? fields[*device] : "0";
        if (m.launch.empty()) fail(n, "a row without a launch ID");
        if (!all_digits(m.launch))
            fail(n, fmt::format("launch ID '{}' is not a number (a second header: two files joined?)", m.launch));
        if (!all_digits(m.device)) fail(n, fmt::format("device '{}' is not a device's index", m.device));
        // (No structured binding: the lambda below uses it, which clang 14, the fuzz build's, refuses.)
        const auto emplaced = launches.try_emplace(m.launch);
        const auto seen = emplaced.first;
        if (emplaced.second) {
            seen->second.kernel = m.kernel;
            seen->second.line = n;
        } else if (seen->second.kernel != m.kernel) {
            // (Its device is taken from its first row, as gpu_kernel_points does.)
            fail(n, fmt::format("launch {} is kernel '{}' here and '{}' on line {}: one launch runs one kernel "
                                "(two files joined?)",
                                m.launch, m.kernel, seen->second.kernel, seen->second.line));
        }
        const auto one = [&](const std::string& metric, const std::string& value, NcuUnitKind kind, double factor) {
            const auto v = parse_value(value, kind, factor, metric, n);
            if (!v.number) return;
            GpuKernelMetric g = m;
            g.metric = metric;
            g.value = v.value;
            g.available = v.available;
            if (kind != NcuUnitKind::none && v.available) {
                checked.push_back({n, m.launch, metric, kind, v.value});
                if (kind == NcuUnitKind::time && metric == kDuration) {
                    seen->second.ns = v.value;
                    seen->second.duration_line = n;
                }
            }
            out.metrics.push_back(std::move(g));
        };
        if (details_page) {
            const std::string& metric = fields[*metric_name];
            if (metric.empty()) fail(n, "a row without a metric name");
            const NcuUnitKind kind = ncu_metric_unit_kind(metric);
            note_metric(metric, n);
            one(metric, fields[*metric_value], kind, unit_factor(kind, metric, fields[*metric_unit], n));
            continue;
        }
        // Metric columns have dotted names (dram__bytes.sum); the launch's own columns do not.
        for (std::size_t c = 0; c < header.size(); ++c)
            if (header[c].find("__") != std::string::npos) one(header[c], fields[c], kinds[c], factors[c]);
    }
    check_rates(checked, launches);
    out.warnings = near_miss_warnings(unread, present);
    out.warnings.insert(out.warnings.end(), ncu_errors.lines.begin(), ncu_errors.lines.end());
    if (ncu_errors.more)
        out.warnings.push_back(fmt::format("and {} more ==ERROR== line{} from ncu", ncu_errors.more,
                                           ncu_errors.more == 1 ? "" : "s"));
    return out;
}

std::vector<GpuKernelMetric> parse_ncu_csv(std::string_view text) { return read_ncu_csv(text).metrics; }

std::vector<std::string> parse_ncu_metric_names(const std::string& text) {
    std::vector<std::string> names;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::string first;
        if (!(words >> first) || first.find("__") == std::string::npos) continue;
        // Hierarchical listings prefix a section ("TPC.TriageCompute.sm__..."): the metric is the last part.
        if (const auto dot = first.rfind('.'); dot != std::string::npos) first = first.substr(dot + 1);
        const bool metric_like = std::all_of(first.begin(), first.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        });
        if (metric_like && std::find(names.begin(), names.end(), first) == names.end()) names.push_back(first);
    }
    return names;
}

} // namespace roofline
