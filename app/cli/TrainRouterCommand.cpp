// `conclave train-router`: a learned router's file from stored experiments.
#include "Commands.h"
#include "FixedText.h"

#include "conclave/experiment/RouterTraining.h"
#include "conclave/io/FileIo.h"
#include "conclave/routing/RouterFile.h"

#include <cstdio>
#include <ostream>

namespace conclave::cli {

namespace {

std::string signedFixed(double value)
{
    return (value >= 0 ? "+" : "") + fixed(value, 3);
}

std::string optionalFixed(const std::optional<double>& value)
{
    return value ? fixed(*value, 3) : "-";
}

} // namespace

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

    int64_t answers = 0;
    for (const auto n : model.answers)
        answers += n;
    context.out << "wrote " << args.output << ": " << toString(model.method) << " router over "
                << model.models.size() << " models, trained on " << model.tasks.size() << " tasks (" << answers
                << " answers) of " << model.experiments.size()
                << (model.experiments.size() == 1 ? " experiment" : " experiments") << '\n';
    if (model.method == RouterModel::Method::Knn)
        context.out << "  k " << model.k << " (chosen by 5-fold cross-validation grouped by task)\n";
    if (!model.heldoutTasks.empty())
        context.out << "held out: " << model.heldoutTasks.size() << " tasks (" << fixed(model.holdout * 100, 0)
                    << " %, seed " << model.seed << ")\n";
    context.out << "  model                 answers  base rate" << (model.method == RouterModel::Method::Logistic ? "       C" : "")
                << "  held-out log loss  AUROC  domain-only AUROC\n";
    for (size_t m = 0; m < model.models.size(); ++m) {
        const RouterModel::HeldOut* h = m < model.heldout.size() ? &model.heldout[m] : nullptr;
        char line[256];
        std::snprintf(line, sizeof line, "  %-20s %8lld  %9s", model.models[m].c_str(),
                      static_cast<long long>(model.answers[m]), fixed(model.baseRates[m], 3).c_str());
        context.out << line;
        if (model.method == RouterModel::Method::Logistic) {
            std::snprintf(line, sizeof line, "  %6s", fixed(model.linear[m].c, model.linear[m].c < 1 ? 4 : 0).c_str());
            context.out << line;
        }
        std::snprintf(line, sizeof line, "  %17s  %5s  %17s", h ? optionalFixed(h->logLoss).c_str() : "-",
                      h ? optionalFixed(h->auroc).c_str() : "-", h ? optionalFixed(h->domainAuroc).c_str() : "-");
        context.out << line << '\n';
    }
    if (result->auroc && result->domainAuroc) {
        context.out << "mean held-out AUROC " << fixed(*result->auroc, 3) << " (domain-only "
                    << fixed(*result->domainAuroc, 3) << ")";
        if (result->gainCi)
            context.out << "; the prompt's gain " << signedFixed(*result->auroc - *result->domainAuroc) << ", 95 % CI ["
                        << signedFixed(result->gainCi->first) << ", " << signedFixed(result->gainCi->second)
                        << "] (paired bootstrap over held-out tasks)";
        context.out << '\n';
    }
    if (result->domainNote)
        context.out << *result->domainNote << '\n';
    return kExitOk;
}

} // namespace conclave::cli
