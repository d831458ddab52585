// The interactive chart: one HTML file with the SVG inline, the numbers behind
// it as JSON in a <script type="application/json"> element, and a small script
// of our own for tooltips and toggles. No network: a Content-Security-Policy
// forbids any fetch, and nothing refers outside the file.
#include "render/chart.hpp"
#include "render/chart_layout.hpp"
#include "render/markup_escape.hpp"
#include "render/svg_chart.hpp"
#include "render/timing_text.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace roofline {
namespace {

using nlohmann::json;

const char* line_kind_text(LineKind kind) {
    switch (kind) {
    case LineKind::compute_roof: return "compute roof";
    case LineKind::bandwidth_roof: return "bandwidth roof";
    case LineKind::compute_ceiling: return "compute ceiling";
    case LineKind::bandwidth_ceiling: return "bandwidth ceiling";
    case LineKind::intensity_line: return "intensity line";
    }
    return "line";
}

// JSON has no NaN or infinity; such numbers become null.
json number(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }

json chart_data(const ChartInput& input, const ChartLayout& layout) {
    json data;
    data["view"] = view_name(layout.view);
    data["work_unit"] = layout.work_unit;
    data["machines"] = json::array();
    for (const auto& m : layout.machines) data["machines"].push_back({{"label", m.label}, {"colour", m.colour}});

    data["lines"] = json::array();
    for (const auto& line : layout.lines) {
        json j = {{"kind", line_kind_text(line.kind)}, {"name", line.name}, {"value", number(line.value)}, {"unit", line.unit}};
        if (line.kind != LineKind::intensity_line) j["machine"] = line.machine;
        if (!line.level.empty()) j["level"] = line.level;
        if (!line.advice.empty()) j["advice"] = line.advice;
        if (line.kind == LineKind::bandwidth_roof && line.machine < input.machines.size()) {
            const double peak = input.machines[line.machine].compute.value;
            if (peak > 0) j["ridge"] = number(ridge_point(peak, line.value));
        }
        data["lines"].push_back(std::move(j));
    }
    data["ridges"] = json::array();
    for (const auto& ridge : layout.ridges)
        data["ridges"].push_back({{"machine", ridge.machine}, {"level", ridge.level},
                                  {"intensity", number(ridge.intensity)}, {"performance", number(ridge.performance)}});

    // Per point: its numbers, and per machine where it stands (compact arrays:
    // attainable, efficiency, binding roof) to keep 10,000 points small.
    data["points"] = json::array();
    for (const auto& plotted : layout.points) {
        const Point& p = input.points[plotted.input];
        json j = {{"name", p.name}, {"performance", number(plotted.performance)}, {"work", number(p.work)},
                  {"work_unit", p.work_unit}, {"seconds", number(p.seconds)}, {"threads", p.threads}};
        if (!p.label.empty()) j["label"] = p.label;
        if (!p.series.empty()) j["series"] = p.series;
        if (!p.source.empty()) j["source"] = p.source.name();
        if (auto timed = point_timing_text(p); !timed.empty()) j["timed"] = std::move(timed);
        json levels = json::object();
        for (std::size_t index : plotted.markers) levels[layout.markers[index].level] = number(layout.markers[index].intensity);
        j["intensity"] = std::move(levels);
        json standing = json::array();
        for (const auto& machine : input.machines) {
            const Analysis a = analyze(machine, p, input.view);
            standing.push_back({number(a.attainable), number(a.efficiency), a.binding_roof});
        }
        j["on"] = std::move(standing);
        data["points"].push_back(std::move(j));
    }

    // The toggles: ids are ours (letters and digits), texts are data.
    json groups = json::array();
    const bool any_ceiling = std::any_of(layout.lines.begin(), layout.lines.end(), [](auto& l) { return is_ceiling(l.kind); });
    if (any_ceiling) groups.push_back({{"id", "ceiling"}, {"text", "ceilings"}, {"colour", "#8c8c8c"}});
    const bool any_guide = std::any_of(layout.lines.begin(), layout.lines.end(),
                                       [](auto& l) { return l.kind == LineKind::intensity_line; });
    if (any_guide) groups.push_back({{"id", "guide"}, {"text", "intensity lines"}, {"colour", "#6f6f6f"}});
    for (std::size_t m = 0; m < layout.machines.size(); ++m)
        groups.push_back({{"id", fmt::format("m{}", m)},
                          {"text", layout.multi_machine ? fmt::format("[{}] {}", m + 1, layout.machines[m].label)
                                                        : layout.machines[m].label},
                          {"colour", layout.machines[m].colour}});
    for (std::size_t s = 0; s < layout.series.size(); ++s)
        groups.push_back({{"id", fmt::format("s{}", s)}, {"text", "series " + layout.series[s].name},
                          {"colour", layout.series[s].colour}});
    if (std::any_of(layout.points.begin(), layout.points.end(), [](auto& p) { return p.series < 0; }))
        groups.push_back({{"id", "pfree"}, {"text", "points without a series"}, {"colour", "#444444"}});
    data["groups"] = std::move(groups);
    return data;
}

constexpr std::string_view page_style = R"css(
body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;margin:16px;color:#222;background:#fff}
#controls{margin:0 0 8px 0;font-size:13px}
#controls fieldset{border:1px solid #ccc;border-radius:4px;padding:6px 10px;display:flex;flex-wrap:wrap;gap:4px 14px}
#controls label{cursor:pointer;white-space:nowrap}
.swatch{display:inline-block;width:14px;height:4px;margin:0 5px 3px 2px;vertical-align:middle}
#chart svg{max-width:100%;height:auto}
#chart [data-tip]{cursor:crosshair}
#chart .hit{pointer-events:stroke}
#tip{position:fixed;pointer-events:none;background:#fffff4;border:1px solid #888;border-radius:3px;padding:5px 8px;
 font-size:12px;white-space:pre;box-shadow:1px 2px 4px rgba(0,0,0,.25);max-width:520px}
#summary{font-size:12px;color:#555}
)css";

// Our own script. Data reaches the page only through textContent and
// createTextNode, never as markup.
constexpr std::string_view page_script = R"js(
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('roofline-data').textContent);
  var svg = document.querySelector('#chart svg');
  var tip = document.getElementById('tip');
  var toggles = document.getElementById('toggles');
  var rules = [];
  data.groups.forEach(function (group) {
    if (!/^[a-z0-9]+$/.test(group.id)) return;
    var label = document.createElement('label');
    var box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = true;
    box.className = 'toggle';
    box.setAttribute('data-group', group.id);
    box.addEventListener('change', function () { svg.classList.toggle('off-' + group.id, !box.checked); });
    var swatch = document.createElement('span');
    swatch.className = 'swatch';
    if (/^#[0-9a-fA-F]{6}$/.test(group.colour)) swatch.style.background = group.colour;
    label.appendChild(box);
    label.appendChild(swatch);
    label.appendChild(document.createTextNode(group.text));
    toggles.appendChild(label);
    rules.push('svg.off-' + group.id + ' .' + group.id + '{display:none}');
  });
  var style = document.createElement('style');
  style.textContent = rules.join('\n');
  document.head.appendChild(style);

  function num(v) {
    if (v === null || v === undefined) return '?';
    if (v === 0) return '0';
    var a = Math.abs(v);
    return a >= 100 ? v.toFixed(1) : v.toPrecision(3);
  }
  function machineName(i) {
    var m = data.machines[i];
    return m ? (data.machines.length > 1 ? '[' + (i + 1) + '] ' : '') + m.label : '';
  }
  function describe(id) {
    var index = Number(id.slice(1));
    var out = [];
    if (id[0] === 'l') {
      var line = data.lines[index];
      out.push(line.name + ': ' + num(line.value) + ' ' + line.unit);
      out.push(line.kind + (line.machine !== undefined ? ' of ' + machineName(line.machine) : ''));
      if (line.ridge !== undefined) out.push('ridge point at ' + num(line.ridge) + ' ' + data.work_unit + '/byte');
      if (line.advice) out.push('to rise above it: ' + line.advice);
    } else if (id[0] === 'r') {
      var ridge = data.ridges[index];
      out.push('ridge point ' + ridge.level + ': ' + num(ridge.intensity) + ' ' + data.work_unit + '/byte');
      out.push('at ' + num(ridge.performance) + ' G' + data.work_unit + '/s, ' + machineName(ridge.machine));
    } else if (id[0] === 'p') {
      var p = data.points[index];
      out.push(p.name + (p.label && p.label !== p.name ? ' (' + p.label + ')' : ''));
      if (p.series) out.push('series ' + p.series);
      out.push(num(p.performance) + ' G' + p.work_unit + '/s, ' + p.threads + ' thread' + (p.threads === 1 ? '' : 's') +
               (p.source ? ', ' + p.source : ''));
      if (p.timed) out.push('time: ' + num(p.seconds) + ' s, ' + p.timed);
      Object.keys(p.intensity).forEach(function (level) {
        out.push('intensity at ' + level + ': ' + num(p.intensity[level]) + ' ' + p.work_unit + '/byte');
      });
      p.on.forEach(function (s, i) {
        out.push(machineName(i) + ': attainable ' + num(s[0]) + ' G' + p.work_unit + '/s, ' + num(100 * s[1]) + '% of it, bound by ' + s[2]);
      });
    }
    return out.join('\n');
  }
  svg.addEventListener('mousemove', function (event) {
    var target = event.target.closest ? event.target.closest('[data-tip]') : null;
    if (!target) { tip.hidden = true; return; }
    tip.textContent = describe(target.getAttribute('data-tip'));
    tip.hidden = false;
    var x = event.clientX + 14, y = event.clientY + 14;
    if (x + tip.offsetWidth > window.innerWidth) x = event.clientX - tip.offsetWidth - 8;
    if (y + tip.offsetHeight > window.innerHeight) y = event.clientY - tip.offsetHeight - 8;
    tip.style.left = x + 'px';
    tip.style.top = y + 'px';
  });
  svg.addEventListener('mouseleave', function () { tip.hidden = true; });
  document.getElementById('summary').textContent =
    'interactive: ' + data.lines.length + ' roofs and lines, ' + data.points.length + ' points; hover for numbers';
})();
)js";

} // namespace

std::string render_html(const ChartInput& input) {
    const ChartLayout layout = layout_chart(input, svg_canvas());
    std::string page;
    page.reserve(1 << 16);
    page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    // Offline by construction: the page may load nothing from anywhere.
    page += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n";
    page += fmt::format("<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n", xml_escape(layout.title), page_style);
    page += "<div id=\"controls\"><fieldset id=\"toggles\"><legend>Show</legend></fieldset></div>\n";
    page += "<div id=\"chart\">\n";
    page += svg_from_layout(layout, true);
    page += "</div>\n<p id=\"summary\">static chart (the script did not run)</p>\n<div id=\"tip\" hidden></div>\n";
    page += "<script type=\"application/json\" id=\"roofline-data\">";
    page += json_for_script(chart_data(input, layout).dump(-1, ' ', false, json::error_handler_t::replace));
    page += "</script>\n<script>";
    page += page_script;
    page += "</script>\n</body>\n</html>\n";
    return page;
}

} // namespace roofline
