// `conclave train-scorer`: a learned cascade scorer's file from stored experiments.
#include "Commands.h"
#include "FixedText.h"

#include "conclave/experiment/ScorerTraining.h"
#include "conclave/io/FileIo.h"
#include "conclave/routing/ScorerFile.h"

#include <cstdio>
#include <ostream>

namespace conclave::cli {

namespace {

std::string optionalFixed(const std::optional<double>& value)
{
    return value ? fixed(*value, 3) : "-";
}

} // namespace

int runTrainScorer(const CliContext& context, const TrainScorerArgs& args)
{
    const auto fail = [&](const std::string& message) {
        context.err << "train-scorer: " << message << '\n';
        return kExitBadInput;
    };
    ScorerTraining::Options options;
    options.experiments = args.experiments;
    options.models = args.models;
    if (!(args.holdout >= 0 && args.holdout < 1))
        return fail("--holdout: expected a share from 0 (train on every task) to below 1, got " +
                    fixed(args.holdout, 3));
    options.holdout = args.holdout;
    options.seed = args.seed;
    if (!context.resources)
        return fail("cannot find the resources folder (task sets, the gate)");
    const auto resources = context.engineResources();
    if (!resources)
        return kExitBadInput;
    const auto reader = context.openReader(args.db, "train-scorer");
    if (!reader)
        return kExitBadInput;
    std::string error;
    auto result = ScorerTraining::run(*reader, options, *context.resources, resources->gate, error);
    if (!result)
        return fail(error);
    for (const auto& warning : result->warnings)
        context.err << "warning: " << warning << '\n';
    const auto& model = result->model;
    if (const auto failed = writeFileAtomically(args.output, ScorerFile::toJsonText(model)))
        return fail(args.output + ": " + *failed);

    int64_t answers = 0;
    for (const auto n : model.answers)
        answers += n;
    context.out << "wrote " << args.output << ": cascade scorer over " << model.models.size() << " models, trained on "
                << model.tasks.size() << " tasks (" << answers << " answers) of " << model.experiments.size()
                << (model.experiments.size() == 1 ? " experiment" : " experiments") << '\n';
    if (!model.heldoutTasks.empty())
        context.out << "held out: " << model.heldoutTasks.size() << " tasks (" << fixed(model.holdout * 100, 0)
                    << " %, seed " << model.seed << ")\n";
    context.out << "  step  model                 answers  base rate       C  held-out answers  log loss  "
                   "scorer AUROC  confidence AUROC\n";
    for (size_t m = 0; m < model.models.size(); ++m) {
        const ScorerModel::HeldOut* h = m < model.heldout.size() ? &model.heldout[m] : nullptr;
        char line[320];
        std::snprintf(line, sizeof line, "  %4zu  %-20s %8lld  %9s  %6s  %16s  %8s  %12s  %16s\n", m + 1,
                      model.models[m].c_str(), static_cast<long long>(model.answers[m]),
                      fixed(model.baseRates[m], 3).c_str(),
                      fixed(model.linear[m].c, model.linear[m].c < 1 ? 4 : 0).c_str(),
                      h ? std::to_string(h->answers).c_str() : "-", h ? optionalFixed(h->logLoss).c_str() : "-",
                      h ? optionalFixed(h->auroc).c_str() : "-", h ? optionalFixed(h->confidenceAuroc).c_str() : "-");
        context.out << line;
    }
    return kExitOk;
}

} // namespace conclave::cli
