#include "conclave/search/CandidateTrials.h"

#include "conclave/analysis/PairedComparison.h"
#include "conclave/analysis/Quantile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace conclave {

namespace {

PairedComparison::Statistic statisticOf(Objective objective)
{
    switch (objective) {
    case Objective::P50Wall:
        return PairedComparison::Statistic::P50;
    case Objective::P95Wall:
        return PairedComparison::Statistic::P95;
    default:
        return PairedComparison::Statistic::Mean;
    }
}

std::string number(const char* format, double value)
{
    char text[48];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

} // namespace

TrialCell TrialCell::of(const TrialRecord& trial)
{
    TrialCell cell;
    cell.ran = true;
    cell.scored = ExperimentStats::scored(trial);
    cell.right = ExperimentStats::right(trial);
    cell.failed = trial.failed();
    cell.wallMs = double(trial.wallUs) / 1000.0;
    cell.costUsd = trial.costUsd;
    cell.tokens = double(trial.tokens);
    cell.calls = double(trial.calls);
    return cell;
}

bool CandidateTrials::has(size_t task) const
{
    for (size_t s = 0; s < m_seeds; ++s) {
        if (!at(task, s).ran)
            return false;
    }
    return true;
}

bool CandidateTrials::sameAs(const CandidateTrials& other, const std::vector<size_t>& tasks) const
{
    for (const size_t t : tasks) {
        for (size_t s = 0; s < m_seeds; ++s) {
            if (!(at(t, s) == other.at(t, s)))
                return false;
        }
    }
    return true;
}

std::vector<double> CandidateTrials::taskAccuracy(const std::vector<size_t>& tasks) const
{
    std::vector<double> out;
    out.reserve(tasks.size());
    for (const size_t t : tasks) {
        int scored = 0;
        int right = 0;
        for (size_t s = 0; s < m_seeds; ++s) {
            const auto& cell = at(t, s);
            scored += cell.ran && cell.scored ? 1 : 0;
            right += cell.ran && cell.right ? 1 : 0;
        }
        out.push_back(scored == 0 ? std::numeric_limits<double>::quiet_NaN() : double(right) / double(scored));
    }
    return out;
}

std::vector<std::vector<double>> CandidateTrials::observations(const std::vector<size_t>& tasks,
                                                               Objective objective) const
{
    std::vector<std::vector<double>> out(tasks.size());
    for (size_t i = 0; i < tasks.size(); ++i) {
        for (size_t s = 0; s < m_seeds; ++s) {
            const auto& cell = at(tasks[i], s);
            if (!cell.ran)
                continue;
            switch (objective) {
            case Objective::Accuracy:
                out[i].push_back(cell.right ? 1 : 0);
                break;
            case Objective::Cost:
                out[i].push_back(cell.costUsd);
                break;
            case Objective::P50Wall:
            case Objective::P95Wall:
                out[i].push_back(cell.wallMs);
                break;
            case Objective::Calls:
                out[i].push_back(cell.calls);
                break;
            case Objective::Tokens:
                out[i].push_back(cell.tokens);
                break;
            }
        }
    }
    return out;
}

ObjectiveFigures CandidateTrials::figures(const std::vector<size_t>& tasks) const
{
    ObjectiveFigures f;
    double accuracy = 0;
    double cost = 0;
    double tokens = 0;
    double calls = 0;
    std::vector<double> walls;
    for (const double a : taskAccuracy(tasks)) {
        if (std::isnan(a))
            continue;
        accuracy += a;
        ++f.tasks;
    }
    for (const size_t t : tasks) {
        for (size_t s = 0; s < m_seeds; ++s) {
            const auto& cell = at(t, s);
            if (!cell.ran)
                continue;
            ++f.trials;
            cost += cell.costUsd;
            tokens += cell.tokens;
            calls += cell.calls;
            walls.push_back(cell.wallMs);
        }
    }
    std::sort(walls.begin(), walls.end());
    const double n = double(std::max<size_t>(f.trials, 1));
    f.value[size_t(Objective::Accuracy)] = f.tasks == 0 ? 0 : accuracy / double(f.tasks);
    f.value[size_t(Objective::Cost)] = cost / n;
    f.value[size_t(Objective::P50Wall)] = Quantile::of(walls, 0.5);
    f.value[size_t(Objective::P95Wall)] = Quantile::of(walls, 0.95);
    f.value[size_t(Objective::Calls)] = calls / n;
    f.value[size_t(Objective::Tokens)] = tokens / n;
    return f;
}

bool CandidateDominance::same(double a, double b)
{
    return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b));
}

bool CandidateDominance::dominates(const ObjectiveFigures& a, const ObjectiveFigures& b,
                                   const std::vector<Objective>& objectives)
{
    bool better = false;
    for (const auto o : objectives) {
        if (same(a[o], b[o]))
            continue;
        const bool aBetter = SearchObjectives::maximised(o) ? a[o] > b[o] : a[o] < b[o];
        if (!aBetter)
            return false;
        better = true;
    }
    return better;
}

std::optional<std::string> CandidateDominance::shown(const CandidateTrials& a, const CandidateTrials& b,
                                                     const std::vector<size_t>& tasks,
                                                     const std::vector<Objective>& objectives, double level,
                                                     uint64_t seed)
{
    const auto fa = a.figures(tasks);
    const auto fb = b.figures(tasks);
    if (!dominates(fa, fb, objectives))
        return std::nullopt;
    const std::string at = number(" at %.1f %%", 100 * level);
    for (const auto o : objectives) {
        if (same(fa[o], fb[o]))
            continue;
        if (o == Objective::Accuracy) {
            // Paired over the tasks both scored.
            const auto accA = a.taskAccuracy(tasks);
            const auto accB = b.taskAccuracy(tasks);
            std::vector<double> pa;
            std::vector<double> pb;
            for (size_t i = 0; i < accA.size(); ++i) {
                if (!std::isnan(accA[i]) && !std::isnan(accB[i])) {
                    pa.push_back(accA[i]);
                    pb.push_back(accB[i]);
                }
            }
            const auto ci = PairedComparison::accuracyDelta(pa, pb, level);
            if (ci.lo > 0) {
                double delta = 0;
                for (size_t i = 0; i < pa.size(); ++i)
                    delta += pa[i] - pb[i];
                delta /= double(pa.size());
                return "accuracy " + number("%+.1f pt", 100 * delta) + number(" [%.1f, ", 100 * ci.lo) +
                       number("%.1f]", 100 * ci.hi) + at + " over " + std::to_string(pa.size()) + " tasks";
            }
            continue;
        }
        const auto oa = a.observations(tasks, o);
        const auto ob = b.observations(tasks, o);
        const auto statistic = statisticOf(o);
        const auto ci = PairedComparison::ratioInterval(oa, ob, statistic, level, kResamples, seed);
        if (ci.hi < 1) {
            return std::string(toString(o)) + number(" x%.3f", PairedComparison::ratio(oa, ob, statistic)) +
                   number(" [%.3f, ", ci.lo) + number("%.3f]", ci.hi) + at + " over " +
                   std::to_string(tasks.size()) + " tasks";
        }
    }
    return std::nullopt;
}

} // namespace conclave
