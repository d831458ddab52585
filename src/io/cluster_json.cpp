#include "io/cluster_json.hpp"

#include "io/json_node.hpp"
#include "io/machine_json.hpp"
#include "io/text_file.hpp"

#include <fmt/core.h>

#include <cmath>
#include <stdexcept>

namespace roofline {

namespace {

std::vector<NetworkSample> samples_from(const nlohmann::json& j, const char* key) {
    std::vector<NetworkSample> out;
    if (!j.contains(key)) return out;
    for (const auto& s : j.at(key)) {
        NetworkSample n{s.at("bytes").get<double>(), s.at("gbs").get<double>(), s.at("seconds").get<double>()};
        if (!(n.bytes > 0) || !(n.gbs >= 0) || !(n.seconds > 0) || !std::isfinite(n.gbs))
            throw std::runtime_error(fmt::format("roofline-netbench: an impossible {} sample", key));
        out.push_back(n);
    }
    return out;
}

nlohmann::json samples_json(const std::vector<NetworkSample>& samples) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& s : samples) out.push_back({{"bytes", s.bytes}, {"gbs", s.gbs}, {"seconds", s.seconds}});
    return out;
}

} // namespace

NetworkMeasurement network_from_netbench_json(const nlohmann::json& j) {
    try {
        if (j.value("schema", "") != "roofline.netbench/1")
            throw std::runtime_error("roofline-netbench wrote another schema");
        NetworkMeasurement n;
        n.scope = j.at("scope").get<std::string>();
        n.nodes = j.at("nodes").get<int>();
        n.pingpong = samples_from(j, "pingpong");
        n.alltoall = samples_from(j, "alltoall");
        return n;
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(fmt::format("roofline-netbench's results are not readable: {}", e.what()));
    }
}

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
    if (cluster.network)
        j["network"] = {{"scope", cluster.network->scope},
                        {"nodes", cluster.network->nodes},
                        {"pingpong", samples_json(cluster.network->pingpong)},
                        {"alltoall", samples_json(cluster.network->alltoall)}};
    j["missing"] = nlohmann::json::array();
    for (const auto& [node, roof] : cluster.missing) j["missing"].push_back({{"node", node}, {"roof", roof}});
    return j;
}

bool is_cluster_json(const std::string& text) {
    if (json_nested_too_deep(text)) return false;  // no cluster model; its reader says what is wrong
    const auto j = nlohmann::json::parse(text, nullptr, false);
    return j.is_object() && j.value("schema", "") == "roofline.cluster/1";
}

ClusterFile cluster_from_json(const nlohmann::json& j, const std::string& source) {
    try {
        if (!j.is_object() || j.value("schema", "") != "roofline.cluster/1")
            throw std::runtime_error("not a cluster model (schema roofline.cluster/1)");
        ClusterFile f;
        for (const auto& n : j.at("nodes"))
            f.nodes.push_back({n.at("node").get<std::string>(), n.at("rank").get<int>(),
                               machine_from_json(n.at("machine"), source)});
        if (f.nodes.empty()) throw std::runtime_error("a cluster model without nodes");
        std::optional<NetworkMeasurement> network;
        if (j.contains("network")) {
            nlohmann::json net = j.at("network");
            net["schema"] = "roofline.netbench/1";
            network = network_from_netbench_json(net);
        }
        try {
            f.cluster = cluster_model(f.nodes, j.at("threshold").get<double>());
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error(e.what());
        }
        f.cluster.network = network;
        return f;
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(fmt::format("{}: not a readable cluster model: {}", source, e.what()));
    } catch (const std::runtime_error& e) {
        const std::string what = e.what();
        if (what.rfind(source, 0) == 0) throw;
        throw std::runtime_error(fmt::format("{}: {}", source, what));
    }
}

void write_cluster_file(const std::string& path, const ClusterModel& cluster, const std::vector<NodeModel>& nodes) {
    write_text_file_atomic(path, cluster_to_json(cluster, nodes).dump(2, ' ', false,
                                                                       nlohmann::json::error_handler_t::replace) +
                                     "\n");
}

} // namespace roofline
