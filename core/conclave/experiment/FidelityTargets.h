#pragma once

#include "conclave/experiment/FidelityReport.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

// Issue 31's targets for `bench fidelity`, over (world, design) pairs of
// fidelity reports on held-out tasks (docs/fidelity.md):
//   accuracy   |predicted − measured| ≤ 1.96·√(se_pred² + se_meas²) in ≥ 90 %
//   width      the median of (predicted CI width ÷ measured CI width) ≤ 2
//   cost       |cost ratio − 1| ≤ 0.10 in ≥ 90 %
//   p50 wall   |p50 wall ratio − 1| ≤ 0.15 in ≥ 90 %
//   order      Kendall's τ-b ≥ 0.6 in every world that has designs whose measured CIs do not overlap
// A pair without a simulated prediction counts as a miss everywhere.
struct FidelityTargets {
    struct World {
        std::string name; // "lab-a (seed 101)"
        FidelityReport report;
    };

    int64_t pairs = 0;
    int64_t accuracyWithin = 0;
    int64_t costWithin = 0;
    int64_t p50Within = 0;
    double medianWidthRatio = 0;
    std::vector<std::optional<double>> tau; // per world
    std::vector<std::string> worlds;

    static constexpr double kShare = 0.9;
    static constexpr double kWidthRatio = 2;
    static constexpr double kCost = 0.10;
    static constexpr double kWall = 0.15;
    static constexpr double kTau = 0.6;

    static FidelityTargets of(const std::vector<World>& worlds);
    bool accuracyMet() const;
    bool widthMet() const;
    bool costMet() const;
    bool p50Met() const;
    bool orderMet() const; // every τ-b that is set ≥ 0.6, and at least one set
    // One line per target: the figure, the target and "met" or "NOT met".
    std::string text() const;
};

} // namespace conclave
