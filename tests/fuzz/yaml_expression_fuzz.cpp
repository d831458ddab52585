// The expression language of YAML scalars (io/yaml_node: as_expression, expression_names, as_bytes,
// as_number, as_int).
#include "fuzz_common.hpp"
#include "io/yaml_node.hpp"

#include <map>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::map<std::string, double> sizes{{"N", 1000}, {"M", 64}, {"Nnzr", 7}, {"r", 4}, {"b1", 16}, {"Z", 0}};
    const roofline::YamlNode node(YAML::Node(roofline_fuzz::as_text(data, size)), "<fuzz>", "/x");
    roofline_fuzz::guarded("as_expression", [&] { (void)node.as_expression(sizes); });
    roofline_fuzz::guarded("expression_names", [&] { (void)node.expression_names(); });
    roofline_fuzz::guarded("as_bytes", [&] { (void)node.as_bytes(); });
    roofline_fuzz::guarded("as_number", [&] { (void)node.as_number(); });
    roofline_fuzz::guarded("as_int", [&] { (void)node.as_int(); });
    return 0;
}
