#include "conclave/analysis/ExperimentGates.h"

#include <cstdio>

namespace conclave {

std::vector<std::string> ExperimentGates::failures(const ExperimentSummary& summary) const
{
    std::vector<std::string> failed;
    for (size_t i = 0; i < summary.designs.size(); ++i) {
        if (int(i) == summary.baseline)
            continue;
        const auto& d = summary.designs[i];
        if (minAccuracy && !(d.overall.accuracy >= *minAccuracy)) {
            char text[64];
            std::snprintf(text, sizeof text, "%.4f, below --min-accuracy %.4f", d.overall.accuracy, *minAccuracy);
            failed.push_back(d.name + " has accuracy " + text);
        }
        if (maxRegressions && d.vsBaseline && d.vsBaseline->regressions > *maxRegressions)
            failed.push_back(d.name + " has " + std::to_string(d.vsBaseline->regressions) +
                             " regressions against the baseline, more than --max-regressions " +
                             std::to_string(*maxRegressions));
    }
    return failed;
}

} // namespace conclave
