#include "conclave/experiment/FidelityTargets.h"

#include "conclave/analysis/Quantile.h"
#include "conclave/experiment/ReportText.h"

#include <cmath>

namespace conclave {

namespace {

bool near(const std::optional<double>& ratio, double tolerance)
{
    return ratio && std::abs(*ratio - 1) <= tolerance;
}

std::string share(int64_t n, int64_t of)
{
    return std::to_string(n) + " of " + std::to_string(of) + " (" +
           ReportText::fixed("%.0f", of > 0 ? 100.0 * double(n) / double(of) : 0.0) + " %)";
}

const char* verdict(bool met)
{
    return met ? "met" : "NOT met";
}

} // namespace

FidelityTargets FidelityTargets::of(const std::vector<World>& worlds)
{
    FidelityTargets t;
    std::vector<double> widths;
    for (const auto& world : worlds) {
        t.worlds.push_back(world.name);
        t.tau.push_back(world.report.simulatedOrder.tauB);
        for (const auto& d : world.report.designs) {
            ++t.pairs;
            if (!d.simulated)
                continue;
            const auto& p = *d.simulated;
            t.accuracyWithin += p.within ? 1 : 0;
            t.costWithin += near(p.costRatio, kCost) ? 1 : 0;
            t.p50Within += near(p.p50Ratio, kWall) ? 1 : 0;
            const double measured = d.measured.ci.hi - d.measured.ci.lo;
            if (measured > 0)
                widths.push_back((p.accuracy.ci.hi - p.accuracy.ci.lo) / measured);
        }
    }
    t.medianWidthRatio = widths.empty() ? NAN : Quantile::median(widths);
    return t;
}

bool FidelityTargets::accuracyMet() const
{
    return pairs > 0 && double(accuracyWithin) >= kShare * double(pairs);
}

bool FidelityTargets::widthMet() const
{
    return std::isfinite(medianWidthRatio) && medianWidthRatio <= kWidthRatio;
}

bool FidelityTargets::costMet() const
{
    return pairs > 0 && double(costWithin) >= kShare * double(pairs);
}

bool FidelityTargets::p50Met() const
{
    return pairs > 0 && double(p50Within) >= kShare * double(pairs);
}

bool FidelityTargets::orderMet() const
{
    bool any = false;
    for (const auto& world : tau) {
        if (!world)
            continue; // no two designs' measured CIs apart: nothing to order
        any = true;
        if (*world < kTau)
            return false;
    }
    return any;
}

std::string FidelityTargets::text() const
{
    std::string out;
    out += "  accuracy within 1.96 combined se: " + share(accuracyWithin, pairs) + " (target >= 90 %, " +
           verdict(accuracyMet()) + ")\n";
    out += "  median predicted / measured CI width: " + ReportText::fixed("%.2f", medianWidthRatio) +
           " (target <= 2, " + verdict(widthMet()) + ")\n";
    out += "  cost within 10 %: " + share(costWithin, pairs) + " (target >= 90 %, " + verdict(costMet()) + ")\n";
    out += "  p50 wall within 15 %: " + share(p50Within, pairs) + " (target >= 90 %, " + verdict(p50Met()) + ")\n";
    out += "  Kendall's tau-b per world:";
    for (size_t i = 0; i < worlds.size(); ++i)
        out += std::string(i ? "," : "") + " " + worlds[i] + " " +
               (tau[i] ? ReportText::fixed("%.2f", *tau[i]) : std::string("n/a"));
    out += std::string(" (target >= 0.6 in every world with a separated pair; n/a: none, not counted; ") +
           verdict(orderMet()) + ")\n";
    return out;
}

} // namespace conclave
