#include "conclave/analysis/RoutingGain.h"

#include <algorithm>
#include <cmath>

namespace conclave {

std::optional<double> RoutingGain::pgr(double quality, double weakQuality, double strongQuality)
{
    const double gap = strongQuality - weakQuality;
    if (std::abs(gap) <= kNoGap)
        return std::nullopt;
    return (quality - weakQuality) / gap;
}

std::vector<GainPoint> RoutingGain::pgrCurve(const std::vector<SharePoint>& variants, double weakQuality,
                                             double strongQuality)
{
    if (variants.empty() || !pgr(0, weakQuality, strongQuality))
        return {};
    std::vector<GainPoint> points;
    points.reserve(variants.size());
    for (const auto& v : variants)
        points.push_back({v.share, *pgr(v.quality, weakQuality, strongQuality)});
    std::stable_sort(points.begin(), points.end(),
                     [](const GainPoint& a, const GainPoint& b) { return a.share < b.share; });
    std::vector<GainPoint> curve;
    for (size_t i = 0; i < points.size();) {
        size_t j = i;
        double sum = 0;
        while (j < points.size() && points[j].share == points[i].share)
            sum += points[j++].pgr;
        curve.push_back({points[i].share, sum / double(j - i)});
        i = j;
    }
    if (curve.front().share > 0)
        curve.insert(curve.begin(), GainPoint{0, 0});
    if (curve.back().share < 1)
        curve.push_back({1, 1});
    return curve;
}

std::optional<double> RoutingGain::apgr(const std::vector<SharePoint>& variants, double weakQuality,
                                        double strongQuality)
{
    const auto curve = pgrCurve(variants, weakQuality, strongQuality);
    if (curve.empty())
        return std::nullopt;
    double area = 0;
    for (size_t i = 0; i + 1 < curve.size(); ++i)
        area += (curve[i + 1].share - curve[i].share) * (curve[i].pgr + curve[i + 1].pgr) / 2;
    return area;
}

CallThreshold RoutingGain::cpt(const std::vector<SharePoint>& variants, double weakQuality, double strongQuality,
                               double fraction)
{
    const auto curve = pgrCurve(variants, weakQuality, strongQuality);
    if (curve.empty())
        return {};
    // Reaching is judged within kNoGap so that a PGR of exactly x, computed with rounding, counts.
    const auto reaches = [fraction](const GainPoint& p) { return p.pgr >= fraction - kNoGap; };
    if (reaches(curve.front()))
        return {CallThreshold::Status::Reached, curve.front().share};
    for (size_t i = 1; i < curve.size(); ++i) {
        if (!reaches(curve[i]))
            continue;
        const auto& a = curve[i - 1];
        const auto& b = curve[i];
        const double t = std::clamp((fraction - a.pgr) / (b.pgr - a.pgr), 0.0, 1.0);
        return {CallThreshold::Status::Reached, a.share + t * (b.share - a.share)};
    }
    return {CallThreshold::Status::NotReached, 0};
}

} // namespace conclave
