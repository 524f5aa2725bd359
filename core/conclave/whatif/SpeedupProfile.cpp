#include "conclave/whatif/SpeedupProfile.h"

#include "conclave/whatif/WhatIfText.h"

#include <cstdio>

namespace conclave {

namespace {

using whatif_text::percentOf;
using whatif_text::seconds;

constexpr size_t kHalf = 2; // kPercents[2] == 50

} // namespace

std::string SpeedupProfile::headline() const
{
    if (rows.empty())
        return "out of " + seconds(wallUs) + ", no agent called a model";
    const auto& best = rows.front();
    std::string out = "out of " + seconds(wallUs) + ", making " + best.node.str() + " 50 % faster saves " +
                      seconds(savedUs(best, kHalf)) + " (" + percentOf(savedUs(best, kHalf), wallUs) + ")";
    for (size_t i = 1; i < rows.size() && i < 3; ++i)
        out += "; " + rows[i].node.str() + ": " + seconds(savedUs(rows[i], kHalf));
    return out;
}

std::string SpeedupProfile::text() const
{
    std::string out = "speed-up profile of run " + run + " (" + team +
                      "), projected on the simulated clock from its own calls\n" + headline() + "\n";
    size_t width = 5;
    for (const auto& row : rows)
        width = std::max(width, row.node.str().size());
    char line[256];
    std::snprintf(line, sizeof line, "%-*s %12s %12s %12s %12s\n", int(width), "agent", "10 % faster", "25 % faster",
                  "50 % faster", "100 % faster");
    out += line;
    for (const auto& row : rows) {
        std::snprintf(line, sizeof line, "%-*s %12s %12s %12s %12s\n", int(width), row.node.str().c_str(),
                      seconds(savedUs(row, 0)).c_str(), seconds(savedUs(row, 1)).c_str(),
                      seconds(savedUs(row, 2)).c_str(), seconds(savedUs(row, 3)).c_str());
        out += line;
    }
    for (const auto& b : backends)
        out += "backend " + b.backend.str() + ": max_concurrency " + std::to_string(b.from) + " → " +
               std::to_string(b.to) + " saves " + seconds(wallUs - b.wallUs) + " (" +
               percentOf(wallUs - b.wallUs, wallUs) + ")\n";
    out += "the wall saved when that agent alone is faster (100 %: instant); a projection from the run's recorded "
           "calls, not a new measurement\n";
    return out;
}

nlohmann::ordered_json SpeedupProfile::json() const
{
    nlohmann::ordered_json j;
    j["run"] = run;
    j["team"] = team;
    j["wall_ms"] = double(wallUs) / 1e3;
    j["percents"] = kPercents;
    j["agents"] = nlohmann::ordered_json::array();
    for (const auto& row : rows) {
        nlohmann::ordered_json saved = nlohmann::ordered_json::array(), walls = nlohmann::ordered_json::array();
        for (size_t level = 0; level < kPercents.size(); ++level) {
            walls.push_back(double(row.wallUs[level]) / 1e3);
            saved.push_back(double(savedUs(row, level)) / 1e3);
        }
        j["agents"].push_back({{"node", row.node.str()}, {"wall_ms", walls}, {"saved_ms", saved}});
    }
    j["backends"] = nlohmann::ordered_json::array();
    for (const auto& b : backends)
        j["backends"].push_back({{"backend", b.backend.str()},
                                 {"max_concurrency", {{"before", b.from}, {"after", b.to}}},
                                 {"wall_ms", double(b.wallUs) / 1e3},
                                 {"saved_ms", double(wallUs - b.wallUs) / 1e3}});
    j["projection"] = "simulated clock, the run's own calls replayed";
    return j;
}

} // namespace conclave
