#include "cli/point_delivery.hpp"

#include "cli/messages.hpp"
#include "cli/result_output.hpp"
#include "io/points_json.hpp"
#include "io/results_store.hpp"
#include "io/text_file.hpp"
#include "render/text_escape.hpp"
#include "core/command_series.hpp"
#include "core/message_name.hpp"

#include <fmt/core.h>

#include <unistd.h>

namespace roofline::cli {

bool deliver_points(const std::vector<Point>& points, const Provenance& provenance, const PointDestinations& to) {
    if (points.empty()) return true;
    bool ok = true;
    if (!to.output.empty()) {
        try {
            write_points_file(to.output, points, &provenance);
            if (!to.quiet) print_stderr("roofline: {} written to {}\n", to.what, output_name(to.output));
        } catch (const std::exception& e) {
            print_stderr("roofline: error: {} could not be written to {}: {}\n", to.what, output_name(to.output),
                         e.what());
            ok = false;
        }
    }
    if (to.store) {
        try {
            ResultsStore* store = to.store();
            const auto id = store->save_points(to.set_name, points, to.machine_id, &provenance, to.cache_keys);
            if (!to.quiet) print_stderr("roofline: stored as point set #{} in {}\n", id, terminal_text(store->path()));
        } catch (const std::exception& e) {
            print_stderr("roofline: error: {} could not be stored: {}\n", to.what, e.what());
            ok = false;
        }
    }
    if (!ok) rescue_points(points, provenance, fmt::format("roofline-points-{}.json", ::getpid()), to.what);
    return ok;
}

void rescue_points(const std::vector<Point>& points, const Provenance& provenance, const std::string& file_name,
                   const std::string& what) {
    try {
        const auto path = write_somewhere_safe(
            file_name, [&](const std::string& p) { write_points_file(p, points, &provenance); });
        print_stderr("roofline: {} were kept in {} instead (a points file: 'roofline report --points {}' reads it)\n",
                   what, message_name(path), message_name(command_line_text({path})));
    } catch (const std::exception& e) {
        print_stderr("roofline: error: {} could not be kept anywhere ({}); they are lost\n", what, e.what());
    }
}

} // namespace roofline::cli
