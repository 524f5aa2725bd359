#include "conclave/analysis/Hypervolume.h"

#include <algorithm>

namespace conclave {

double Hypervolume::of(std::vector<Point> points, Point reference)
{
    std::erase_if(points, [&](const Point& p) { return !(p.quality > reference.quality && p.cost < reference.cost); });
    std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
        return a.cost != b.cost ? a.cost < b.cost : a.quality > b.quality;
    });
    double area = 0;
    double best = reference.quality;
    for (size_t i = 0; i < points.size(); ++i) {
        best = std::max(best, points[i].quality);
        const double next = i + 1 < points.size() ? points[i + 1].cost : reference.cost;
        area += (next - points[i].cost) * (best - reference.quality);
    }
    return area;
}

} // namespace conclave
