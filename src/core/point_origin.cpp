#include "core/point_origin.hpp"

#include "core/name_table.hpp"

namespace roofline {

namespace {

constexpr NameTable<PointOrigin, 12> kNames{{
    {PointOrigin::none, ""},
    {PointOrigin::instrument, "instrument"},
    {PointOrigin::instrument_calltiming, "instrument+calltiming"},
    {PointOrigin::instrument_sampling, "instrument+sampling"},
    {PointOrigin::instrument_callstacks, "instrument+callstacks"},
    {PointOrigin::perf, "perf"},
    {PointOrigin::time, "time"},
    {PointOrigin::ncu, "ncu"},
    {PointOrigin::monitor, "monitor"},
    {PointOrigin::kernel, "kernel"},
    {PointOrigin::analytic, "analytic"},
    {PointOrigin::model, "model"},
}};

constexpr std::array<PointOrigin, kNames.size()> known() {
    std::array<PointOrigin, kNames.size()> out{};
    for (std::size_t i = 0; i < kNames.size(); ++i) out[i] = kNames[i].value;
    return out;
}
constexpr auto kKnown = known();

} // namespace

const char* point_origin_name(PointOrigin origin) { return name_of(kNames, origin, "other"); }

std::optional<PointOrigin> parse_point_origin(std::string_view name) { return value_of(kNames, name); }

std::span<const PointOrigin> known_point_origins() { return kKnown; }

PointSource PointSource::from_name(std::string_view name) {
    if (const auto o = parse_point_origin(name)) return PointSource(*o);
    PointSource s(PointOrigin::other);
    s.other_ = std::string(name);
    return s;
}

std::string PointSource::name() const {
    return origin_ == PointOrigin::other && !other_.empty() ? other_ : std::string(point_origin_name(origin_));
}

} // namespace roofline
