// Where measured points go (measure, a job's rank 0, kernels): a points file and the results
// store, every destination tried and each failure said; when one failed, the points are also
// written somewhere safe and that place is named, so that a run is never lost.
#pragma once

#include "core/provenance.hpp"
#include "core/roofline.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace roofline {
class ResultsStore;
}

namespace roofline::cli {

struct PointDestinations {
    std::string output;                    // -o FILE; empty: none
    std::function<ResultsStore*()> store;  // the store to save into (may throw); empty: none
    std::string set_name;                  // the stored set's name
    std::string what = "the points";       // in messages: "the job's points"
    bool quiet = false;                    // no notes (errors are always said)
    const std::vector<std::string>* cache_keys = nullptr;  // ResultsStore::save_points's; null: none
    std::optional<std::int64_t> machine_id = std::nullopt;  // the stored machine the points were judged on; none: not one of the store's
};

// Returns true when every destination took the points (nothing to write counts as taken).
bool deliver_points(const std::vector<Point>& points, const Provenance& provenance, const PointDestinations& to);

// Writes the points somewhere safe after a destination failed (write_somewhere_safe) and
// says where on stderr, or that nowhere worked. `what` names them: "the points", "rank 3's points".
void rescue_points(const std::vector<Point>& points, const Provenance& provenance, const std::string& file_name,
                   const std::string& what = "the points");

} // namespace roofline::cli
