#include "io/kernel_spec_yaml.hpp"

#include "core/input_limits.hpp"

#include "io/machine_json.hpp"
#include "io/text_file.hpp"
#include "io/yaml_node.hpp"

#include <fmt/core.h>

namespace roofline {
namespace {

using Sizes = std::map<std::string, double>;

Sizes sizes_from(const YamlNode& n, Sizes inherited) {
    for (const auto& [name, value] : n.entries()) {
        const double v = value.as_expression(inherited);
        if (!(v > 0)) value.fail(fmt::format("size '{}' must be positive", name));
        inherited[name] = v;
    }
    return inherited;
}

double non_negative(const YamlNode& n, const Sizes& sizes) {
    const double v = n.as_expression(sizes);
    if (v < 0) n.fail(fmt::format("expected a number >= 0, found {}", v));
    return v;
}

ArraySpec array_from(const YamlNode& n, const Sizes& sizes) {
    n.require_map();
    n.allow_only({"name", "type", "element_bytes", "reads", "writes", "write_allocate", "resident_in"});
    ArraySpec a;
    a.name = n.required("name", "the array's name").as_string();
    if (n.has("type") && n.has("element_bytes")) n.child("type").fail("give either 'type' or 'element_bytes', not both");
    if (const auto type = n.optional("type")) {
        a.element_bytes = element_bytes_of_type(type->as_string());
        if (a.element_bytes == 0)
            type->expected("a type: double, float, half, int8, int16, int32, int64, complex, complex_float");
    } else if (const auto bytes = n.optional("element_bytes")) {
        a.element_bytes = bytes->as_expression(sizes);
        if (!(a.element_bytes > 0)) bytes->expected("a positive number of bytes");
    } else {
        n.fail("missing 'type' or 'element_bytes' (expected the size of one element)");
    }
    if (const auto r = n.optional("reads")) a.reads_per_iteration = non_negative(*r, sizes);
    if (const auto w = n.optional("writes")) a.writes_per_iteration = non_negative(*w, sizes);
    if (a.reads_per_iteration == 0 && a.writes_per_iteration == 0)
        n.fail(fmt::format("array '{}' has neither 'reads' nor 'writes' per iteration", a.name));
    if (const auto wa = n.optional("write_allocate")) a.write_allocate = wa->as_bool();
    if (const auto where = n.optional("resident_in")) {
        a.resident_in = where->as_string();
        if (!is_known_residence(a.resident_in)) where->expected("registers, L1, L2, L3 or memory");
        if (a.resident_in == "memory" || a.resident_in == "DRAM") a.resident_in.clear();
    }
    return a;
}

KernelSpec kernel_from(const YamlNode& n, const Sizes& shared_sizes) {
    n.require_map();
    if (n.has("peak") && n.has("bandwidth")) n.fail("this is a spec-sheet machine, not a kernel spec: pass it with --machine");
    n.allow_only({"name", "description", "work_unit", "work_per_iteration", "flops", "iterations", "sizes", "arrays"});
    KernelSpec k;
    k.name = n.required("name", "the kernel's name").as_string();
    if (const auto d = n.optional("description")) k.description = d->as_string();
    k.sizes = shared_sizes;
    if (const auto s = n.optional("sizes")) k.sizes = sizes_from(*s, shared_sizes);

    if (n.has("flops") && (n.has("work_per_iteration") || n.has("work_unit")))
        n.child("flops").fail("give either 'flops' or 'work_per_iteration' (with 'work_unit'), not both");
    if (const auto f = n.optional("flops")) {
        k.work_per_iteration = non_negative(*f, k.sizes);
    } else {
        k.work_per_iteration = non_negative(n.required("work_per_iteration", "the work of one iteration, or 'flops'"), k.sizes);
        if (const auto u = n.optional("work_unit")) k.work_unit = u->as_string();
        if (k.work_unit.empty()) n.child("work_unit").expected("a unit name such as FLOP, IOP or exchange");
    }
    if (const auto it = n.optional("iterations")) {
        k.iterations = it->as_expression(k.sizes);
        if (!(*k.iterations > 0)) it->expected("a positive iteration count");
        k.iterations_text = it->as_string();
    }
    const auto arrays = n.required("arrays", "a list of the arrays the loop touches");
    for (const auto& item : arrays.elements()) k.arrays.push_back(array_from(item, k.sizes));
    // Each figure may be finite while their product is not (1e200 FLOP x 1e200
    // iterations): the totals must be counts the model can judge and draw.
    const Point total = point_from_spec(k);
    if (!in_range(count_range, total.work))
        n.fail(fmt::format("the kernel's total work is {:g} {}; expected {}", total.work, k.work_unit, count_range.what));
    for (const auto& [level, bytes] : total.bytes)
        if (!in_range(count_range, bytes))
            n.fail(fmt::format("the kernel's total bytes at {} are {:g}; expected {}", level, bytes, count_range.what));
    return k;
}

} // namespace

double element_bytes_of_type(const std::string& type) {
    static const std::map<std::string, double> bytes{
        {"double", 8}, {"float64", 8}, {"float", 4}, {"float32", 4}, {"half", 2}, {"float16", 2},
        {"int8", 1},   {"int16", 2},   {"int32", 4}, {"int64", 8},   {"complex", 16}, {"complex_float", 8}};
    const auto it = bytes.find(type);
    return it == bytes.end() ? 0 : it->second;
}

std::vector<KernelSpec> kernel_specs_from_yaml(const std::string& text, const std::string& source) {
    std::vector<KernelSpec> specs;
    for (const auto& document : parse_yaml_documents(text, source)) {
        document.require_map();
        if (!document.has("kernels")) {
            specs.push_back(kernel_from(document, {}));
            continue;
        }
        document.allow_only({"kernels", "sizes", "description"});
        Sizes shared;
        if (const auto s = document.optional("sizes")) shared = sizes_from(*s, {});
        const auto list = document.child("kernels");
        for (const auto& item : list.elements()) specs.push_back(kernel_from(item, shared));
        if (list.elements().empty()) list.fail("the 'kernels' list is empty");
    }
    return specs;
}

std::vector<KernelSpec> read_kernel_spec_file(const std::string& path) {
    return kernel_specs_from_yaml(read_text_file(path), path);
}

} // namespace roofline
