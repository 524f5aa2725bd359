#include "conclave/analysis/CurveBootstrap.h"

#include "conclave/analysis/Quantile.h"
#include "conclave/engine/DeterministicRandom.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace conclave {

namespace {

// A CPT that was not reached sorts above every share.
constexpr double kNotReached = 2;

bool checkSeries(const std::vector<double>& values, size_t tasks, double lo, double hi, const std::string& what,
                 std::string& error)
{
    if (values.size() != tasks) {
        error = what + ": " + std::to_string(values.size()) + " tasks, expected " + std::to_string(tasks);
        return false;
    }
    for (size_t t = 0; t < values.size(); ++t) {
        if (!std::isfinite(values[t]) || values[t] < lo || values[t] > hi) {
            error = what + ": task " + std::to_string(t) + " has " + std::to_string(values[t]) + ", outside [" +
                    std::to_string(lo) + ", " + (std::isinf(hi) ? std::string("∞") : std::to_string(hi)) + "]";
            return false;
        }
    }
    return true;
}

bool checkFigures(const TaskFigures& figures, size_t tasks, bool needsShares, const std::string& what,
                  std::string& error)
{
    const double inf = std::numeric_limits<double>::infinity();
    if (!checkSeries(figures.quality, tasks, 0, 1, what + " quality", error) ||
        !checkSeries(figures.costUsd, tasks, 0, inf, what + " cost", error))
        return false;
    if (needsShares || !figures.strongShare.empty())
        return checkSeries(figures.strongShare, tasks, 0, 1, what + " strong share", error);
    return true;
}

bool check(const CurveBootstrapInput& input, std::string& error)
{
    if (input.references.empty()) {
        error = "no single-model references";
        return false;
    }
    const size_t tasks = input.references.front().quality.size();
    if (tasks == 0) {
        error = "no tasks";
        return false;
    }
    for (size_t r = 0; r < input.references.size(); ++r)
        if (!checkFigures(input.references[r], tasks, false, "reference " + std::to_string(r), error))
            return false;
    for (const auto& curve : input.curves) {
        const bool twoModel = curve.weak.has_value() || curve.strong.has_value();
        if (twoModel && !(curve.weak && curve.strong && *curve.weak < input.references.size() &&
                          *curve.strong < input.references.size())) {
            error = "curve '" + curve.name + "': weak and strong must both name a reference";
            return false;
        }
        for (size_t v = 0; v < curve.variants.size(); ++v)
            if (!checkFigures(curve.variants[v], tasks, twoModel,
                              "curve '" + curve.name + "' variant " + std::to_string(v), error))
                return false;
    }
    return true;
}

double meanOver(const std::vector<double>& values, const std::vector<size_t>& draw)
{
    double sum = 0;
    for (const size_t t : draw)
        sum += values[t];
    return sum / double(draw.size());
}

CurvePoint pointOver(const TaskFigures& figures, const std::vector<size_t>& draw)
{
    return {meanOver(figures.costUsd, draw), meanOver(figures.quality, draw)};
}

// Every figure of one curve on one set of drawn tasks.
struct Draw {
    std::vector<CurvePoint> points;
    std::vector<double> shares;
    std::optional<double> aiq;
    std::optional<double> apgr;
    CallThreshold cpt50;
    CallThreshold cpt80;
};

Draw evaluate(const CurveInput& curve, const std::vector<TaskFigures>& references, const std::optional<CostAxis>& axis,
              const std::vector<size_t>& draw)
{
    Draw out;
    for (const auto& v : curve.variants)
        out.points.push_back(pointOver(v, draw));
    if (axis)
        out.aiq = QualityCostCurve::aiq(out.points, *axis);
    if (curve.weak && curve.strong) {
        std::vector<SharePoint> variants;
        for (size_t v = 0; v < curve.variants.size(); ++v) {
            out.shares.push_back(meanOver(curve.variants[v].strongShare, draw));
            variants.push_back({out.shares.back(), out.points[v].quality});
        }
        const double qWeak = meanOver(references[*curve.weak].quality, draw);
        const double qStrong = meanOver(references[*curve.strong].quality, draw);
        out.apgr = RoutingGain::apgr(variants, qWeak, qStrong);
        out.cpt50 = RoutingGain::cpt(variants, qWeak, qStrong, 0.5);
        out.cpt80 = RoutingGain::cpt(variants, qWeak, qStrong, 0.8);
    }
    return out;
}

Interval percentiles(std::vector<double> values)
{
    if (values.empty())
        return {std::nan(""), std::nan("")};
    std::sort(values.begin(), values.end());
    return {Quantile::of(values, 0.025), Quantile::of(values, 0.975)};
}

CallThreshold thresholdFrom(double value)
{
    if (std::isnan(value))
        return {};
    if (value > 1)
        return {CallThreshold::Status::NotReached, 0};
    return {CallThreshold::Status::Reached, value};
}

// Collects one figure's resampled values.
struct Samples {
    std::vector<double> values;
    int undefined = 0;
    void add(const std::optional<double>& v)
    {
        if (v)
            values.push_back(*v);
        else
            ++undefined;
    }
    void add(const CallThreshold& c)
    {
        switch (c.status) {
        case CallThreshold::Status::Reached:
            values.push_back(c.share);
            break;
        case CallThreshold::Status::NotReached:
            values.push_back(kNotReached);
            break;
        case CallThreshold::Status::Undefined:
            ++undefined;
            break;
        }
    }
    BootstrapFigure figure(const std::optional<double>& value) const { return {value, percentiles(values), undefined}; }
    BootstrapThreshold threshold(const CallThreshold& value) const
    {
        const auto ci = percentiles(values);
        return {value, thresholdFrom(ci.lo), thresholdFrom(ci.hi), undefined};
    }
};

} // namespace

std::optional<CurveReport> CurveBootstrap::compute(const CurveBootstrapInput& input, const Options& options,
                                                   std::string& error)
{
    if (!check(input, error))
        return std::nullopt;
    const size_t tasks = input.references.front().quality.size();
    std::vector<size_t> all(tasks);
    std::iota(all.begin(), all.end(), size_t(0));

    CurveReport report;
    report.resamples = std::max(0, options.resamples);
    report.seed = options.seed;
    for (const auto& r : input.references)
        report.references.push_back(pointOver(r, all));
    const auto axis = QualityCostCurve::axis(report.references);
    report.axis = *axis;

    std::vector<Draw> whole;
    for (const auto& curve : input.curves)
        whole.push_back(evaluate(curve, input.references, axis, all));

    std::vector<Samples> aiq(input.curves.size()), apgr(input.curves.size()), cpt50(input.curves.size()),
        cpt80(input.curves.size());
    // Each point's resampled quality: references first, then every curve's variants in order.
    std::vector<Samples> quality(input.references.size());
    for (const auto& curve : input.curves)
        quality.resize(quality.size() + curve.variants.size());
    std::vector<size_t> draw(tasks);
    std::vector<CurvePoint> references(input.references.size());
    for (int r = 1; r <= report.resamples; ++r) {
        const uint64_t key = DeterministicRandom::key({"curve-bootstrap", std::to_string(r)}, options.seed);
        for (size_t i = 0; i < tasks; ++i)
            draw[i] = std::min(tasks - 1, size_t(DeterministicRandom::unit(key, i) * double(tasks)));
        for (size_t m = 0; m < input.references.size(); ++m) {
            references[m] = pointOver(input.references[m], draw);
            quality[m].add(references[m].quality);
        }
        const auto resampledAxis = QualityCostCurve::axis(references);
        size_t point = input.references.size();
        for (size_t c = 0; c < input.curves.size(); ++c) {
            const auto d = evaluate(input.curves[c], input.references, resampledAxis, draw);
            for (const auto& p : d.points)
                quality[point++].add(p.quality);
            aiq[c].add(d.aiq);
            if (input.curves[c].weak && input.curves[c].strong) {
                apgr[c].add(d.apgr);
                cpt50[c].add(d.cpt50);
                cpt80[c].add(d.cpt80);
            }
        }
    }

    size_t point = 0;
    for (; point < input.references.size(); ++point)
        report.referenceQualityCi.push_back(percentiles(quality[point].values));
    for (size_t c = 0; c < input.curves.size(); ++c) {
        CurveFigures figures;
        figures.name = input.curves[c].name;
        figures.points = whole[c].points;
        for (size_t v = 0; v < whole[c].points.size(); ++v)
            figures.qualityCi.push_back(percentiles(quality[point++].values));
        figures.shares = whole[c].shares;
        figures.hull = QualityCostCurve::hull(whole[c].points);
        figures.aiq = aiq[c].figure(whole[c].aiq);
        if (input.curves[c].weak && input.curves[c].strong)
            figures.gain = GainFigures{apgr[c].figure(whole[c].apgr), cpt50[c].threshold(whole[c].cpt50),
                                       cpt80[c].threshold(whole[c].cpt80)};
        report.curves.push_back(std::move(figures));
    }
    return report;
}

} // namespace conclave
