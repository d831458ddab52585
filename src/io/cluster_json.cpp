#include "io/cluster_json.hpp"

#include "io/machine_json.hpp"
#include "io/text_file.hpp"

namespace roofline {

nlohmann::json cluster_to_json(const ClusterModel& cluster, const std::vector<NodeModel>& nodes) {
    nlohmann::json j;
    j["schema"] = "roofline.cluster/1";
    j["threshold"] = cluster.threshold;
    j["nodes"] = nlohmann::json::array();
    for (const auto& n : nodes) j["nodes"].push_back({{"node", n.node}, {"rank", n.rank}, {"machine", machine_to_json(n.model)}});
    j["roofs"] = nlohmann::json::array();
    for (const auto& r : cluster.roofs) {
        nlohmann::json values = nlohmann::json::object();
        for (const auto& [node, value] : r.values) values[node] = value;
        j["roofs"].push_back({{"roof", r.name},
                              {"unit", r.unit},
                              {"median", r.median},
                              {"min", r.min},
                              {"max", r.max},
                              {"spread", r.spread},
                              {"slowest_node", r.slowest},
                              {"values", values}});
    }
    j["sick_nodes"] = nlohmann::json::array();
    for (const auto& s : cluster.sick)
        j["sick_nodes"].push_back(
            {{"node", s.node}, {"roof", s.roof}, {"value", s.value}, {"median", s.median}, {"shortfall", s.shortfall}});
    j["missing"] = nlohmann::json::array();
    for (const auto& [node, roof] : cluster.missing) j["missing"].push_back({{"node", node}, {"roof", roof}});
    return j;
}

void write_cluster_file(const std::string& path, const ClusterModel& cluster, const std::vector<NodeModel>& nodes) {
    write_text_file_atomic(path, cluster_to_json(cluster, nodes).dump(2, ' ', false,
                                                                       nlohmann::json::error_handler_t::replace) +
                                     "\n");
}

} // namespace roofline
