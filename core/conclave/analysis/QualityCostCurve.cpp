#include "conclave/analysis/QualityCostCurve.h"

#include <algorithm>

namespace conclave {

std::vector<CurvePoint> QualityCostCurve::hull(std::vector<CurvePoint> points)
{
    // Ascending cost; at one cost the best quality first, so it is the one kept.
    std::sort(points.begin(), points.end(), [](const CurvePoint& a, const CurvePoint& b) {
        return a.cost < b.cost || (a.cost == b.cost && a.quality > b.quality);
    });
    std::vector<CurvePoint> upper;
    for (const auto& p : points) {
        if (!upper.empty() && upper.back().cost == p.cost)
            continue;
        // Drop the last vertex while it lies on or below the segment from the one before it to p.
        while (upper.size() >= 2) {
            const auto& a = upper[upper.size() - 2];
            const auto& b = upper.back();
            const double cross =
                (b.cost - a.cost) * (p.quality - a.quality) - (b.quality - a.quality) * (p.cost - a.cost);
            if (cross < 0)
                break;
            upper.pop_back();
        }
        upper.push_back(p);
    }
    // A concave chain rises up to its highest vertex and falls after it; the flat extension replaces the fall.
    const auto top = std::max_element(upper.begin(), upper.end(),
                                      [](const CurvePoint& a, const CurvePoint& b) { return a.quality < b.quality; });
    if (top != upper.end())
        upper.erase(top + 1, upper.end());
    return upper;
}

double QualityCostCurve::qualityAt(const std::vector<CurvePoint>& hull, double cost)
{
    if (hull.empty() || cost < hull.front().cost)
        return 0;
    if (cost >= hull.back().cost)
        return hull.back().quality;
    const auto next =
        std::upper_bound(hull.begin(), hull.end(), cost, [](double c, const CurvePoint& v) { return c < v.cost; });
    const auto& a = *(next - 1);
    const auto& b = *next;
    return a.quality + (b.quality - a.quality) * (cost - a.cost) / (b.cost - a.cost);
}

std::optional<CostAxis> QualityCostCurve::axis(const std::vector<CurvePoint>& references)
{
    if (references.empty())
        return std::nullopt;
    CostAxis axis{references.front().cost, references.front().cost};
    for (const auto& r : references) {
        axis.lo = std::min(axis.lo, r.cost);
        axis.hi = std::max(axis.hi, r.cost);
    }
    return axis;
}

std::optional<double> QualityCostCurve::aiq(const std::vector<CurvePoint>& points, const CostAxis& axis)
{
    if (points.empty() || !(axis.hi > axis.lo))
        return std::nullopt;
    const auto h = hull(points);
    double area = 0;
    // R is linear between consecutive vertices: one trapezoid per segment, clipped to the axis.
    for (size_t i = 0; i + 1 < h.size(); ++i) {
        const double from = std::max(axis.lo, h[i].cost);
        const double to = std::min(axis.hi, h[i + 1].cost);
        if (to > from)
            area += (to - from) * (qualityAt(h, from) + qualityAt(h, to)) / 2;
    }
    const double flatFrom = std::max(axis.lo, h.back().cost);
    if (axis.hi > flatFrom)
        area += (axis.hi - flatFrom) * h.back().quality;
    return area / (axis.hi - axis.lo);
}

} // namespace conclave
