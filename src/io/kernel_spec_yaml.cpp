#include "io/kernel_spec_yaml.hpp"

#include "core/input_limits.hpp"
#include "core/kernel_spec_roofs.hpp"
#include "core/message_name.hpp"
#include "core/precision.hpp"

#include "io/machine_json.hpp"
#include "io/text_file.hpp"
#include "io/yaml_node.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace roofline {
namespace {

using Sizes = std::map<std::string, double>;

// The order in which a sizes map's entries can be computed: each after the sizes
// of the same map it uses (a YAML map has no order of its own). A size that uses
// its own name means the inherited one (N: 2*N doubles the file's shared N).
// Sizes that use each other in a cycle have no value: refused, naming the cycle.
// Depth-first without recursion, so a long chain of sizes cannot exhaust the stack.
std::vector<std::size_t> evaluation_order(const std::vector<std::pair<std::string, YamlNode>>& entries) {
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < entries.size(); ++i) index[entries[i].first] = i;
    std::vector<std::vector<std::size_t>> uses(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i)
        for (const auto& name : entries[i].second.expression_names())
            if (const auto it = index.find(name); it != index.end() && it->second != i) uses[i].push_back(it->second);

    enum class State { unvisited, in_progress, done };
    std::vector<State> state(entries.size(), State::unvisited);
    std::vector<std::size_t> order;
    for (std::size_t root = 0; root < entries.size(); ++root) {
        if (state[root] != State::unvisited) continue;
        std::vector<std::pair<std::size_t, std::size_t>> path{{root, 0}};  // entry, next of its uses to visit
        state[root] = State::in_progress;
        while (!path.empty()) {
            const std::size_t i = path.back().first;
            if (path.back().second == uses[i].size()) {
                state[i] = State::done;
                order.push_back(i);
                path.pop_back();
                continue;
            }
            const std::size_t used = uses[i][path.back().second++];
            if (state[used] == State::in_progress) {
                std::string cycle;
                bool in_cycle = false;
                for (const auto& step : path) {
                    in_cycle = in_cycle || step.first == used;
                    if (in_cycle) cycle += entries[step.first].first + " -> ";
                }
                entries[i].second.fail(
                    fmt::format("sizes refer to each other in a cycle ({}), so none of them has a value",
                                cycle + entries[used].first));
            }
            if (state[used] == State::unvisited) {
                state[used] = State::in_progress;
                path.emplace_back(used, 0);
            }
        }
    }
    return order;
}

Sizes sizes_from(const YamlNode& n, Sizes inherited) {
    const auto entries = n.entries();
    std::vector<std::string> known;  // every size in scope, for a message naming one that is not
    for (const auto& [name, _] : inherited) known.push_back(name);
    for (const auto& [name, _] : entries)
        if (!inherited.count(name)) known.push_back(name);
    for (const std::size_t i : evaluation_order(entries)) {
        const auto& [name, value] = entries[i];
        const auto used = value.expression_names();
        if (!inherited.count(name) && std::find(used.begin(), used.end(), name) != used.end())
            value.fail(fmt::format("size '{}' refers to itself and no shared size '{}' is defined, so it has no value",
                                   name, name));
        const double v = value.as_expression(inherited, known);
        if (!(v > 0)) value.fail(fmt::format("size '{}' must be positive", name));
        inherited[name] = v;
    }
    return inherited;
}

double non_negative(const YamlNode& n, const Sizes& sizes) {
    const double v = n.as_expression(sizes);
    if (v < 0) n.fail(fmt::format("expected a number >= 0, found {}", v));
    return v == 0 ? 0.0 : v;  // -0 is 0 (it would print as "-0 FLOP")
}

ArraySpec array_from(const YamlNode& n, const Sizes& sizes) {
    n.require_map();
    n.allow_only({"name", "type", "element_bytes", "elements", "reads", "writes", "write_allocate", "non_temporal",
                  "resident_in", "stride", "lines_kept_in", "per_thread"});
    ArraySpec a;
    a.name = n.required("name", "the array's name").as_string();
    if (a.name.empty()) n.child("name").expected("the array's name (not empty)");
    if (n.has("type") && n.has("element_bytes")) n.child("type").fail("give either 'type' or 'element_bytes', not both");
    if (const auto type = n.optional("type")) {
        a.type = type->as_string();
        a.element_bytes = element_bytes_of_type(a.type);
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
    if (const auto e = n.optional("elements")) {
        a.elements = e->as_expression(sizes);
        // Less than one element is no size (a per-iteration fraction belongs in reads/writes).
        if (!(*a.elements >= 1)) e->expected("a number of elements of at least 1 (the operand's size)");
    }
    if (const auto pt = n.optional("per_thread")) {
        a.per_thread = pt->as_bool();
        if (a.per_thread && !a.elements)
            pt->fail(fmt::format("array '{}': 'per_thread' says 'elements' is each thread's: give 'elements'", a.name));
    }
    if (const auto where = n.optional("resident_in")) {
        a.resident_given = true;
        a.resident_in = where->as_string();
        if (!is_known_residence(a.resident_in)) where->expected("registers, L1, L2, L3 or memory");
        if (a.resident_in == "memory" || a.resident_in == "DRAM") a.resident_in.clear();
    }
    if (const auto st = n.optional("stride")) {
        if (st->is_scalar() && st->as_string() == "random") {
            a.random = true;
        } else {
            a.stride = st->as_expression(sizes);
            if (!(a.stride >= 1))
                st->expected("'random' or a stride in elements of at least 1 (1: the next element, the default)");
        }
    }
    if (const auto kept = n.optional("lines_kept_in")) {
        a.lines_kept_in = kept->as_string();
        if (a.lines_kept_in != "L1" && a.lines_kept_in != "L2" && a.lines_kept_in != "L3")
            kept->expected("L1, L2 or L3 (the cache that keeps each line until the loop has used all of it)");
        if (!scattered_access(a))
            kept->fail(fmt::format("array '{}' is accessed element after element: 'lines_kept_in' is for a 'stride' "
                                   "above 1 or 'random'",
                                   a.name));
        // A line kept where the operand stays anyway says nothing: it crosses no level below.
        const auto& levels = spec_levels();
        const auto depth = [&](const std::string& l) {
            return std::find(levels.begin(), levels.end(), l) - levels.begin();
        };
        if (a.resident_in == "registers" || (!a.resident_in.empty() && depth(a.resident_in) <= depth(a.lines_kept_in)))
            kept->fail(fmt::format("array '{}' stays in {}: its lines cannot be kept in {}, further out",
                                   a.name, a.resident_in, a.lines_kept_in));
    }
    if (const auto nt = n.optional("non_temporal"); nt && nt->as_bool()) {
        // Streaming stores of scattered elements write partial lines through the
        // write-combining buffers, which the model does not describe.
        if (scattered_access(a))
            nt->fail(fmt::format("array '{}' is accessed with a stride or at random: non-temporal stores are "
                                 "modelled for contiguous operands only",
                                 a.name));
        // Streaming stores bypass the caches and never read for ownership: they
        // contradict an array kept in a cache or registers, or a write-allocate.
        if (a.writes_per_iteration == 0)
            nt->fail(fmt::format("array '{}' is stored non-temporally but has no 'writes'", a.name));
        if (!a.resident_in.empty())
            n.child("resident_in")
                .fail(fmt::format("array '{}' has non-temporal stores, which bypass the caches: it cannot stay in {}",
                                  a.name, a.resident_in));
        if (n.has("write_allocate") && a.write_allocate)
            n.child("write_allocate").fail("non-temporal stores read nothing for ownership: drop 'write_allocate: true'");
        a.non_temporal = true;
        a.write_allocate = false;
    }
    return a;
}

KernelSpec kernel_from(const YamlNode& n, const Sizes& shared_sizes) {
    n.require_map();
    if (n.has("peak") && n.has("bandwidth")) n.fail("this is a spec-sheet machine, not a kernel spec: pass it with --machine");
    n.allow_only({"name", "description", "work_unit", "work_per_iteration", "flops", "precision", "isa", "iterations",
                  "sizes", "arrays"});
    KernelSpec k;
    k.name = n.required("name", "the kernel's name").as_string();
    if (k.name.empty()) n.child("name").expected("the kernel's name (not empty)");
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
        if (!is_valid_work_unit_name(k.work_unit))
            n.child("work_unit").expected("a unit name such as FLOP, IOP or exchange (a letter, then letters, digits, "
                                          "'_', '-', '.' or spaces, at most 32)");
    }
    if (const auto p = n.optional("precision")) {
        // Which FLOPs these are, where the operands' types cannot say (float and double mixed).
        if (k.work_unit != "FLOP") p->fail(fmt::format("'precision' is for FLOP work, not {}", k.work_unit));
        const auto canonical = canonical_precision(p->as_string());
        if (!canonical || !is_flop_precision(*canonical))
            p->expected("dp or sp (double, fp64, single, fp32 ... are read too)");
        k.precision = *canonical;
    }
    if (const auto isa = n.optional("isa")) {
        // The code's instruction set: its vector width bounds the compute and L1/L2 roofs.
        k.isa = isa->as_string();
        if (!spec_isa(k.isa))
            isa->expected(fmt::format("the instruction set the loop's code is built for: {}",
                                      fmt::join(spec_isa_names(), ", ")));
    }
    if (const auto it = n.optional("iterations")) {
        k.iterations = it->as_expression(k.sizes);
        if (!(*k.iterations > 0)) it->expected("a positive iteration count");
        k.iterations_text = it->as_string();
    }
    const auto arrays = n.required("arrays", "a list of the arrays the loop touches");
    std::map<std::string, std::string> array_at;  // name -> where it was first declared
    for (const auto& item : arrays.elements()) {
        k.arrays.push_back(array_from(item, k.sizes));
        // Two entries of one array count its traffic apart: 'a' read in one and written in the
        // other paid a write-allocate read that one entry with reads and writes does not.
        const auto [first, fresh] = array_at.emplace(k.arrays.back().name, item.location());
        if (!fresh)
            item.fail(fmt::format("array '{}' is declared twice in kernel '{}' (first at {}): give it one entry with "
                                  "its reads and writes", message_excerpt(first->first), message_excerpt(k.name),
                                  first->second));
    }
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
        std::map<std::string, std::string> kernel_at;  // name -> where it was first given
        for (const auto& item : list.elements()) {
            specs.push_back(kernel_from(item, shared));
            // Its points are named by the kernel: two of one name could not be told apart in
            // the points file, report or compare.
            const auto [first, fresh] = kernel_at.emplace(specs.back().name, item.location());
            if (!fresh)
                item.fail(fmt::format("kernel '{}' is named twice (first at {}): give each kernel its own name",
                                      message_excerpt(first->first), first->second));
        }
        if (list.elements().empty()) list.fail("the 'kernels' list is empty");
    }
    return specs;
}

std::vector<KernelSpec> read_kernel_spec_file(const std::string& path) {
    return kernel_specs_from_yaml(read_text_file(path), path);
}

} // namespace roofline
