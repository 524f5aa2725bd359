#include "conclave/experiment/BehaviourFit.h"

#include "conclave/analysis/Quantile.h"

#include <boost/math/tools/minima.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace conclave {

namespace {

struct Moments {
    double mean = 0;
    double sd = 0;
};

Moments moments(const std::vector<double>& values)
{
    Moments m;
    for (const double v : values)
        m.mean += v;
    m.mean /= double(values.size());
    double squares = 0;
    for (const double v : values)
        squares += (v - m.mean) * (v - m.mean);
    m.sd = std::sqrt(squares / double(values.size() - 1));
    return m;
}

} // namespace

std::optional<BehaviourFit::Confidence>
BehaviourFit::confidence(const std::vector<const CalibrationSamples::Answer*>& answers)
{
    std::vector<double> right;
    std::vector<double> wrong;
    for (const auto* a : answers)
        (a->correct ? right : wrong).push_back(a->confidence);
    if (right.size() < 2 || wrong.size() < 2)
        return std::nullopt;
    const auto r = moments(right);
    const auto w = moments(wrong);
    const auto quantiles = [](std::vector<double> values) {
        std::vector<double> out;
        if (int64_t(values.size()) < kQuantileAnswers)
            return out;
        std::sort(values.begin(), values.end());
        for (size_t i = 0; i < kQuantiles; ++i)
            out.push_back(Quantile::of(values, double(i) / double(kQuantiles - 1)));
        return out;
    };
    return Confidence{r.mean,         r.sd, w.mean, w.sd, int64_t(right.size()), int64_t(wrong.size()),
                      quantiles(right), quantiles(wrong)};
}

std::optional<BehaviourFit::Synthesis>
BehaviourFit::synthesis(const std::vector<const CalibrationSamples::Synthesis*>& calls)
{
    if (calls.empty())
        return std::nullopt;
    int most = 0;
    for (const auto* c : calls)
        most = std::max(most, c->right);
    Synthesis out;
    out.calls.assign(size_t(most) + 1, 0);
    std::vector<int64_t> right(size_t(most) + 1, 0);
    int64_t own = 0;
    for (const auto* c : calls) {
        ++out.calls[size_t(c->right)];
        right[size_t(c->right)] += c->correct ? 1 : 0;
        if (!c->correct) {
            ++out.wrong;
            own += c->own ? 1 : 0;
        }
    }
    for (size_t k = 0; k < out.calls.size(); ++k) {
        if (out.calls[k] > 0)
            out.pRightGivenRight.push_back(double(right[k]) / double(out.calls[k]));
        else
            out.pRightGivenRight.push_back(k == 0 ? 0.0 : out.pRightGivenRight.back());
    }
    out.selfAnswer = out.wrong > 0 ? double(own) / double(out.wrong) : 0.0;
    return out;
}

double BehaviourFit::factor(double slope, int64_t inflight)
{
    return 1.0 + slope * double(std::max<int64_t>(1, inflight) - 1);
}

std::optional<BehaviourFit::Load> BehaviourFit::load(const std::vector<const CalibrationSamples::Call*>& calls,
                                                     int64_t minCalls)
{
    std::vector<const CalibrationSamples::Call*> ok;
    Load out;
    for (const auto* c : calls) {
        if (!c->ok || c->timedOut || c->inflight < 1 || c->durationMs <= 0)
            continue;
        ok.push_back(c);
        out.lowest = out.lowest == 0 ? c->inflight : std::min(out.lowest, c->inflight);
        out.highest = std::max(out.highest, c->inflight);
    }
    out.calls = int64_t(ok.size());
    if (out.calls < std::max<int64_t>(minCalls, 3) || out.lowest == out.highest)
        return std::nullopt;
    // The unloaded line (c0, c1) for a slope, and the relative misfit it leaves.
    const auto misfit = [&ok](double slope) {
        double n = 0, so = 0, soo = 0, sd = 0, sod = 0;
        for (const auto* c : ok) {
            const double o = double(c->tokensOut);
            const double d = c->durationMs / factor(slope, c->inflight);
            n += 1;
            so += o;
            soo += o * o;
            sd += d;
            sod += o * d;
        }
        const double det = n * soo - so * so;
        double c1 = det > 1e-9 * n * soo ? (n * sod - so * sd) / det : 0.0;
        double c0 = det > 1e-9 * n * soo ? (sd - c1 * so) / n : sd / n;
        double sum = 0;
        for (const auto* c : ok) {
            const double predicted = std::max(1e-9, (c0 + c1 * double(c->tokensOut)) * factor(slope, c->inflight));
            const double r = (c->durationMs - predicted) / predicted;
            sum += r * r;
        }
        return sum;
    };
    // The misfit can have more than one dip in [0, 4] (a large slope that
    // squeezes the loaded calls onto a line of its own): Brent's method over
    // the whole range found the wrong one for a world's fast model (served
    // runs of lab-a). So first a grid — 0, then 0.0005·1.2^i up to 4 — and
    // Brent's method between the best point's neighbours.
    std::vector<double> grid{0.0};
    for (double s = 0.0005; s < 4.0; s *= 1.2)
        grid.push_back(s);
    grid.push_back(4.0);
    size_t best = 0;
    double bestMisfit = misfit(grid[0]);
    for (size_t i = 1; i < grid.size(); ++i) {
        const double m = misfit(grid[i]);
        if (m < bestMisfit) {
            bestMisfit = m;
            best = i;
        }
    }
    const double low = grid[best == 0 ? 0 : best - 1];
    const double high = grid[std::min(best + 1, grid.size() - 1)];
    out.slope = boost::math::tools::brent_find_minima(misfit, low, high, 40).first;
    return out;
}

std::optional<BehaviourFit::Conformity> BehaviourFit::conformity(const std::vector<Turn>& turns, int64_t minTurns)
{
    if (int64_t(turns.size()) < std::max<int64_t>(1, minTurns))
        return std::nullopt;
    // A turn tells c apart only where taking the plurality would end otherwise than answering alone.
    const bool informative = std::any_of(turns.begin(), turns.end(), [](const Turn& t) {
        return std::abs((t.pluralityRight ? 1.0 : 0.0) - t.pOwn) > 1e-9;
    });
    if (!informative)
        return std::nullopt;
    constexpr double kFloor = 1e-12; // a turn the fitted curve calls impossible still counts, finitely
    const auto negativeLogLikelihood = [&](double c) {
        double sum = 0;
        for (const auto& t : turns) {
            const double right = c * (t.pluralityRight ? 1.0 : 0.0) + (1 - c) * std::clamp(t.pOwn, 0.0, 1.0);
            sum -= std::log(std::max(kFloor, t.correct ? right : 1 - right));
        }
        return sum;
    };
    Conformity out;
    out.turns = int64_t(turns.size());
    out.share = std::clamp(boost::math::tools::brent_find_minima(negativeLogLikelihood, 0.0, 1.0, 40).first, 0.0, 1.0);
    // Brent never evaluates an end exactly: keep an end when it fits better.
    for (const double end : {0.0, 1.0})
        if (negativeLogLikelihood(end) < negativeLogLikelihood(out.share))
            out.share = end;
    return out;
}

} // namespace conclave
