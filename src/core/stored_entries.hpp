// What the results store holds, one row per machine model and per point set:
// plain structs io/ fills and render/ lists (`roofline list`).
#pragma once

#include "core/model_completeness.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace roofline {

struct StoredMachine {
    std::int64_t id = 0;
    std::string created;   // ISO 8601 UTC
    std::string hostname;
    std::string cpu_model;
    std::string mode;
    bool partial = false;
    // What the model holds, when the listing read it (ResultsStore::list_machines with
    // read_models): nullopt when not read, or when it could not be (`unreadable` says why).
    std::optional<ModelCompleteness> completeness;
    std::string unreadable;
};

struct StoredPointSet {
    std::int64_t id = 0;
    std::string created;   // ISO 8601 UTC
    std::string name;      // e.g. the measured command, or the kernel spec
    std::optional<std::int64_t> machine_id;  // the machine the points were measured on, if known
    // The host the points were measured on, as the set's provenance records it (measure,
    // kernels, monitor ...), when the listing read it (ResultsStore::list_point_sets with
    // read_sets); empty when not read or the set does not say.
    std::string hostname;
    std::int64_t point_count = 0;
    // Why the row cannot be believed (a point count below zero, JSON that cannot be read: a
    // tampered or damaged store); empty when it can. The listing says so instead of the count.
    std::string damaged;
    // When the listing read the set (read_sets) and its JSON could not be read: the whole
    // message (where, what, what to do), for a warning; empty otherwise.
    std::string unreadable;
};

// Sets `damaged` for a row whose figures no writer of ours stores (a negative point count).
inline void check_stored_point_set(StoredPointSet& row) {
    if (row.point_count < 0)
        row.damaged = "damaged row: its point count reads " + std::to_string(row.point_count);
}

// What removing rows (roofline remove) takes away, or as a dry run would, read in the
// removal's transaction.
struct RemovedRows {
    std::vector<StoredMachine> machines;     // as list_machines gives them, in the order asked
    std::vector<StoredPointSet> point_sets;  // as list_point_sets gives them, in the order asked
    std::int64_t cache_entries = 0;          // the removed sets' measurement-cache entries
    // Sets that stay (not removed) but named a removed machine: they no longer name one.
    std::vector<std::int64_t> unlinked_sets;
    // Ids asked for that the store does not hold: when any, nothing was removed.
    std::vector<std::int64_t> unknown_machines;
    std::vector<std::int64_t> unknown_point_sets;
    bool complete() const { return unknown_machines.empty() && unknown_point_sets.empty(); }
};

} // namespace roofline
