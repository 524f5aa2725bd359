#include "conclave/whatif/SpeedupProfile.h"

#include "conclave/whatif/WhatIfText.h"

#include <cstdio>

namespace conclave {

namespace {

using whatif_text::percentOf;
using whatif_text::seconds;

constexpr size_t kHalf = 2; // kPercents[2] == 50

nlohmann::ordered_json ms(int64_t us)
{
    return double(us) / 1e3;
}

} // namespace

std::string SpeedupProfile::headline() const
{
    const std::string of = trials > 1 ? " p50 over " + std::to_string(trials) + " trials" : "";
    if (rows.empty())
        return "out of " + seconds(wall.p50) + of + ", no agent called a model";
    const auto& best = rows.front();
    std::string out = "out of " + seconds(wall.p50) + of + ", making " + best.node.str() + " 50 % faster saves " +
                      seconds(savedUs(best, kHalf)) + " (" + percentOf(savedUs(best, kHalf), wall.p50) + ")";
    for (size_t i = 1; i < rows.size() && i < 3; ++i)
        out += "; " + rows[i].node.str() + ": " + seconds(savedUs(rows[i], kHalf));
    return out;
}

std::string SpeedupProfile::text() const
{
    const bool ofDesign = trials > 1 || !experiment.empty();
    std::string out = ofDesign ? "speed-up profile of design \"" + this->design + "\" of experiment " + experiment +
                                   " (" + team + ", " + std::to_string(trials) + (trials == 1 ? " trial" : " trials") +
                                   "), projected on the simulated clock from each trial's own calls\n"
                             : "speed-up profile of run " + run + " (" + team +
                                   "), projected on the simulated clock from its own calls\n";
    out += headline() + "\n";
    if (ofDesign)
        out += "wall: p50 " + seconds(wall.p50) + ", p95 " + seconds(wall.p95) + "\n";
    size_t width = 5;
    for (const auto& row : rows)
        width = std::max(width, row.node.str().size());
    const int column = ofDesign ? 21 : 12;
    char line[256];
    std::snprintf(line, sizeof line, "%-*s %*s %*s %*s %*s\n", int(width), "agent", column, "10 % faster", column,
                  "25 % faster", column, "50 % faster", column, "100 % faster");
    out += line;
    for (const auto& row : rows) {
        std::string cells[4];
        for (size_t level = 0; level < kPercents.size(); ++level)
            cells[level] = seconds(savedUs(row, level)) +
                           (ofDesign ? " / " + seconds(savedP95Us(row, level)) : std::string());
        std::snprintf(line, sizeof line, "%-*s %*s %*s %*s %*s\n", int(width), row.node.str().c_str(), column,
                      cells[0].c_str(), column, cells[1].c_str(), column, cells[2].c_str(), column, cells[3].c_str());
        out += line;
    }
    for (const auto& b : backends) {
        out += "backend " + b.backend.str() + ": max_concurrency " + std::to_string(b.from) + " → " +
               std::to_string(b.to) + " saves " + seconds(wall.p50 - b.wall.p50) + " (" +
               percentOf(wall.p50 - b.wall.p50, wall.p50) + ")";
        out += ofDesign ? " p50, " + seconds(wall.p95 - b.wall.p95) + " p95\n" : "\n";
    }
    out += ofDesign ? "the p50 / p95 wall saved when that agent alone is faster (100 %: instant); a projection from "
                    "each trial's recorded calls, not a new measurement\n"
                  : "the wall saved when that agent alone is faster (100 %: instant); a projection from the run's "
                    "recorded calls, not a new measurement\n";
    return out;
}

nlohmann::ordered_json SpeedupProfile::json() const
{
    nlohmann::ordered_json j;
    const bool ofDesign = trials > 1 || !experiment.empty();
    if (ofDesign) {
        j["experiment"] = experiment;
        j["design"] = this->design;
    } else {
        j["run"] = run;
    }
    j["team"] = team;
    j["trials"] = trials;
    j["wall_ms"] = {{"p50", ms(wall.p50)}, {"p95", ms(wall.p95)}};
    j["percents"] = kPercents;
    j["agents"] = nlohmann::ordered_json::array();
    for (const auto& row : rows) {
        nlohmann::ordered_json p50 = nlohmann::ordered_json::array(), p95 = nlohmann::ordered_json::array(),
                               saved50 = nlohmann::ordered_json::array(), saved95 = nlohmann::ordered_json::array();
        for (size_t level = 0; level < kPercents.size(); ++level) {
            p50.push_back(ms(row.wall[level].p50));
            p95.push_back(ms(row.wall[level].p95));
            saved50.push_back(ms(savedUs(row, level)));
            saved95.push_back(ms(savedP95Us(row, level)));
        }
        j["agents"].push_back({{"node", row.node.str()},
                               {"wall_ms", {{"p50", p50}, {"p95", p95}}},
                               {"saved_ms", {{"p50", saved50}, {"p95", saved95}}}});
    }
    j["backends"] = nlohmann::ordered_json::array();
    for (const auto& b : backends)
        j["backends"].push_back({{"backend", b.backend.str()},
                                 {"max_concurrency", {{"before", b.from}, {"after", b.to}}},
                                 {"wall_ms", {{"p50", ms(b.wall.p50)}, {"p95", ms(b.wall.p95)}}},
                                 {"saved_ms", {{"p50", ms(wall.p50 - b.wall.p50)}, {"p95", ms(wall.p95 - b.wall.p95)}}}});
    j["projection"] = ofDesign ? "simulated clock, each trial's own calls replayed"
                             : "simulated clock, the run's own calls replayed";
    return j;
}

} // namespace conclave
