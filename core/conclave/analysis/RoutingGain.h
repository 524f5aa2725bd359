#pragma once

#include <optional>
#include <vector>

namespace conclave {

// A variant of a two-model router or cascade: the share of calls that went to
// its strong model (of a cascade: the share of trials that escalated to its
// second member), 0..1, and its mean quality, 0..1.
struct SharePoint {
    double share = 0;
    double quality = 0;
};

// A point of the PGR curve.
struct GainPoint {
    double share = 0;
    double pgr = 0;
};

// CPT(x): the smallest strong-call share at which the curve recovers x of the gap.
struct CallThreshold {
    enum class Status {
        Reached,    // at `share`
        NotReached, // the curve stays below x up to its last share
        Undefined,  // no gap to recover: the strong and the weak model score the same
    };
    Status status = Status::Undefined;
    double share = 0; // when Reached
};

// RouteLLM's figures for a router between a strong and a weak model (I. Ong
// et al., "RouteLLM: Learning to Route LLMs with Preference Data", 2024,
// arXiv:2406.18665, §2.2). With q_s and q_w the strong and the weak model's
// mean quality on the same tasks,
//     PGR(q) = (q − q_w) / (q_s − q_w)              (performance gap recovered)
// undefined when q_s = q_w (within 1e-12). The curve is PGR against the
// strong-call share s: the variants' points (s_i, PGR_i), sorted by share,
// points at one share merged into their mean PGR, and anchored at the two
// models themselves — (0, 0), the router that calls only the weak model, and
// (1, 1), the one that calls only the strong model — unless a variant was
// measured at that share, whose PGR then stands (a cascade that escalates
// every trial need not score what its second member scores alone). Between
// points PGR is linear in s: mixing two variants at random per task gives
// exactly that share and quality. Then
//     APGR   = ∫_0^1 PGR(s) ds                       (trapezoids between points)
//     CPT(x) = min { s : PGR(s) ≥ x }                (linear within the segment that crosses x)
// CPT is NotReached when PGR stays below x up to s = 1 (possible only when a
// variant measured at s = 1 is below x). A router whose PGR equals its share
// — random routing — has APGR 1/2, RouteLLM's random baseline.
// RouteLLM integrates over the shares its thresholds reached; the anchors make
// every router's APGR an integral over the same [0, 1], so figures compare.
class RoutingGain {
public:
    static constexpr double kNoGap = 1e-12;

    // PGR of quality q; unset when q_s = q_w.
    static std::optional<double> pgr(double quality, double weakQuality, double strongQuality);
    // The anchored curve, ascending in share; empty when q_s = q_w or there are no variants.
    static std::vector<GainPoint> pgrCurve(const std::vector<SharePoint>& variants, double weakQuality,
                                           double strongQuality);
    // APGR; unset when q_s = q_w or there are no variants.
    static std::optional<double> apgr(const std::vector<SharePoint>& variants, double weakQuality,
                                      double strongQuality);
    // CPT(fraction), fraction 0.5 for CPT(50 %); Undefined when q_s = q_w or there are no variants.
    static CallThreshold cpt(const std::vector<SharePoint>& variants, double weakQuality, double strongQuality,
                             double fraction);
};

} // namespace conclave
