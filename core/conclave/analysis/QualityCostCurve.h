#pragma once

#include <optional>
#include <vector>

namespace conclave {

// A design on the quality–cost plane: mean cost per trial (USD) against mean
// quality (0..1), both averaged over tasks.
struct CurvePoint {
    double cost = 0;
    double quality = 0;
};

// The cost axis of a curve: from the cheapest to the dearest single model.
struct CostAxis {
    double lo = 0;
    double hi = 0;
};

// RouterBench's quality–cost curve and its one figure, AIQ (Q. J. Hu et al.,
// "RouterBench: A Benchmark for Multi-LLM Routing System", 2024,
// arXiv:2403.12031, §3). A router's variants (one per threshold or other
// parameter value) are points (c_i, q_i). Mixing two variants at random per
// task reaches every point of the segment between them, so what a router can
// deliver is the upper convex hull of its points; spending more can always
// keep the quality reached, so the curve never falls: the non-decreasing
// convex hull (NDCH) H is the upper hull from the cheapest point (the best
// among equally cheap points) up to its first highest point, and R(c), the
// quality at cost c, is
//     R(c) = 0                       for c < c_1           (nothing is that cheap)
//     R(c) = linear between vertices  for c_1 ≤ c ≤ c_m
//     R(c) = q_m                     for c > c_m           (flat: RouterBench's extrapolation)
// with H's vertices (c_1, q_1) … (c_m, q_m). On the axis [a, b] from the
// cheapest to the dearest single model,
//     AIQ = (1 / (b − a)) · ∫_a^b R(c) dc
// integrated exactly by trapezoids between the breakpoints; points beyond the
// axis shape the hull but are clipped by the integral's bounds.
//
// Left of the hull's cheapest point the curve counts as quality 0, not as
// extended flat: RouterBench extends a router only towards higher cost (any
// router can spend more for the same quality); nothing lets a router be
// cheaper than its cheapest variant, and RouterBench's own evaluation code
// integrates the hull only from its cheapest point yet divides by the whole
// cost range (from 0), counting that stretch as 0 too. A router whose every
// variant costs more than the cheapest model loses that stretch of the axis:
// the price of its own overhead.
class QualityCostCurve {
public:
    // H's vertices, ascending in cost, strictly ascending in quality; empty when `points` is.
    static std::vector<CurvePoint> hull(std::vector<CurvePoint> points);
    // R(c) on a hull's vertices (the formula above); 0 on an empty hull.
    static double qualityAt(const std::vector<CurvePoint>& hull, double cost);
    // The axis from the cheapest to the dearest reference; unset when there are none.
    static std::optional<CostAxis> axis(const std::vector<CurvePoint>& references);
    // AIQ of `points` on `axis`; unset when there are no points or the axis has no length.
    static std::optional<double> aiq(const std::vector<CurvePoint>& points, const CostAxis& axis);
};

} // namespace conclave
