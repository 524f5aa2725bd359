#include "conclave/experiment/RepeatAgreement.h"

#include "conclave/experiment/NormalOgive.h"

#include <algorithm>

namespace conclave {

std::map<std::string, RepeatAgreement::Model>
RepeatAgreement::fit(const std::vector<CalibrationSamples::Answer>& answers, const std::vector<double>& weights,
                     const LineOf& lineOf)
{
    // Per task, its answers' indices; per (model, task), the first answer of each seed.
    std::map<std::string, std::vector<size_t>> byTask;
    std::map<std::pair<std::string, std::string>, std::map<uint64_t, size_t>> bySeed;
    for (size_t i = 0; i < answers.size(); ++i) {
        byTask[answers[i].task].push_back(i);
        bySeed[{answers[i].model, answers[i].task}].emplace(answers[i].seed, i);
    }
    struct Sums {
        int64_t tasks = 0;
        double observed = 0;
        double expected = 0;
    };
    std::map<std::string, Sums> sums;
    for (const auto& [key, seeds] : bySeed) {
        if (seeds.size() < 2)
            continue;
        const auto& [model, task] = key;
        std::vector<bool> right;
        for (const auto& [seed, i] : seeds)
            right.push_back(answers[i].correct);
        const auto k = int64_t(right.size());
        const auto rights = std::count(right.begin(), right.end(), true);
        const auto wrongs = k - rights;
        const double pairs = double(k * (k - 1)) / 2;
        const double alike = (double(rights * (rights - 1)) + double(wrongs * (wrongs - 1))) / 2 / pairs;

        std::vector<JointFit::Line> others;
        for (const size_t i : byTask.at(task)) {
            if (answers[i].model != model)
                others.push_back(lineOf(answers[i], weights[i]));
        }
        const auto own = lineOf(answers[seeds.begin()->second], 1);
        const double expected = JointFit::posteriorMean(others, [&own](double z) {
            const double p = NormalOgive::cdf(own.alpha - own.beta * z);
            return p * p + (1 - p) * (1 - p);
        });
        auto& s = sums[model];
        ++s.tasks;
        s.observed += alike;
        s.expected += expected;
    }
    std::map<std::string, Model> out;
    for (const auto& [model, s] : sums) {
        Model m{s.tasks, s.observed / double(s.tasks), s.expected / double(s.tasks), 0};
        if (m.tasks >= kMinTasks && m.expected < 1)
            m.fitted = std::clamp((m.observed - m.expected) / (1 - m.expected), 0.0, 1.0);
        out.emplace(model, m);
    }
    return out;
}

} // namespace conclave
