// `conclave calibrate`: fit simulator profiles to the models stored experiments (and served runs) called.
#include "Commands.h"

#include "conclave/experiment/ModelCalibration.h"
#include "conclave/io/FileIo.h"
#include "conclave/resources/LocalModelCatalog.h"
#include "conclave/store/RunStore.h"
#include "conclave/util/NumberText.h"
#include "conclave/util/UtcTime.h"

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace conclave::cli {

namespace {

// One line per model: what was fitted, for a reader to check at a glance.
std::string summary(const std::string& name, const ModelProfile& p)
{
    std::string line = name + ":";
    if (p.ttftMs)
        line += " ttft " + formatNumber(p.ttftMs->median) + " ms,";
    if (p.tokensPerS)
        line += " " + formatNumber(p.tokensPerS->median) + " tokens/s,";
    if (p.failureRate)
        line += " failure rate " + formatNumber(*p.failureRate) + ",";
    if (p.skills && !p.skills->empty()) {
        line += " skills";
        for (const auto& [domain, skill] : *p.skills)
            line += " " + domain + " " + formatNumber(skill) + " (" + std::to_string(p.trials->at(domain)) + ")";
    } else {
        line += " no skills";
    }
    if (p.difficultyWeight)
        line += ", difficulty weight " + formatNumber(*p.difficultyWeight);
    if (p.errorAgreement)
        line += ", error agreement " + formatNumber(*p.errorAgreement);
    if (p.confidence)
        line += ", confidence right " + formatNumber(p.confidence->right.mean) + " wrong " +
                formatNumber(p.confidence->wrong.mean);
    if (p.loadSlope)
        line += ", load slope " + formatNumber(*p.loadSlope);
    if (p.retryRepeat)
        line += ", retry repeat " + formatNumber(*p.retryRepeat);
    if (p.conformity)
        line += ", conformity " + formatNumber(*p.conformity);
    if (p.repeatAgreement)
        line += ", repeat agreement " + formatNumber(*p.repeatAgreement);
    // What the simulator will take from its built-in defaults instead.
    std::string missing;
    for (const auto& field : ModelCalibration::defaultsKept(p))
        missing += (missing.empty() ? "" : ", ") + field;
    if (!missing.empty())
        line += "\n    not measured — built-in default used: " + missing;
    return line;
}

// "352 trials of 1 experiment", "40 served runs since 2024-05-01", or both joined by "and".
std::string sources(const CalibrationSamples& samples, const CalibrateArgs& args)
{
    std::string text;
    if (!samples.experiments.empty())
        text = std::to_string(samples.trials) + " trials of " + std::to_string(samples.experiments.size()) +
               (samples.experiments.size() == 1 ? " experiment" : " experiments");
    if (args.runsFromServe)
        text += (text.empty() ? "" : " and ") + std::to_string(samples.servedRuns) +
                (samples.servedRuns == 1 ? " served run" : " served runs") + " since " + *args.runsFromServe;
    return text;
}

} // namespace

int runCalibrate(const CliContext& context, const CalibrateArgs& args)
{
    const auto fail = [&](const std::string& message) {
        context.err << "calibrate: " << message << '\n';
        return kExitBadInput;
    };
    std::optional<int64_t> servedSince;
    if (args.runsFromServe) {
        servedSince = UtcTime::parseMs(*args.runsFromServe);
        if (!servedSince)
            return fail("--runs-from-serve: expected a UTC date YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ, got \"" +
                        *args.runsFromServe + "\"");
    } else if (args.experiments.empty()) {
        return fail("nothing to read: give experiment ids, --runs-from-serve SINCE, or both");
    }
    ModelCalibration::Options options;
    options.models = args.models;
    for (const auto& text : args.contexts) {
        std::string error;
        if (!ModelCalibration::addContext(text, options, error))
            return fail("--context " + text + ": " + error);
    }
    if (!context.resources)
        return fail("cannot find the resources folder (task sets, local models)");
    const auto catalog = LocalModelCatalog::load(*context.resources / "models" / "local-models.json");
    if (!catalog.catalog)
        return fail("cannot read the local model catalog in " + context.resources->string());
    const auto reader = context.openReader(args.db, "calibrate");
    if (!reader)
        return kExitBadInput;
    std::string error;
    auto samples = CalibrationSamples::read(*reader, args.experiments, *context.resources, error);
    if (!samples)
        return fail(error);
    if (servedSince && !samples->readServed(*reader, *servedSince, error))
        return fail(error);
    const auto fitted = ModelCalibration::fit(*samples, catalog.catalog->models(), options);
    if (!fitted.error.empty())
        return fail(fitted.error);
    if (fitted.models.empty())
        return fail(std::string(args.experiments.empty() ? "the served runs"
                                : servedSince            ? "the experiments and served runs"
                                                         : "the experiments") +
                    " made no finished model calls; there is nothing to fit");
    for (const auto& warning : fitted.warnings)
        context.err << "warning: " << warning << '\n';
    if (const auto failed = writeFileAtomically(args.output, ModelsFile::toJsonText(fitted.models)))
        return fail(args.output + ": " + *failed);
    std::vector<Task> measured;
    if (args.tasksOut) {
        measured = ModelCalibration::measuredTasks(*samples, fitted);
        if (const auto failed = writeFileAtomically(*args.tasksOut, TaskSet::toJsonl(measured)))
            return fail(*args.tasksOut + ": " + *failed);
    }
    context.out << "wrote " << args.output << ": " << fitted.models.size()
                << (fitted.models.size() == 1 ? " model" : " models") << " from " << sources(*samples, args) << '\n';
    for (const auto& [name, profile] : fitted.models)
        context.out << "  " << summary(name, profile) << '\n';
    if (servedSince)
        context.out << "skills and confidence come from experiments only: served runs have no known answers\n";
    if (args.tasksOut)
        context.out << "wrote " << *args.tasksOut << ": " << measured.size()
                    << (measured.size() == 1 ? " task" : " tasks") << " with fitted difficulties\n";
    return kExitOk;
}

} // namespace conclave::cli
