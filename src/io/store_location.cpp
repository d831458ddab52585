#include "io/store_location.hpp"

#include <array>
#include <cctype>
#include <stdexcept>

namespace roofline {
namespace {

constexpr std::array<std::string_view, 2> kSchemes = {"postgresql://", "postgres://"};

// A URL cut where passwords may be: scheme, user info (before the last '@' of
// the part before any '?'), the rest, and the query parameters. The last '@'
// rather than the first: a password typed with a raw '@' or '/' is hidden whole,
// even though libpq would not accept it.
struct UrlParts {
    std::string_view scheme;
    std::string_view userinfo;  // "user:password" (empty when there is no '@')
    std::string_view rest;      // host, port, path
    std::string_view query;     // after '?', without it
    bool has_userinfo = false;
    bool has_query = false;
};

UrlParts split(std::string_view url) {
    UrlParts parts;
    for (const auto scheme : kSchemes)
        if (url.substr(0, scheme.size()) == scheme) parts.scheme = scheme;
    std::string_view after = url.substr(parts.scheme.size());
    if (const auto q = after.find('?'); q != std::string_view::npos) {
        parts.query = after.substr(q + 1);
        parts.has_query = true;
        after = after.substr(0, q);
    }
    if (const auto at = after.rfind('@'); at != std::string_view::npos) {
        parts.userinfo = after.substr(0, at);
        parts.has_userinfo = true;
        after = after.substr(at + 1);
    }
    parts.rest = after;
    return parts;
}

// Calls `each(key, value, whole)` for every key=value of a query string.
template <typename Each>
void for_each_parameter(std::string_view query, Each each) {
    while (!query.empty()) {
        const auto amp = query.find('&');
        const std::string_view item = query.substr(0, amp);
        const auto eq = item.find('=');
        each(item.substr(0, eq), eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1), item);
        if (amp == std::string_view::npos) break;
        query.remove_prefix(amp + 1);
    }
}

} // namespace

bool is_postgres_url(std::string_view db) {
    for (const auto scheme : kSchemes)
        if (db.substr(0, scheme.size()) == scheme) return true;
    return false;
}

std::string store_location_problem(std::string_view db) {
    if (db.empty()) return "the results store's location is empty: give a SQLite file or a postgresql:// URL";
    if (is_postgres_url(db)) return {};
    // RFC 3986 scheme: a letter, then letters, digits, '+', '-' or '.', then "://".
    const auto colon = db.find("://");
    if (colon == std::string_view::npos || colon == 0 || !std::isalpha(static_cast<unsigned char>(db[0]))) return {};
    for (const char c : db.substr(0, colon))
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.') return {};
    return std::string(db.substr(0, colon)) +
           ":// is not a results store roofline can open: give a SQLite file or a postgresql://[user@]host[:port]/"
           "dbname URL";
}

void check_store_location(std::string_view db) {
    if (auto problem = store_location_problem(db); !problem.empty()) throw std::invalid_argument(problem);
}

std::string store_display_name(std::string_view db) {
    if (!is_postgres_url(db)) return std::string(db);
    const UrlParts parts = split(db);
    std::string out(parts.scheme);
    if (parts.has_userinfo) {
        out += parts.userinfo.substr(0, parts.userinfo.find(':'));
        out += '@';
    }
    out += parts.rest;
    std::string query;
    for_each_parameter(parts.query, [&](std::string_view key, std::string_view, std::string_view item) {
        if (key == "password") return;
        query += query.empty() ? "" : "&";
        query += item;
    });
    if (!query.empty()) out += "?" + query;
    return out;
}

std::vector<std::string> store_url_secrets(std::string_view db) {
    std::vector<std::string> secrets;
    if (!is_postgres_url(db)) return secrets;
    const UrlParts parts = split(db);
    if (const auto colon = parts.userinfo.find(':'); colon != std::string_view::npos && colon + 1 < parts.userinfo.size())
        secrets.emplace_back(parts.userinfo.substr(colon + 1));
    for_each_parameter(parts.query, [&](std::string_view key, std::string_view value, std::string_view) {
        if (key == "password" && !value.empty()) secrets.emplace_back(value);
    });
    return secrets;
}

} // namespace roofline
