#include "io/json_node.hpp"

#include "io/text_file.hpp"

namespace roofline {

nlohmann::json read_json_file(const std::string& path) {
    const auto text = read_text_file(path);
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        // e.what() reads "[json.exception.parse_error.101] parse error at line 3, column 7: ...";
        // keep the part a user can act on.
        std::string_view detail = e.what();
        if (const auto bracket = detail.find("] "); bracket != std::string_view::npos) {
            detail.remove_prefix(bracket + 2);
        }
        throw SchemaError(fmt::format("{}: not valid JSON: {}", path, detail));
    }
}

} // namespace roofline
