// One results store back end: the rows of store_schema's layout in one kind of
// database. ResultsStore turns models and points into rows (JSON text and the
// columns lists show) and back; a back end only stores and finds rows, safely
// when other processes write the same store at once.
#pragma once

#include "core/stored_entries.hpp"

#include <algorithm>
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

// The rows of `machines` and `sets` (a back end's listings) that the ids name, in the ids'
// order, and the ids neither holds: the first step of StoreBackend::remove_rows.
inline RemovedRows pick_removed_rows(const std::vector<StoredMachine>& machines, const std::vector<StoredPointSet>& sets,
                                     const std::vector<std::int64_t>& machine_ids,
                                     const std::vector<std::int64_t>& point_set_ids) {
    RemovedRows out;
    for (const std::int64_t id : machine_ids) {
        const auto it = std::find_if(machines.begin(), machines.end(), [&](const auto& m) { return m.id == id; });
        if (it == machines.end()) out.unknown_machines.push_back(id);
        else out.machines.push_back(*it);
    }
    for (const std::int64_t id : point_set_ids) {
        const auto it = std::find_if(sets.begin(), sets.end(), [&](const auto& s) { return s.id == id; });
        if (it == sets.end()) out.unknown_point_sets.push_back(id);
        else out.point_sets.push_back(*it);
    }
    return out;
}

// Of a removed machine's sets (`sets_of_machine`), those that stay: not removed themselves.
inline void note_unlinked_sets(RemovedRows& out, const std::vector<std::int64_t>& sets_of_machine,
                               const std::vector<std::int64_t>& point_set_ids) {
    for (const std::int64_t id : sets_of_machine)
        if (std::find(point_set_ids.begin(), point_set_ids.end(), id) == point_set_ids.end())
            out.unlinked_sets.push_back(id);
}

// Why a point set was not stored: the machine it names (the one its points were judged on,
// looked up before the save) was removed meanwhile, by a concurrent `roofline remove`. Both
// back ends refuse it in the insert's transaction rather than store a dangling machine id
// (SQLite does not enforce the foreign key) or bring back a machine the user removed.
inline std::string removed_machine_reason(std::int64_t machine_id) {
    return "machine #" + std::to_string(machine_id) +
           ", which these points were judged on, is no longer stored (removed meanwhile, by 'roofline remove'?): "
           "the point set was not stored";
}

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

    // Removes the machines and point sets (ids distinct), all in one write transaction, or
    // with `write` false only says what that would remove (a read: works on a read-only open).
    // Every id is looked up first: when any is not stored, nothing is removed and the result
    // names the unknown ones.
    virtual RemovedRows remove_rows(const std::vector<std::int64_t>& machine_ids,
                                    const std::vector<std::int64_t>& point_set_ids, bool write) = 0;
};

} // namespace roofline
