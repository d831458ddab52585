// One results store back end: the rows of store_schema's layout in one kind of
// database. ResultsStore turns models and points into rows (JSON text and the
// columns lists show) and back; a back end only stores and finds rows, safely
// when other processes write the same store at once.
#pragma once

#include "core/stored_entries.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofline {

struct MachineRow {
    std::string created;  // ISO 8601 UTC
    std::string hostname;
    std::string cpu_model;
    std::string mode;
    bool partial = false;
    std::string schema;
    std::string json;
};

struct PointSetRow {
    std::string created;  // ISO 8601 UTC
    std::string name;
    std::optional<std::int64_t> machine_id;
    std::int64_t point_count = 0;
    std::string json;
};

// A stored document: its row id and its JSON text.
struct StoredJson {
    std::int64_t id = 0;
    std::string json;
};

// Where the measurement cache found a key's point: a set and the point's index in it.
struct CacheEntry {
    std::int64_t point_set_id = 0;
    std::int64_t point_index = 0;
};

class StoreBackend {
public:
    virtual ~StoreBackend() = default;

    // Writes throw std::runtime_error naming the store on a read-only open.
    virtual std::int64_t insert_machine(const MachineRow& row) = 0;
    // The point set and, in the same transaction, its cache keys (key, index of the
    // point in the set; the newest set wins a key).
    virtual std::int64_t insert_point_set(const PointSetRow& row,
                                          const std::vector<std::pair<std::string, std::int64_t>>& cache) = 0;

    // nullopt `id`: the newest (highest id).
    virtual std::optional<StoredJson> machine_json(std::optional<std::int64_t> id) const = 0;
    virtual std::vector<StoredMachine> list_machines() const = 0;  // oldest first
    virtual std::optional<StoredJson> point_set_json(std::optional<std::int64_t> id) const = 0;
    virtual std::vector<StoredPointSet> list_point_sets() const = 0;  // oldest first
    virtual std::optional<CacheEntry> cache_entry(const std::string& key) const = 0;
};

} // namespace roofline
