// An empty JSON file (a run that died before writing, a '> p.json' whose command failed) is said
// so, not in nlohmann's words ("parse error at line 1, column 1: syntax error while parsing value
// - unexpected end of input; expected '[', '{', or a literal").
#include "io/json_node.hpp"
#include "io/machine_json.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace roofline;

namespace {

std::string error_of(const std::string& text) {
    try {
        (void)parse_json_text(text, "p.json");
    } catch (const SchemaError& e) {
        return e.what();
    }
    return "(no SchemaError)";
}

} // namespace

TEST(JsonText, AnEmptyFileIsSaidToBeEmpty) {
    EXPECT_EQ(error_of(""), "p.json: not valid JSON: the file is empty");
    EXPECT_EQ(error_of(" \n\t\r\n"), "p.json: not valid JSON: the file holds only white space");
    // Text that is there but not JSON keeps the parser's place.
    EXPECT_EQ(error_of("x").rfind("p.json: not valid JSON: parse error at line 1, column 1", 0), 0u) << error_of("x");
    EXPECT_NO_THROW((void)parse_json_text(" {}\n", "p.json"));
}
