// `conclave train-router`: a learned router's file from stored experiments.
#include "Commands.h"
#include "FixedText.h"

#include "conclave/experiment/RouterTraining.h"
#include "conclave/experiment/RouterTrainingText.h"
#include "conclave/io/FileIo.h"
#include "conclave/routing/RouterFile.h"

#include <cstdio>
#include <ostream>

namespace conclave::cli {

int runTrainRouter(const CliContext& context, const TrainRouterArgs& args)
{
    const auto fail = [&](const std::string& message) {
        context.err << "train-router: " << message << '\n';
        return kExitBadInput;
    };
    RouterTraining::Options options;
    options.experiments = args.experiments;
    options.models = args.models;
    if (args.method == "knn")
        options.method = RouterModel::Method::Knn;
    else if (args.method != "logistic")
        return fail("--method: expected logistic or knn, got \"" + args.method + "\"");
    if (args.weights == "separate")
        options.weights = RouterTrainer::Weights::Separate;
    else if (args.weights == "common")
        options.weights = RouterTrainer::Weights::Common;
    else if (args.weights != "chosen")
        return fail("--weights: expected chosen, separate or common, got \"" + args.weights + "\"");
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
    const auto reader = context.openReader(args.db, "train-router");
    if (!reader)
        return kExitBadInput;
    std::string error;
    auto result = RouterTraining::run(*reader, options, *context.resources, resources->gate, error);
    if (!result)
        return fail(error);
    for (const auto& warning : result->warnings)
        context.err << "warning: " << warning << '\n';
    const auto& model = result->model;
    if (const auto failed = writeFileAtomically(args.output, RouterFile::toJsonText(model)))
        return fail(args.output + ": " + *failed);

    context.out << "wrote " << args.output << ": " << RouterTrainingText::trained(model) << '\n';
    for (const auto& line : {RouterTrainingText::neighbours(model), RouterTrainingText::pooling(model)}) {
        if (line)
            context.out << "  " << *line << '\n';
    }
    if (const auto line = RouterTrainingText::heldOut(model))
        context.out << *line << '\n';
    context.out << "  model                 answers  base rate" << (model.method == RouterModel::Method::Logistic ? "       C" : "")
                << "  held-out log loss  AUROC  domain-only AUROC\n";
    for (size_t m = 0; m < model.models.size(); ++m) {
        const RouterModel::HeldOut* h = m < model.heldout.size() ? &model.heldout[m] : nullptr;
        char line[256];
        std::snprintf(line, sizeof line, "  %-20s %8lld  %9s", model.models[m].c_str(),
                      static_cast<long long>(model.answers[m]), RouterTrainingText::figure(model.baseRates[m]).c_str());
        context.out << line;
        if (model.method == RouterModel::Method::Logistic) {
            std::snprintf(line, sizeof line, "  %6s", fixed(model.linear[m].c, model.linear[m].c < 1 ? 4 : 0).c_str());
            context.out << line;
        }
        std::snprintf(line, sizeof line, "  %17s  %5s  %17s", h ? RouterTrainingText::figure(h->logLoss).c_str() : "-",
                      h ? RouterTrainingText::figure(h->auroc).c_str() : "-",
                      h ? RouterTrainingText::figure(h->domainAuroc).c_str() : "-");
        context.out << line << '\n';
    }
    if (const auto line = RouterTrainingText::meanAuroc(*result))
        context.out << *line << '\n';
    if (result->domainNote)
        context.out << *result->domainNote << '\n';
    return kExitOk;
}

} // namespace conclave::cli
