#include "render/kernel_table.hpp"

#include "render/number_format.hpp"
#include "render/text_escape.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace roofline {

std::string kernel_table_text(const std::vector<KernelInfo>& kernels) {
    std::string out = fmt::format("{:<26} {:<9} {:<6} {:>4} {:<4} {:<9} {:>12} {:>16}  {}\n", "kernel", "kind", "isa",
                                  "bits", "prec", "what", "FLOP", "bytes (+WA)", "here");
    int supported = 0;
    for (const auto& k : kernels) {
        const std::string per = k.unit == "iteration" ? "/it" : "/el";
        const std::string bytes =
            k.kind == KernelKind::compute ? "-"
                                : (k.bytes_write_allocate != k.bytes ? fmt::format("{:g} ({:g}){}", k.bytes, k.bytes_write_allocate, per)
                                                                     : fmt::format("{:g}{}", k.bytes, per));
        out += fmt::format("{:<26} {:<9} {:<6} {:>4} {:<4} {:<9} {:>12} {:>16}  {}\n", k.name, kernel_kind_name(k.kind), k.isa,
                           k.vector_bits, k.precision, k.what, fmt::format("{:g}{}", k.flops, per), bytes,
                           k.supported ? "yes" : "no");
        supported += k.supported;
    }
    // "1 kernel, which runs on this CPU", "3 kernels, 1 of them runs on this CPU", "0 kernels".
    const std::string here =
        kernels.empty()       ? std::string()
        : kernels.size() == 1 ? (supported ? ", which runs on this CPU" : ", which does not run on this CPU")
                              : fmt::format(", {} of them {} on this CPU", supported, supported == 1 ? "runs" : "run");
    out += fmt::format(
        "\n{}{}. FLOP and bytes per iteration (/it: one step of every chain) or "
        "per element (/el: one 8-byte element of the stream); (+WA): with the write-allocate reads of ordinary "
        "stores. Select with --kernel NAME[,NAME] or --isa sse2|avx2|avx512.\n",
        count_of(static_cast<long long>(kernels.size()), "kernel"), here);
    return terminal_block(out);
}

std::string kernel_table_json(const std::vector<KernelInfo>& kernels) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& k : kernels)
        list.push_back({{"name", k.name},
                        {"kind", kernel_kind_name(k.kind)},
                        {"isa", k.isa},
                        {"vector_bits", k.vector_bits},
                        {"precision", k.precision},
                        {"what", k.what},
                        {"unit", k.unit},
                        {"flops", k.flops},
                        {"bytes", k.bytes},
                        {"bytes_write_allocate", k.bytes_write_allocate},
                        {"supported", k.supported}});
    return nlohmann::json{{"schema", "roofline.kernels/1"}, {"kernels", list}}.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace roofline
