// Versioned JSON for points (schema "roofline.points/1", see DESIGN.md):
// { "schema": ..., "points": [ { "name", "series"?, "label"?, "flops" | ("ops" + "op_unit"),
//   "bytes": {"L1": .., "DRAM": ..}, "seconds", "threads", "source", "details": {..} } ] }
#pragma once

#include "core/provenance.hpp"
#include "core/roofline.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace roofline {

// With `provenance`, the document has a top-level "provenance" object (readers ignore it).
nlohmann::json points_to_json(const std::vector<Point>& points, const Provenance* provenance = nullptr);
// Throws SchemaError (io/machine_json.hpp) naming `source`, the JSON path and what was expected.
std::vector<Point> points_from_json(const nlohmann::json& j, const std::string& source = "<json>");

void write_points_file(const std::string& path, const std::vector<Point>& points,
                       const Provenance* provenance = nullptr);
std::vector<Point> read_points_file(const std::string& path);

// The points and, when the file has one, its provenance (read leniently:
// fields of the wrong type are left empty; the points are checked as always).
struct PointsDocument {
    std::vector<Point> points;
    std::optional<Provenance> provenance;
};
PointsDocument read_points_document(const std::string& path);
PointsDocument points_document_from_json(const nlohmann::json& j, const std::string& source = "<json>");

} // namespace roofline
