#include "conclave/experiment/JointFit.h"

#include "conclave/experiment/NormalOgive.h"

#include <boost/math/quadrature/gauss.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace conclave {

namespace {

constexpr size_t kNodes = 41;
constexpr double kRange = 6;       // z is integrated over [−kRange, kRange]
constexpr double kBetaMax = 7;     // w ≤ 49/50
constexpr double kAbilityMax = 6;  // |a|
constexpr double kDifficultyMax = 5;
constexpr size_t kMinShared = 30;  // responses on tasks answered more than once, to fit w
constexpr int kNewtonPasses = 3;   // per M step

struct Quadrature {
    std::array<double, kNodes> z{};
    std::array<double, kNodes> logPrior{}; // log of the node's share of N(0, 1), the shares summing to 1
};

const Quadrature& quadrature()
{
    static const Quadrature q = [] {
        using Rule = boost::math::quadrature::gauss<double, kNodes>;
        const auto& x = Rule::abscissa();
        const auto& w = Rule::weights();
        Quadrature out;
        std::array<double, kNodes> mass{};
        size_t i = 0;
        // The rule holds the non-negative half: x[0] = 0, then pairs ±x[k].
        for (size_t k = x.size(); k-- > 1;) {
            out.z[i] = -kRange * x[k];
            mass[i++] = w[k];
        }
        for (size_t k = 0; k < x.size(); ++k) {
            out.z[i] = kRange * x[k];
            mass[i++] = w[k];
        }
        double total = 0;
        for (size_t n = 0; n < kNodes; ++n) {
            mass[n] *= NormalOgive::density(out.z[n]);
            total += mass[n];
        }
        for (size_t n = 0; n < kNodes; ++n)
            out.logPrior[n] = std::log(mass[n] / total);
        return out;
    }();
    return q;
}

// The expected counts of right and wrong answers at each node (the E step's "artificial data").
struct Counts {
    std::array<double, kNodes> right{};
    std::array<double, kNodes> wrong{};
};

// One Newton step's sums for η = α − β·z over a group's expected counts:
// d/dη and d²/dη² of Σ right·log Φ(η) + wrong·log Φ(−η), times dη/dθ = `lever`.
struct Sums {
    double gradient = 0;
    double curvature = 0;
};

void accumulate(const Counts& counts, double alpha, double beta, bool forBeta, Sums& sums)
{
    const auto& q = quadrature();
    for (size_t n = 0; n < kNodes; ++n) {
        const double eta = alpha - beta * q.z[n];
        const double lever = forBeta ? -q.z[n] : 1.0;
        const double up = NormalOgive::mills(eta);
        const double down = NormalOgive::mills(-eta);
        sums.gradient += (counts.right[n] * up - counts.wrong[n] * down) * lever;
        sums.curvature -= (counts.right[n] * up * (eta + up) + counts.wrong[n] * down * (-eta + down)) * lever * lever;
    }
}

double newtonStep(const Sums& sums)
{
    if (!(sums.curvature < 0))
        return 0;
    return std::clamp(-sums.gradient / sums.curvature, -1.0, 1.0);
}

} // namespace

double JointFit::posteriorMode(const std::vector<Line>& lines)
{
    double z = 0;
    for (int i = 0; i < 100; ++i) {
        double gradient = -z;
        double curvature = -1;
        for (const auto& line : lines) {
            const double eta = line.alpha - line.beta * z;
            const double s = line.correct ? 1.0 : -1.0;
            const double lambda = NormalOgive::mills(s * eta);
            gradient += line.weight * s * lambda * -line.beta;
            curvature -= line.weight * lambda * (s * eta + lambda) * line.beta * line.beta;
        }
        const double step = std::clamp(-gradient / curvature, -2.0, 2.0);
        const double next = std::clamp(z + step, -kDifficultyMax, kDifficultyMax);
        const bool done = std::abs(next - z) < 1e-12;
        z = next;
        if (done)
            break;
    }
    return z;
}

double JointFit::posteriorMean(const std::vector<Line>& lines, const std::function<double(double)>& f)
{
    const auto& q = quadrature();
    std::array<double, kNodes> logPost = q.logPrior;
    for (const auto& line : lines)
        for (size_t n = 0; n < kNodes; ++n)
            logPost[n] += line.weight * NormalOgive::logCdf((line.correct ? 1.0 : -1.0) * (line.alpha - line.beta * q.z[n]));
    const double top = *std::max_element(logPost.begin(), logPost.end());
    double mass = 0, sum = 0;
    for (size_t n = 0; n < kNodes; ++n) {
        const double p = std::exp(logPost[n] - top);
        mass += p;
        sum += p * f(q.z[n]);
    }
    return sum / mass;
}

JointFit::Result JointFit::fit(const Input& input, const Options& options)
{
    const auto& q = quadrature();
    const size_t groups = input.models * input.domains;
    const auto groupOf = [&](const Response& r) { return r.model * input.domains + r.domain; };

    // Responses by task, and what each group and model has.
    std::vector<std::vector<size_t>> byTask(input.tasks);
    std::vector<int64_t> seen(groups, 0);
    std::vector<double> weighed(groups, 0);
    std::vector<double> right(groups, 0);
    for (size_t i = 0; i < input.responses.size(); ++i) {
        const auto& r = input.responses[i];
        byTask[r.task].push_back(i);
        ++seen[groupOf(r)];
        weighed[groupOf(r)] += r.weight;
        right[groupOf(r)] += r.correct ? r.weight : 0;
    }
    std::vector<size_t> shared(input.models, 0);
    for (const auto& list : byTask) {
        if (list.size() < 2)
            continue;
        for (const size_t i : list)
            ++shared[input.responses[i].model];
    }

    Result result;
    const double startWeight = std::clamp(options.startWeight, 0.0, kBetaMax * kBetaMax / (1 + kBetaMax * kBetaMax));
    std::vector<double> beta(input.models, std::sqrt(startWeight / (1 - startWeight)));
    result.weightFitted.assign(input.models, false);
    for (size_t m = 0; m < input.models; ++m)
        result.weightFitted[m] = shared[m] >= kMinShared;
    std::vector<double> alpha(groups, 0);
    for (size_t g = 0; g < groups; ++g) {
        if (seen[g] == 0)
            continue;
        // Marginally P = Φ(α/√(1 + β²)): start from the smoothed accuracy.
        const double accuracy = (right[g] + 0.5) / (weighed[g] + 1);
        alpha[g] = NormalOgive::quantile(accuracy) * std::sqrt(1 + beta[g / input.domains] * beta[g / input.domains]);
    }

    std::vector<Counts> counts(groups);
    std::vector<std::array<double, kNodes>> logRight(groups);
    std::vector<std::array<double, kNodes>> logWrong(groups);
    double previous = -std::numeric_limits<double>::infinity();
    const double perResponse = options.tolerance * double(std::max<size_t>(1, input.responses.size()));
    for (int iteration = 1; iteration <= options.maxIterations; ++iteration) {
        // E step: each task's posterior over the nodes, spread as expected counts.
        for (size_t g = 0; g < groups; ++g) {
            if (seen[g] == 0)
                continue;
            counts[g] = Counts{};
            const double b = beta[g / input.domains];
            for (size_t n = 0; n < kNodes; ++n) {
                const double eta = alpha[g] - b * q.z[n];
                logRight[g][n] = NormalOgive::logCdf(eta);
                logWrong[g][n] = NormalOgive::logCdf(-eta);
            }
        }
        double logLikelihood = 0;
        std::array<double, kNodes> posterior{};
        for (const auto& list : byTask) {
            if (list.empty())
                continue;
            posterior = q.logPrior;
            for (const size_t i : list) {
                const auto& r = input.responses[i];
                const auto& table = r.correct ? logRight[groupOf(r)] : logWrong[groupOf(r)];
                for (size_t n = 0; n < kNodes; ++n)
                    posterior[n] += r.weight * table[n];
            }
            const double top = *std::max_element(posterior.begin(), posterior.end());
            double total = 0;
            for (auto& p : posterior) {
                p = std::exp(p - top);
                total += p;
            }
            logLikelihood += top + std::log(total);
            for (const size_t i : list) {
                const auto& r = input.responses[i];
                auto& into = r.correct ? counts[groupOf(r)].right : counts[groupOf(r)].wrong;
                for (size_t n = 0; n < kNodes; ++n)
                    into[n] += r.weight * posterior[n] / total;
            }
        }
        result.logLikelihood = logLikelihood;
        result.iterations = iteration;
        if (logLikelihood - previous < perResponse) {
            result.converged = true;
            break;
        }
        previous = logLikelihood;
        // M step: Newton in each α, then in β, on the expected counts.
        for (size_t m = 0; m < input.models; ++m) {
            for (int pass = 0; pass < kNewtonPasses; ++pass) {
                const double bound = kAbilityMax * std::sqrt(1 + beta[m] * beta[m]);
                Sums forBeta;
                for (size_t d = 0; d < input.domains; ++d) {
                    const size_t g = m * input.domains + d;
                    if (seen[g] == 0)
                        continue;
                    Sums sums;
                    accumulate(counts[g], alpha[g], beta[m], false, sums);
                    alpha[g] = std::clamp(alpha[g] + newtonStep(sums), -bound, bound);
                    if (result.weightFitted[m])
                        accumulate(counts[g], alpha[g], beta[m], true, forBeta);
                }
                if (result.weightFitted[m])
                    beta[m] = std::clamp(beta[m] + newtonStep(forBeta), 0.0, kBetaMax);
            }
        }
    }

    result.ability.assign(input.models, std::vector<double>(input.domains, std::numeric_limits<double>::quiet_NaN()));
    result.weight.resize(input.models);
    for (size_t m = 0; m < input.models; ++m) {
        const double scale = std::sqrt(1 + beta[m] * beta[m]);
        result.weight[m] = beta[m] * beta[m] / (scale * scale);
        for (size_t d = 0; d < input.domains; ++d) {
            const size_t g = m * input.domains + d;
            if (seen[g] > 0)
                result.ability[m][d] = std::clamp(alpha[g] / scale, -kAbilityMax, kAbilityMax);
        }
    }
    result.difficulty.assign(input.tasks, 0);
    for (size_t t = 0; t < input.tasks; ++t) {
        if (byTask[t].empty())
            continue;
        std::vector<Line> lines;
        lines.reserve(byTask[t].size());
        for (const size_t i : byTask[t]) {
            const auto& r = input.responses[i];
            lines.push_back({alpha[groupOf(r)], beta[r.model], r.correct, r.weight});
        }
        result.difficulty[t] = posteriorMode(lines);
    }
    return result;
}

} // namespace conclave
