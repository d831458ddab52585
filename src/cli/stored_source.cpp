#include "cli/stored_source.hpp"

#include "cli/usage_error.hpp"
#include "io/points_json.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <stdexcept>

namespace roofline::cli {

std::string StoredSource::display() const {
    if (!stored) return path;
    return id ? fmt::format("stored machine #{}", *id) : std::string("the latest stored machine");
}

StoredSource parse_stored_source(const std::string& text, const char* option) {
    if (text == kStored) return {true, std::nullopt, {}};
    const std::string prefix = std::string(kStored) + ":";
    if (text.rfind(prefix, 0) == 0) {
        const auto number = text.substr(prefix.size());
        try {
            std::size_t used = 0;
            const long long id = std::stoll(number, &used);
            if (used == number.size() && id > 0) return {true, id, {}};
        } catch (const std::exception&) {
        }
        throw UsageError(fmt::format("{} expects a file, 'stored' or 'stored:ID' (got '{}')", option, text));
    }
    if (text.empty()) throw UsageError(fmt::format("{} expects a file, 'stored' or 'stored:ID' (got '')", option));
    return {false, std::nullopt, text};
}

const std::string& StoreAccess::path() {
    if (path_.empty()) path_ = explicit_path_.empty() ? ResultsStore::default_path() : explicit_path_;
    return path_;
}

ResultsStore* StoreAccess::store() {
    if (!store_ && std::filesystem::exists(path())) store_ = std::make_unique<ResultsStore>(path());
    return store_.get();
}

MachineFile load_machine(const StoredSource& source, StoreAccess& access, std::string_view missing_hint) {
    if (!source.stored) return load_machine_file(source.path);
    ResultsStore* store = access.store();
    std::optional<MachineModel> model;
    if (store) model = source.id ? store->machine(*source.id) : store->latest_machine();
    if (model) {
        MachineFile file;
        file.model = *std::move(model);
        return file;
    }
    if (source.id)
        throw std::runtime_error(fmt::format("no machine #{} in the results store {}", *source.id, access.path()));
    throw std::runtime_error(fmt::format("no machine model in the results store {}: {}", access.path(), missing_hint));
}

std::vector<Point> load_points(const StoredSource& source, StoreAccess& access, std::string_view missing_hint,
                               bool required) {
    if (!source.stored) return read_points_file(source.path);
    ResultsStore* store = access.store();
    std::optional<std::vector<Point>> points;
    if (store) points = source.id ? store->points(*source.id) : store->latest_points();
    if (points) return *std::move(points);
    if (!required) return {};
    if (source.id)
        throw std::runtime_error(fmt::format("no point set #{} in the results store {}", *source.id, access.path()));
    throw std::runtime_error(fmt::format("no points in the results store {}: {}", access.path(), missing_hint));
}

} // namespace roofline::cli
