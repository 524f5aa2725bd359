#include "conclave/experiment/PairwiseAgreement.h"

#include "conclave/local/WrongAnswers.h"

#include <boost/math/tools/minima.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

namespace conclave {

namespace {

struct Cell {
    int64_t pairs = 0;
    int64_t same = 0;
};

// (model index, other model index, K) → counts, each unordered pair once.
using Cells = std::map<std::tuple<size_t, size_t, int>, Cell>;

double compositeLogLikelihood(const Cells& cells, const std::vector<double>& q, size_t model)
{
    double sum = 0;
    for (const auto& [key, cell] : cells) {
        const auto [a, b, k] = key;
        if (a != model && b != model)
            continue;
        const double p = std::clamp(WrongAnswers::pairAgreement(q[a], q[b], size_t(k)), 1e-12, 1 - 1e-12);
        sum += double(cell.same) * std::log(p) + double(cell.pairs - cell.same) * std::log(1 - p);
    }
    return sum;
}

} // namespace

PairwiseAgreement PairwiseAgreement::fit(const std::vector<CalibrationSamples::Answer>& answers)
{
    std::map<std::string, size_t> index;
    for (const auto& a : answers)
        index.emplace(a.model, 0);
    std::vector<std::string> names;
    for (auto& [name, i] : index) {
        i = names.size();
        names.push_back(name);
    }
    std::map<std::string, std::vector<const CalibrationSamples::Answer*>> wrongByTask;
    for (const auto& a : answers) {
        if (!a.correct && a.wrongOptions >= 2)
            wrongByTask[a.task].push_back(&a);
    }
    Cells cells;
    std::vector<int> fewestOptions(names.size(), 0);
    PairwiseAgreement out;
    for (const auto& [task, wrong] : wrongByTask) {
        for (size_t i = 0; i < wrong.size(); ++i) {
            for (size_t j = i + 1; j < wrong.size(); ++j) {
                size_t a = index.at(wrong[i]->model);
                size_t b = index.at(wrong[j]->model);
                if (a == b)
                    continue;
                const bool same = wrong[i]->answer == wrong[j]->answer;
                const int k = wrong[i]->wrongOptions;
                auto& cell = cells[{std::min(a, b), std::max(a, b), k}];
                ++cell.pairs;
                cell.same += same ? 1 : 0;
                for (const size_t m : {a, b}) {
                    auto& model = out.models[names[m]];
                    ++model.pairs;
                    model.same += same ? 1 : 0;
                    fewestOptions[m] = fewestOptions[m] == 0 ? k : std::min(fewestOptions[m], k);
                }
            }
        }
    }
    // Coordinate ascent from several starts, the best kept: the likelihood is
    // flat wherever one model sits at chance (1/K), which can stall a single start.
    const auto ascend = [&](std::vector<double> q) {
        for (int cycle = 0; cycle < 200; ++cycle) {
            double moved = 0;
            for (size_t m = 0; m < names.size(); ++m) {
                if (fewestOptions[m] == 0)
                    continue;
                auto trial = q;
                const auto negative = [&](double value) {
                    trial[m] = value;
                    return -compositeLogLikelihood(cells, trial, m);
                };
                const double low = 1.0 / double(fewestOptions[m]);
                const double best = boost::math::tools::brent_find_minima(negative, low, 1.0, 40).first;
                moved = std::max(moved, std::abs(best - q[m]));
                q[m] = best;
            }
            if (moved < 1e-7)
                break;
        }
        return q;
    };
    const auto total = [&](const std::vector<double>& q) {
        double sum = 0;
        for (const auto& [key, cell] : cells) {
            const double p = std::clamp(WrongAnswers::pairAgreement(q[std::get<0>(key)], q[std::get<1>(key)], size_t(std::get<2>(key))), 1e-12,
                                        1 - 1e-12);
            sum += double(cell.same) * std::log(p) + double(cell.pairs - cell.same) * std::log(1 - p);
        }
        return sum;
    };
    const auto start = [&](double level, size_t low) {
        std::vector<double> q(names.size(), 0.5);
        for (size_t m = 0; m < names.size(); ++m) {
            if (fewestOptions[m] > 0)
                q[m] = m == low ? 1.0 / double(fewestOptions[m]) : std::max(level, 1.0 / double(fewestOptions[m]));
        }
        return q;
    };
    std::vector<std::vector<double>> starts{start(0.5, names.size()), start(0.9, names.size())};
    for (size_t m = 0; m < names.size(); ++m)
        starts.push_back(start(0.9, m));
    std::vector<double> q;
    double best = -std::numeric_limits<double>::infinity();
    for (const auto& from : starts) {
        auto candidate = ascend(from);
        const double value = total(candidate);
        if (value > best + 1e-9) {
            best = value;
            q = std::move(candidate);
        }
    }
    for (auto& [name, model] : out.models)
        model.fitted = q[index.at(name)];
    return out;
}

} // namespace conclave
