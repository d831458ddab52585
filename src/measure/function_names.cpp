#include "measure/function_names.hpp"

#include <set>

namespace roofline::measure {
namespace {

std::string base_name(const std::string& file) {
    const auto slash = file.rfind('/');
    return slash == std::string::npos ? file : file.substr(slash + 1);
}

// `name` without the " (FILE)" a file's base name adds.
std::string bare_name(const std::string& name, const std::string& file) {
    const auto suffix = " (" + base_name(file) + ")";
    if (!file.empty() && name.size() > suffix.size() && name.ends_with(suffix))
        return name.substr(0, name.size() - suffix.size());
    return name;
}

} // namespace

std::string name_in_file(const std::string& name, const std::string& file) {
    return file.empty() ? name : name + " (" + base_name(file) + ")";
}

std::map<std::pair<std::string, std::string>, std::string> names_apart(
    const std::vector<std::pair<std::string, std::string>>& name_file) {
    std::map<std::string, std::set<std::string>> files_of;
    for (const auto& [name, file] : name_file) files_of[name].insert(file);
    std::map<std::pair<std::string, std::string>, std::string> out;
    for (const auto& [name, file] : name_file)
        out[{name, file}] = files_of[name].size() > 1 ? name_in_file(name, file) : name;
    return out;
}

void use_tool_function_names(const std::vector<RegionCounts>& tool_functions, SamplingResult& sampling) {
    // (bare name, file's base name) -> the tool's name
    std::map<std::pair<std::string, std::string>, std::string> tool_name;
    for (const auto& f : tool_functions)
        if (!f.object.empty()) tool_name[{bare_name(f.name, f.object), base_name(f.object)}] = f.name;
    const auto renamed = [&](const std::string& name, const std::string& file) {
        if (file.empty()) return name;
        const auto it = tool_name.find({bare_name(name, file), base_name(file)});
        return it == tool_name.end() ? name : it->second;
    };
    std::map<std::string, FunctionTime> functions;
    for (auto& [name, t] : sampling.functions) {
        auto& to = functions[renamed(name, t.file)];
        to.samples += t.samples;
        to.seconds += t.seconds;
        if (to.file.empty()) to.file = t.file;
    }
    sampling.functions = std::move(functions);
    // Call stacks index their functions: two entries that come to one name keep their indices.
    for (std::size_t i = 0; i < sampling.stack_functions.size() && i < sampling.stack_function_files.size(); ++i)
        sampling.stack_functions[i] = renamed(sampling.stack_functions[i], sampling.stack_function_files[i]);
}

} // namespace roofline::measure
