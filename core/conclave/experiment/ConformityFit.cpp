#include "conclave/experiment/ConformityFit.h"

#include "conclave/experiment/JointFit.h"
#include "conclave/experiment/NormalOgive.h"
#include "conclave/local/ItemBank.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace conclave {

namespace {

constexpr double kSkillFloor = 1e-4; // Φ⁻¹ stays finite
constexpr double kWeightMax = 0.98;  // the joint fit's largest weight

// An answer of `curve`'s model in `domain` as a line of the task's likelihood: η(z) = α − β·z.
std::optional<JointFit::Line> lineOf(const ConformityFit::Curve& curve, const std::string& domain, bool correct,
                                     double weight)
{
    const auto skill = curve.skills.find(domain);
    if (skill == curve.skills.end())
        return std::nullopt;
    const double w = std::clamp(curve.weight, 0.0, kWeightMax);
    const double a = NormalOgive::quantile(std::clamp(skill->second, kSkillFloor, 1 - kSkillFloor));
    return JointFit::Line{a / std::sqrt(1 - w), std::sqrt(w) / std::sqrt(1 - w), correct, weight};
}

} // namespace

std::map<std::string, BehaviourFit::Conformity> ConformityFit::fit(const CalibrationSamples& samples,
                                                                   const std::vector<double>& answerWeights,
                                                                   const std::map<std::string, Curve>& curves)
{
    std::map<std::string, BehaviourFit::Conformity> out;
    if (samples.meetingTurns.empty())
        return out;
    std::map<std::string, std::vector<JointFit::Line>> byTask;
    for (size_t i = 0; i < samples.answers.size() && i < answerWeights.size(); ++i) {
        const auto& a = samples.answers[i];
        const auto curve = curves.find(a.model);
        if (curve == curves.end())
            continue;
        if (const auto line = lineOf(curve->second, a.domain, a.correct, answerWeights[i]))
            byTask[a.task].push_back(*line);
    }
    std::map<std::string, std::vector<BehaviourFit::Turn>> turns;
    for (const auto& t : samples.meetingTurns) {
        const auto own = curves.find(t.model);
        if (own == curves.end())
            continue;
        const auto skill = own->second.skills.find(t.domain);
        if (skill == own->second.skills.end())
            continue;
        const auto answered = byTask.find(t.task);
        auto lines = answered == byTask.end() ? std::vector<JointFit::Line>{} : answered->second;
        for (const auto& [model, right] : t.shownAlone) {
            const auto curve = curves.find(model);
            if (curve == curves.end())
                continue;
            if (const auto line = lineOf(curve->second, t.domain, right, 1))
                lines.push_back(*line);
        }
        const double w = own->second.weight;
        const double s = skill->second;
        const double alone = JointFit::posteriorMean(lines, [&](double z) { return ItemBank::pCorrect(s, z, w); });
        turns[t.model].push_back({t.pluralityRight, t.correct, alone});
    }
    for (const auto& [model, list] : turns)
        if (const auto c = BehaviourFit::conformity(list, 1))
            out.emplace(model, *c);
    return out;
}

} // namespace conclave
