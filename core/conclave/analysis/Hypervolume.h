#pragma once

#include <vector>

namespace conclave {

// The hypervolume of a set of points (E. Zitzler & L. Thiele, "Multiobjective
// optimization using evolutionary algorithms — a comparative case study",
// PPSN V, 1998): the area the points dominate up to a reference point, here
// for two objectives, one maximised (a quality, such as accuracy) and one
// minimised (a cost). Only points better than the reference on both count.
// With the points sorted by cost ascending and q_i the best quality among
// those up to the i-th, the area is Σ_i (c_{i+1} − c_i) · (q_i − q_ref),
// c_{n+1} = c_ref.
class Hypervolume {
public:
    struct Point {
        double quality = 0;
        double cost = 0;
    };
    static double of(std::vector<Point> points, Point reference);
    // Each value mapped to [0, 1] by the range [lo, hi] (0 when hi == lo).
    static double normalised(double value, double lo, double hi) { return hi > lo ? (value - lo) / (hi - lo) : 0; }
};

} // namespace conclave
