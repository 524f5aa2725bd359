#pragma once

#include "conclave/experiment/ExperimentSpec.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace conclave {

// The columns a sweep adds to an experiment's reports: one per swept PATH, in
// flag order, with each design's value as its name shows it ("-" for a design
// that does not vary it, such as a baseline file). Empty for an experiment
// that is no sweep, whose reports stay as they were.
struct SweepColumns {
    std::vector<std::string> paths;
    std::vector<std::vector<std::string>> cells; // per design, per path

    static SweepColumns of(const std::vector<ExperimentDesign>& designs);
    bool empty() const { return paths.empty(); }
    // One design's cells; none when the experiment is no sweep or the design is unknown.
    std::vector<std::string> row(size_t design) const;
    // One design's parameters as a JSON object {PATH: value} (the values typed as swept).
    static nlohmann::ordered_json parameters(const ExperimentDesign& design);
};

} // namespace conclave
