#include "render/kept_tally_text.hpp"

#include "render/number_format.hpp"

#include <fmt/format.h>

namespace roofline {

std::string kept_tally_text(const KeptTally& t, const std::string& noun, const std::string& of,
                            const std::string& stored_where, const std::string& kept_where) {
    if (t.all_stored()) return fmt::format("{}{} stored{}", count_of(t.stored, noun), of, stored_where);
    std::string s = fmt::format("{}{} taken: {} stored{}", count_of(t.taken(), noun), of, t.stored,
                                t.stored > 0 ? stored_where : std::string());
    if (t.refused > 0) s += fmt::format(", {} refused ({})", t.refused, t.refused_why);
    if (t.unstored > 0) s += fmt::format(", {} not stored ({})", t.unstored, t.unstored_why);
    const auto is_are = [](long long n) { return n == 1 ? "is" : "are"; };
    if (t.lost() == 0)
        s += fmt::format("; {} kept in {}", t.not_stored() == 1 ? "it is" : "they are", kept_where);
    else if (t.kept_elsewhere > 0)
        s += fmt::format("; {} {} kept in {}, {} {} lost", t.kept_elsewhere, is_are(t.kept_elsewhere), kept_where,
                         t.lost(), is_are(t.lost()));
    else
        s += fmt::format("; {} lost", t.not_stored() == 1 ? "it is" : "they are");
    return s;
}

} // namespace roofline
