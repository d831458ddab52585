#include "io/store_schema.hpp"

#include "core/message_name.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <stdexcept>

namespace roofline::store_schema {

bool Layout::has(const char* name) const { return std::find(tables.begin(), tables.end(), name) != tables.end(); }

void migrate(Migration& steps, const std::string& name) {
    const Layout layout = steps.layout();
    if (!layout.empty && !layout.is_store()) not_a_store(name, layout);
    // The older layouts are subsets of this one: after this, every table exists.
    steps.create_missing_tables();
    const int found = steps.version_or_insert_current();
    if (found > version) newer_layout(name, found);
    steps.never_reuse_ids();
    if (found < version) steps.set_version(version);
}

void check_readable(const Layout& layout, int found_version, const std::string& name) {
    if (!layout.is_store()) not_a_store(name, layout);
    if (found_version > version) newer_layout(name, found_version);
}

int parse_version(const std::string& text, const std::string& name) {
    int v = 0;
    const bool digits = !text.empty() && text.size() <= 9 &&
                        std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (digits) v = std::stoi(text);
    if (v < 1)
        throw std::runtime_error(fmt::format("results database {} has layout version '{}', which is not a version "
                                             "(a positive integer): the store is damaged or not roofline's; nothing "
                                             "was read or written",
                                             message_name(name), text));
    return v;
}

void newer_layout(const std::string& name, int found) {
    throw std::runtime_error(fmt::format(
        "results database {} has layout version {}, newer than this roofline "
        "understands ({}); use a newer roofline or another database (ROOFLINE_DB)",
        message_name(name), found, version));
}

void not_a_store(const std::string& name, const Layout& layout) {
    throw std::runtime_error(fmt::format(
        "results database {} is not a roofline results store (it has no roofline tables{}); pass another --db",
        message_name(name), layout.empty ? ", it is empty" : ""));
}

StoreFailure::StoreFailure(const std::string& name, std::string reason)
    : std::runtime_error(fmt::format("results database {}: {}", message_name(name), reason)),
      reason_(std::move(reason)) {}

std::string locked_reason(std::chrono::milliseconds waited, const std::string& detail) {
    return fmt::format("it is locked by another process (still busy after {:.0f} s): try again when it has finished ({})",
                       std::chrono::duration<double>(waited).count(), detail);
}

std::string now_utc_iso8601() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    ::gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

} // namespace roofline::store_schema
