// `conclave bench routing`, per world: a two-member cascade (weak, then
// strong) that escalates on a learned scorer (train-scorer) against the same
// cascade escalating on the weak model's stated confidence, on the held-out tasks.
#include "Commands.h"
#include "FixedText.h"

#include "conclave/analysis/CurveBootstrap.h"
#include "conclave/experiment/CalibrationSamples.h"
#include "conclave/experiment/RouterEvaluation.h"
#include "conclave/experiment/ScorerTraining.h"
#include "conclave/experiment/SweepCurveText.h"
#include "conclave/experiment/TaskSplit.h"
#include "conclave/routing/ScorerPredictor.h"

#include <map>

namespace conclave::cli {

std::optional<std::string> cascadeScorerLines(std::ostream& out, RunQueries& reader, const std::string& experiment,
                                              uint64_t splitSeed, const std::filesystem::path& resources,
                                              std::shared_ptr<const Gate> gate, const ModelOutcomes& outcomes,
                                              const std::vector<std::string>& heldout)
{
    ScorerTraining::Options training;
    training.experiments = {experiment};
    training.models = {"weak", "strong"};
    training.holdout = 0.5;
    training.seed = splitSeed;
    std::string error;
    const auto trained = ScorerTraining::run(reader, training, resources, gate, error);
    if (!trained)
        return "scorer: " + error;
    const auto scorer = ScorerPredictor::make(trained->model, gate, error);
    if (!scorer)
        return "scorer: " + error;
    const auto split = TaskSplit::holdout(0.5, splitSeed, error);
    if (!split)
        return error;
    const auto samples = CalibrationSamples::read(
        reader, {experiment}, resources, error,
        [&split](std::string_view hash, std::string_view id) { return split->partOf(hash, id) == 1; });
    if (!samples)
        return error;

    // The weak model's answer to each held-out task: its stated confidence and the scorer's p.
    std::map<std::string, std::pair<double, double>> byTaskId;
    for (const auto& step : ScorerTraining::instances(*samples, training.models)) {
        if (step.model != 0)
            continue;
        const auto& task = samples->tasks.at(step.task).task;
        const double p = scorer->predict(0, scorer->features().vector(task.prompt), step.answer);
        byTaskId.emplace(task.id, std::pair{step.confidence, p});
    }
    const auto escalating = [&](bool learned) {
        return [&byTaskId, learned](const Task& task) {
            const auto it = byTaskId.find(task.id);
            const double score = it == byTaskId.end() ? 1.0 : learned ? it->second.second : it->second.first;
            return std::pair{score, 1.0}; // escalate when 1 − score clears the threshold: the lowest scores first
        };
    };
    RouterEvaluation::Options options;
    options.strong = "strong";
    options.weak = "weak";
    options.cascade = true;
    options.name = "stated confidence";
    auto input = RouterEvaluation::strongWeak(outcomes, heldout, escalating(false), options, error);
    options.name = "learned scorer";
    const auto learnedInput = RouterEvaluation::strongWeak(outcomes, heldout, escalating(true), options, error);
    if (!input || !learnedInput)
        return "cascade: " + error;
    input->curves.push_back(learnedInput->curves.front());
    const auto report = CurveBootstrap::compute(*input, {}, error);
    if (!report)
        return "cascade: " + error;

    const auto& weak = trained->model.heldout.front();
    out << "  cascade weak -> strong, escalating the weak answers that score lowest: held-out AUROC of the weak "
           "answers, learned scorer "
        << (weak.auroc ? fixed(*weak.auroc, 3) : "-") << " vs stated confidence "
        << (weak.confidenceAuroc ? fixed(*weak.confidenceAuroc, 3) : "-") << " (" << weak.answers << " answers)\n";
    for (const auto& curve : report->curves)
        out << "    " << curve.name << ": " << SweepCurveText::figures(curve) << '\n';
    const auto& stated = report->curves[0].points;
    const auto& learned = report->curves[1].points;
    int above = 0, below = 0;
    for (size_t v = 1; v + 1 < stated.size(); ++v) {
        above += learned[v].quality > stated[v].quality ? 1 : 0;
        below += learned[v].quality < stated[v].quality ? 1 : 0;
    }
    out << "    at the " << stated.size() - 2
        << " inner escalation shares (10 % ... 90 %) the learned scorer's quality is "
        << "higher at " << above << ", lower at " << below << '\n';
    return std::nullopt;
}

} // namespace conclave::cli
