// `conclave eval`: runs an experiment and prints its summary. The rules are in core/conclave/experiment.
#include "Commands.h"
#include "CtrlCWatcher.h"
#include "ExperimentOutput.h"

#include "conclave/experiment/CalibrationUncertainty.h"
#include "conclave/experiment/ExperimentReport.h"
#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/ExperimentSetup.h"
#include "conclave/experiment/StoredTrials.h"
#include "conclave/experiment/TeamCostBound.h"
#include "conclave/store/RunStore.h"
#include "conclave/util/MoneyText.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace conclave::cli {

namespace {

std::string progressText(const ExperimentRunner::Progress& p, const std::vector<std::string>& designs)
{
    std::string line = std::to_string(p.done) + "/" + std::to_string(p.total) + " trials";
    for (size_t i = 0; i < designs.size() && i < p.scored.size(); ++i) {
        char acc[16] = "-";
        if (p.scored[i] > 0)
            std::snprintf(acc, sizeof acc, "%.1f%%", 100.0 * double(p.correct[i]) / double(p.scored[i]));
        line += " | " + designs[i] + " " + acc;
    }
    line += " | " + moneyText(p.costUsd);
    if (p.etaS) {
        char eta[32];
        std::snprintf(eta, sizeof eta, " | ETA %.0f s", *p.etaS);
        line += eta;
    }
    return line;
}

bool confirm(const CliContext& context, const std::string& question)
{
    context.err << question << " [y/N] " << std::flush;
    std::string answer;
    if (!std::getline(std::cin, answer))
        return false;
    return answer == "y" || answer == "Y" || answer == "yes";
}

} // namespace

int runEval(const CliContext& context, const EvalArgs& args)
{
    auto resources = context.engineResources();
    if (!resources || !context.resources)
        return kExitBadInput;

    std::optional<Shard> shard;
    if (!args.shard.empty()) {
        std::string error;
        shard = Shard::parse(args.shard, error);
        if (!shard) {
            context.err << "eval: --shard: " << error << '\n';
            return kExitBadInput;
        }
    }

    const auto dbPath = RunStore::resolvePath(args.db);
    auto opened = RunStore::open(dbPath);
    if (!opened.store) {
        context.err << "eval: " << opened.error << '\n';
        return kExitBadInput;
    }
    auto& store = *opened.store;

    SetupResult setup;
    if (!args.resume.empty()) {
        std::string error;
        auto reader = store.reader(error);
        auto record = reader ? reader->experiment(args.resume, error) : std::nullopt;
        if (!record) {
            context.err << "eval: --resume: " << error << '\n';
            return kExitBadInput;
        }
        if (record->status == ExperimentStatus::Finished && !shard) {
            context.err << "eval: experiment " << record->id << " is finished; nothing to resume\n";
            return kExitBadInput;
        }
        setup = ExperimentSetup::resume(*record, *context.resources);
    } else {
        setup = ExperimentSetup::build(args.request, *context.resources);
    }
    for (const auto& warning : setup.warnings)
        context.err << warning << '\n';
    for (const auto& error : setup.errors)
        context.err << error << '\n';
    if (!setup.spec)
        return kExitBadInput;
    auto& spec = *setup.spec;

    const auto trials = planTrials(spec, shard).size();
    const auto bound = ExperimentSetup::costBound(spec);
    if (bound.paidTrials > 0 || args.dryRun) {
        context.err << "eval: " << trials << " trials (" << spec.designs.size() << " designs x "
                    << spec.tasks->tasks().size() << " tasks x " << spec.seeds.size() << " seeds"
                    << (shard ? ", shard " + shard->text() : "") << "); ";
        if (bound.paidTrials == 0) {
            context.err << "every design runs on the local simulator: no cost\n";
        } else {
            context.err << bound.paidTrials << " of all " << planTrials(spec, std::nullopt).size()
                        << " call paid endpoints: typically " << moneyText(bound.typicalUsd) << ", at most "
                        << moneyText(bound.upperUsd) << " (every retry and fallback, every round, transcripts at "
                        << "their longest)\n";
            for (const auto& model : bound.unpriced)
                context.err << "eval: " << model << " has no price: its calls count as free\n";
            for (const auto& node : bound.uncapped)
                context.err << "eval: " << node << " sets no max_tokens: its replies count as "
                            << TeamCostBound::kAssumedMaxTokens << " tokens\n";
        }
    }
    if (args.dryRun)
        return kExitOk;
    if (bound.paidTrials > 0 && !args.yes && ::isatty(STDIN_FILENO) && !confirm(context, "Go on?")) {
        context.err << "eval: not started\n";
        return kExitFailed;
    }

    Engine engine(std::move(*resources));
    engine.setStore(dbPath); // where a recorded backend without a db reads
    ExperimentRunner::Options options;
    options.concurrency = args.concurrency;
    options.maxCostUsd = args.maxCostUsd;
    options.shard = shard;
    options.virtualClockOnly = args.summariesOnly;
    StoredTrials sink(store, args.summariesOnly ? StoredTrials::Keep::Rows : StoredTrials::Keep::Runs);
    ExperimentRunner runner(engine, sink, spec, options);

    const bool live = ::isatty(STDERR_FILENO) && !args.json;
    const auto names = spec.designNames();
    auto lastPrint = std::chrono::steady_clock::now();
    runner.setProgressHandler([&](const ExperimentRunner::Progress& p) {
        const auto now = std::chrono::steady_clock::now();
        if (!live || (now - lastPrint < std::chrono::milliseconds(100) && p.done < p.total))
            return;
        lastPrint = now;
        std::fprintf(stderr, "\r\033[K%s", progressText(p, names).c_str());
        std::fflush(stderr);
    });

    const auto outcome = [&] {
        const CtrlCWatcher ctrlC([&] { runner.stop("stopped by Ctrl+C: the trials in flight were cancelled"); });
        return runner.run();
    }();
    if (live)
        std::fprintf(stderr, "\r\033[K");
    if (!outcome.error.empty()) {
        context.err << "eval: " << outcome.error << '\n';
        return kExitBadInput;
    }
    if (!outcome.note.empty())
        context.err << "eval: " << outcome.note << '\n';
    store.flush();
    return printExperiment(context, store, runner.id(), args.json, args.output, args.gates,
                           outcome.status == ExperimentStatus::Finished,
                           {&engine, &runner.spec(),
                            args.calibrationUncertainty ? CalibrationUncertainty::kResamples : 0});
}

} // namespace conclave::cli
