#include "bench/reference_kernel_registry.hpp"

#include "bench/reference_family.hpp"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace roofline {

std::vector<ReferenceKernelCode> reference_kernel_code() {
    std::vector<ReferenceKernelCode> out;
    append_stream_kernels(out);
    append_sum_kernels(out);
    append_stencil_kernels(out);
    append_dense_kernels(out);
    append_sparse_kernels(out);
    append_fft_kernels(out);
    return out;
}

std::vector<std::string> reference_registry_problems(const std::vector<ReferenceKernel>& table,
                                                     const std::vector<ReferenceKernelCode>& code) {
    std::vector<std::string> problems;
    for (std::size_t i = 0; i < table.size(); ++i) {
        if (static_cast<std::size_t>(table[i].id) != i)
            problems.push_back(fmt::format("{}: row {} of the table has id {}", table[i].name, i,
                                           static_cast<std::size_t>(table[i].id)));
        const auto registered = std::count_if(code.begin(), code.end(),
                                              [&](const ReferenceKernelCode& c) { return c.id == table[i].id; });
        if (registered == 0) problems.push_back(fmt::format("{} has counts but no code", table[i].name));
        if (registered > 1) problems.push_back(fmt::format("{} has code {} times", table[i].name, registered));
    }
    for (const auto& c : code) {
        const bool counted = std::any_of(table.begin(), table.end(), [&](const ReferenceKernel& k) { return k.id == c.id; });
        if (!counted) problems.push_back(fmt::format("code for kernel id {} has no counts", static_cast<std::size_t>(c.id)));
        if (!c.make) problems.push_back(fmt::format("code for kernel id {} makes nothing", static_cast<std::size_t>(c.id)));
    }
    return problems;
}

const std::vector<RegisteredReferenceKernel>& reference_kernel_registry() {
    static const std::vector<RegisteredReferenceKernel> registry = [] {
        const auto& table = reference_kernels();
        const auto code = reference_kernel_code();
        if (const auto problems = reference_registry_problems(table, code); !problems.empty())
            throw std::logic_error(fmt::format("the reference kernels' counts and code do not match: {}",
                                               fmt::join(problems, "; ")));
        std::vector<RegisteredReferenceKernel> out;
        for (const auto& k : table) {
            const auto c = std::find_if(code.begin(), code.end(), [&](const ReferenceKernelCode& e) { return e.id == k.id; });
            out.push_back({&k, c->make});
        }
        return out;
    }();
    return registry;
}

const RegisteredReferenceKernel& registered_reference_kernel(ReferenceKernelId id) {
    return reference_kernel_registry().at(static_cast<std::size_t>(id));
}

const RegisteredReferenceKernel* find_registered_reference_kernel(const std::string& name) {
    for (const auto& k : reference_kernel_registry())
        if (k.name() == name) return &k;
    return nullptr;
}

} // namespace roofline
