// conclave: the command-line face of conclave_core. Parsing only; the work is in the commands.
#include "Commands.h"
#include "BenchOptions.h"
#include "SearchOptions.h"
#include "ServeOptions.h"
#include "common/AllocatorTuning.h"

#include "conclave/Version.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <string>

namespace {

int usageError(const std::string& message)
{
    std::cerr << message << "\nRun with --help for more information.\n";
    return conclave::cli::kExitBadInput;
}

// "validate, fmt or run": the subcommands, as a usage error lists them.
std::string subcommandNames(const CLI::App& app)
{
    const auto subcommands = app.get_subcommands([](const CLI::App*) { return true; });
    std::string names;
    for (size_t i = 0; i < subcommands.size(); ++i) {
        if (i > 0)
            names += i + 1 == subcommands.size() ? " or " : ", ";
        names += subcommands[i]->get_name();
    }
    return names;
}

} // namespace

int main(int argc, char** argv)
{
    using namespace conclave::cli;
    conclave::app::tuneAllocator();

    CLI::App app{"Conclave: design, run and measure teams of LLM agents.", "conclave"};
    app.set_version_flag("--version", std::string("conclave ") + conclave::kVersion);
    // At most one; that there is one is checked after parsing, so that an unknown
    // one is named rather than reported as a missing subcommand.
    app.require_subcommand(0, 1);

    std::vector<std::string> validateFiles;
    auto* validate = app.add_subcommand("validate", "Check team files; exit 0 when all are valid, 2 otherwise");
    validate->add_option("files", validateFiles, "Team files (*.team.json)")->required();

    std::vector<std::string> fmtFiles;
    bool check = false;
    auto* fmt = app.add_subcommand("fmt", "Rewrite team files in canonical form (stable order, 2-space indent)");
    fmt->add_option("files", fmtFiles, "Team files (*.team.json)")->required();
    fmt->add_flag("--check", check, "Change nothing; exit 1 when a file is not in canonical form");

    RunArgs runArgs;
    uint64_t seed = 0;
    auto* run = app.add_subcommand("run", "Run a team on an input; exit 0 with an answer, 1 without");
    run->add_option("team", runArgs.team, "Team file (*.team.json)")->required();
    auto* inputOption = run->add_option("--input,-i", runArgs.input, "The question or task text");
    auto* seedOption = run->add_option("--seed", seed, "Seed for the local backend (default: the team's)");
    run->add_flag("--json", runArgs.json, "Print the run as one JSON object");
    double timeScale = 1;
    auto* timeScaleOption =
        run->add_option("--time-scale", timeScale, "Replace the local backends' time_scale (0.1 = ten times faster)")
            ->check(CLI::PositiveNumber);
    run->add_option("--clock", runArgs.clock,
                    "real, or virtual: simulated time, exact and as fast as the CPU allows (default: virtual when "
                    "every backend is local-moe or recorded; --time-scale alone selects real)")
        ->check(CLI::IsMember({"real", "virtual"}));
    auto* taskOption = run->add_option("--task", runArgs.task, "Run one task of a task set and say if it was right");
    run->add_option("--taskset", runArgs.taskset, "A task set file (*.jsonl) holding --task")->needs(taskOption);
    inputOption->excludes(taskOption);
    std::string runDb;
    auto* runDbOption = run->add_option("--db", runDb,
                                        "The run store (default: $CONCLAVE_DB, else "
                                        "$XDG_DATA_HOME/conclave/runs.sqlite)");

    RunsArgs runsArgs;
    std::string runsDb;
    auto* runs = app.add_subcommand("runs", "The stored runs: list, show, export, rerun, delete, prune");
    runs->require_subcommand(1, 1);
    const auto addDb = [&](CLI::App* sub) {
        return sub->add_option("--db", runsDb,
                               "The run store (default: $CONCLAVE_DB, else "
                               "$XDG_DATA_HOME/conclave/runs.sqlite)");
    };
    std::string statusNames = "running, ok, partial, failed, cancelled, budget_exhausted or interrupted";
    auto* runsList = runs->add_subcommand("list", "List runs, newest first");
    addDb(runsList);
    runsList->add_option("--team", runsArgs.team, "Only runs of this team (by name)");
    runsList->add_option("--status", runsArgs.status, "Only runs with this status: " + statusNames)
        ->check(CLI::IsMember({"running", "ok", "partial", "failed", "cancelled", "budget_exhausted", "interrupted"}));
    runsList->add_option("--limit", runsArgs.limit, "At most N runs")->check(CLI::PositiveNumber);
    runsList->add_flag("--json", runsArgs.json, "Print a JSON array");
    runsList->add_flag("--experiments", runsArgs.experiments, "Include the runs that are experiments' trials");
    runsList->add_option("--source", runsArgs.source,
                         "Only runs started by: run, rerun, eval (experiments' trials), studio or serve");
    auto* runsShow = runs->add_subcommand("show", "A run: summary, agents, critical path, parallelism");
    addDb(runsShow);
    runsShow->add_option("run", runsArgs.ids, "Run id (or a unique prefix)")->required()->expected(1);
    runsShow->add_flag("--json", runsArgs.json, "Print one JSON object");
    auto* runsExport = runs->add_subcommand("export", "Export a run as json, chrome (Perfetto), otlp or csv");
    addDb(runsExport);
    runsExport->add_option("run", runsArgs.ids, "Run id (or a unique prefix)")->required()->expected(1);
    runsExport->add_option("--format", runsArgs.format, "json, chrome, otlp or csv")
        ->required()
        ->check(CLI::IsMember({"json", "chrome", "otlp", "csv"}));
    runsExport->add_option("-o,--output", runsArgs.outFile, "Write to FILE instead of stdout");
    auto* runsRerun = runs->add_subcommand("rerun", "Run a stored run's team, input and seed again, as a new run");
    addDb(runsRerun);
    runsRerun->add_option("run", runsArgs.ids, "Run id (or a unique prefix)")->required()->expected(1);
    runsRerun->add_flag("--json", runsArgs.json, "Print the new run as one JSON object");
    auto* runsDelete = runs->add_subcommand("delete", "Delete runs and their spans");
    addDb(runsDelete);
    runsDelete->add_option("runs", runsArgs.ids, "Run ids")->required();
    auto* runsPrune = runs->add_subcommand("prune", "Delete all but the N most recent finished runs");
    addDb(runsPrune);
    runsPrune->add_option("--keep", runsArgs.keep, "How many finished runs to keep")
        ->required()
        ->check(CLI::NonNegativeNumber);
    auto* runsMerge = runs->add_subcommand(
        "merge", "Copy the runs of other stores (e.g. each serve replica's) that are not here into one store");
    runsMerge->add_option("stores", runsArgs.ids, "Run store files to copy from (read only)")->required();
    addDb(runsMerge)->required();

    EvalArgs evalArgs;
    auto* eval = app.add_subcommand(
        "eval", "Evaluate team designs on a task set: accuracy, latency and cost with 95% CIs, paired against a "
                "baseline");
    eval->add_option("designs", evalArgs.request.designFiles, "Team files, one per design (*.team.json)");
    auto* tasksetOption = eval->add_option("--taskset", evalArgs.request.taskset,
                                           "A bundled task set (math, code, facts, reasoning, writing, mixed-small) "
                                           "or a file (JSONL or CSV)");
    std::string evalTasks;
    auto* tasksOption = eval->add_option("--tasks", evalTasks, "Only these task ids, comma-separated");
    auto* domainOption = eval->add_option("--domain", evalArgs.request.domain, "Only tasks of this domain");
    size_t sample = 0;
    auto* sampleOption =
        eval->add_option("--sample", sample, "A deterministic sample of N tasks")->check(CLI::PositiveNumber);
    eval->add_option("--sample-seed", evalArgs.request.sampleSeed, "The sample's seed (default 0)");
    int seedCount = 1;
    auto* seedsOption = eval->add_option("--seeds", seedCount, "Seeds 1..N for every (design, task) (default 1)")
                            ->check(CLI::Range(1, 1000));
    std::vector<uint64_t> seedList;
    auto* seedListOption = eval->add_option("--seed-list", seedList, "These seeds, comma-separated")->delimiter(',');
    seedsOption->excludes(seedListOption);
    std::string baseline;
    auto* baselineOption =
        eval->add_option("--baseline", baseline, "The design the others are paired against (default: the first)");
    std::string judge;
    auto* judgeOption = eval->add_option("--judge", judge, "A team that scores free-text answers correct or incorrect");
    eval->add_option("--concurrency", evalArgs.concurrency, "Runs in flight at once (default 32)")
        ->check(CLI::Range(1, 4096));
    std::string evalClock;
    eval->add_option("--clock", evalClock,
                     "virtual or real (default: virtual for designs that call only local-moe, real for the others)")
        ->check(CLI::IsMember({"real", "virtual"}));
    double maxCost = 0;
    auto* maxCostOption = eval->add_option("--max-cost", maxCost, "Stop starting trials once this many USD are spent")
                              ->check(CLI::NonNegativeNumber);
    eval->add_option("--name", evalArgs.request.name, "The experiment's name");
    std::string evalDb;
    auto* evalDbOption = eval->add_option("--db", evalDb,
                                          "The run store (default: $CONCLAVE_DB, else "
                                          "$XDG_DATA_HOME/conclave/runs.sqlite)");
    eval->add_flag("--json", evalArgs.json, "Print the summary as one JSON object");
    eval->add_option("-o,--output", evalArgs.output, "Also write the report to FILE.md, FILE.json or FILE.csv");
    eval->add_option("--shard", evalArgs.shard, "Run shard I of N (I/N, I from 0), e.g. $JOB_COMPLETION_INDEX/4");
    auto* resumeOption = eval->add_option("--resume", evalArgs.resume, "Run only the missing trials of experiment ID");
    std::string evalStore = "runs";
    eval->add_option("--store", evalStore,
                     "runs (every trial a stored run, the default) or summaries (trial rows only; a trial's run is "
                     "rebuilt with `experiments rerun`)")
        ->check(CLI::IsMember({"runs", "summaries"}));
    auto* varyOption =
        eval->add_option("--vary", evalArgs.request.vary,
                         "Sweep the one design: PATH=v1,v2,... or PATH=lo:hi:step (hi included within step/1000, "
                         "values rounded to step's decimals), PATH being NODE_ID.FIELD[.FIELD...], "
                         "backends.NAME.FIELD or defaults.FIELD; repeat for the grid of every combination, each "
                         "variant named \"NAME [PATH=value, ...]\" (docs/experiments.md)")
            ->expected(1)
            ->allow_extra_args(false)
            ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    eval->add_flag("--yes,-y", evalArgs.yes,
                   "Do not ask before spending money; run a sweep of more than 1,000 variants");
    eval->add_flag("--dry-run", evalArgs.dryRun, "Print the trial count and the cost estimate, and exit");
    bool noCalibrationUncertainty = false;
    eval->add_flag("--no-calibration-uncertainty", noCalibrationUncertainty,
                   "Give calibrated designs' CIs from the simulated draws alone, without resampling the fitted skills");
    double minAccuracy = 0;
    auto* minAccuracyOption =
        eval->add_option("--min-accuracy", minAccuracy,
                         "Exit 1 unless every design but the baseline reaches this accuracy (0-1)")
            ->check(CLI::Range(0.0, 1.0));
    int maxRegressions = 0;
    auto* maxRegressionsOption =
        eval->add_option("--max-regressions", maxRegressions, "Exit 1 when a design has more tasks below the baseline")
            ->check(CLI::NonNegativeNumber);
    resumeOption->excludes(tasksetOption)->excludes(tasksOption)->excludes(domainOption)->excludes(sampleOption);
    resumeOption->excludes(varyOption); // a resume regenerates the stored sweep

    ExperimentsArgs experimentsArgs;
    std::string experimentsDb;
    auto* experiments = app.add_subcommand("experiments", "Stored experiments: list, show, export, delete, merge");
    experiments->require_subcommand(1, 1);
    const auto addExperimentsDb = [&](CLI::App* sub) {
        return sub->add_option("--db", experimentsDb,
                               "The run store (default: $CONCLAVE_DB, else $XDG_DATA_HOME/conclave/runs.sqlite)");
    };
    auto* experimentsList = experiments->add_subcommand("list", "List experiments, newest first");
    addExperimentsDb(experimentsList);
    experimentsList->add_flag("--json", experimentsArgs.json, "Print a JSON array");
    auto* experimentsShow = experiments->add_subcommand("show", "An experiment's summary table");
    addExperimentsDb(experimentsShow);
    experimentsShow->add_option("experiment", experimentsArgs.ids, "Experiment id (or a unique prefix)")
        ->required()
        ->expected(1);
    experimentsShow->add_flag("--json", experimentsArgs.json, "Print one JSON object");
    auto* experimentsExport = experiments->add_subcommand("export", "Export an experiment as json, csv or md");
    addExperimentsDb(experimentsExport);
    experimentsExport->add_option("experiment", experimentsArgs.ids, "Experiment id (or a unique prefix)")
        ->required()
        ->expected(1);
    experimentsExport->add_option("--format", experimentsArgs.format, "json, csv (one row per trial) or md")
        ->required()
        ->check(CLI::IsMember({"json", "csv", "md"}));
    experimentsExport->add_option("-o,--output", experimentsArgs.output, "Write to FILE instead of stdout");
    auto* experimentsDelete =
        experiments->add_subcommand("delete", "Delete an experiment with its trials and their runs");
    addExperimentsDb(experimentsDelete);
    experimentsDelete->add_option("experiment", experimentsArgs.ids, "Experiment id (or a unique prefix)")
        ->required()
        ->expected(1);
    auto* experimentsRerun = experiments->add_subcommand(
        "rerun", "Rebuild a trial's run on the simulated clock from its stored team, input and seed, store it and "
                 "check it reproduces the trial");
    addExperimentsDb(experimentsRerun);
    experimentsRerun->add_option("experiment", experimentsArgs.ids, "Experiment id (or a unique prefix)")
        ->required()
        ->expected(1);
    experimentsRerun->add_option("--trial", experimentsArgs.trial, "DESIGN/TASK/SEED, as in the trial table")
        ->required();
    experimentsRerun->add_flag("--json", experimentsArgs.json, "Print one JSON object");
    auto* experimentsMerge =
        experiments->add_subcommand("merge", "Join the shards of one experiment into one database");
    experimentsMerge->add_option("shards", experimentsArgs.ids, "The shards' database files")->required();
    experimentsMerge->add_option("--db", experimentsDb, "The database to merge into")->required();

    CalibrateArgs calibrateArgs;
    std::string calibrateDb;
    auto* calibrate = app.add_subcommand(
        "calibrate", "Fit simulator profiles to the models stored experiments called: latency, speed, length, "
                     "failures, price, skill per domain and error agreement; served runs add their calls "
                     "(docs/calibration.md)");
    calibrate->add_option("experiments", calibrateArgs.experiments,
                          "Experiment ids (or unique prefixes); optional with --runs-from-serve");
    calibrate
        ->add_option("--runs-from-serve", calibrateArgs.runsFromServe,
                     "Also read the calls of the runs conclave serve stored since SINCE, a UTC date YYYY-MM-DD "
                     "or YYYY-MM-DDTHH:MM:SSZ: latency, speed, length, failures, price and load, never skills")
        ->type_name("SINCE");
    calibrate->add_option("--model", calibrateArgs.models, "Only this model; repeat for more (default: every model)")
        ->expected(1)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    calibrate
        ->add_option("--context", calibrateArgs.contexts,
                     "A model's context window, MODEL=TOKENS; repeat for more (default: the catalog's, else no limit)")
        ->expected(1)
        ->allow_extra_args(false)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    auto* calibrateDbOption = calibrate->add_option(
        "--db", calibrateDb, "The run store (default: $CONCLAVE_DB, else $XDG_DATA_HOME/conclave/runs.sqlite)");
    calibrate
        ->add_option("-o,--output", calibrateArgs.output,
                     "The models file to write, {\"models\": {NAME: profile}}, for a backend's models_file")
        ->required();
    calibrate->add_option("--tasks-out", calibrateArgs.tasksOut,
                          "Also write the measured tasks, each with its fitted difficulty, as JSON Lines (a task set)");

    CalibrateThresholdArgs thresholdArgs;
    auto* calibrateThreshold = app.add_subcommand(
        "calibrate-threshold", "The threshold that sends a share of tasks to a learned router's strong route "
                               "(docs/routing.md)");
    calibrateThreshold->add_option("team", thresholdArgs.team, "The team file")->required();
    calibrateThreshold->add_option("--node", thresholdArgs.node, "The learned router (default: the team's only one)");
    calibrateThreshold->add_option("--taskset", thresholdArgs.taskset, "A bundled task set's name or a file")
        ->required();
    calibrateThreshold->add_option("--strong-share", thresholdArgs.strongShare,
                                   "The share of tasks to send to the strong route (default 0.3)");
    calibrateThreshold->add_flag("--write", thresholdArgs.write, "Write the threshold into the team file");

    TrainRouterArgs trainRouterArgs;
    std::string trainRouterDb;
    auto* trainRouter = app.add_subcommand(
        "train-router", "Learn which model answers which prompt right from stored experiments: a router file "
                        "for a `learned` router (docs/routing.md)");
    trainRouter->add_option("experiments", trainRouterArgs.experiments, "Experiment ids (or unique prefixes)")
        ->required();
    trainRouter
        ->add_option("--models", trainRouterArgs.models,
                     "The candidate models, comma-separated (default: every model that answered)")
        ->delimiter(',');
    trainRouter->add_option("--method", trainRouterArgs.method, "logistic (default) or knn");
    trainRouter->add_option("--weights", trainRouterArgs.weights,
                            "logistic: chosen (default: whichever cross-validates better), separate (per model) or "
                            "common (one set for every model, each with its own bias)");
    trainRouter->add_option("--holdout", trainRouterArgs.holdout,
                            "The share of tasks held out and measured on, never trained on (default 0.3; 0: none)");
    trainRouter->add_option("--seed", trainRouterArgs.seed, "Seeds the hold-out split and the folds (default 0)");
    auto* trainRouterDbOption = trainRouter->add_option(
        "--db", trainRouterDb, "The run store (default: $CONCLAVE_DB, else $XDG_DATA_HOME/conclave/runs.sqlite)");
    trainRouter->add_option("-o,--output", trainRouterArgs.output, "The router file to write (router.json)")
        ->required();

    TrainScorerArgs trainScorerArgs;
    std::string trainScorerDb;
    auto* trainScorer = app.add_subcommand(
        "train-scorer", "Learn when a cascade member's answer is right from stored experiments: a scorer file "
                        "for a cascade or adaptive coordinator's `scorer` (docs/routing.md)");
    trainScorer->add_option("experiments", trainScorerArgs.experiments, "Experiment ids (or unique prefixes)")
        ->required();
    trainScorer
        ->add_option("--models", trainScorerArgs.models,
                     "The cascade's members in order, comma-separated (default: every model that answered, "
                     "by ascending training accuracy)")
        ->delimiter(',');
    trainScorer->add_option("--holdout", trainScorerArgs.holdout,
                            "The share of tasks held out and measured on, never trained on (default 0.3; 0: none)");
    trainScorer->add_option("--seed", trainScorerArgs.seed, "Seeds the hold-out split and the folds (default 0)");
    auto* trainScorerDbOption = trainScorer->add_option(
        "--db", trainScorerDb, "The run store (default: $CONCLAVE_DB, else $XDG_DATA_HOME/conclave/runs.sqlite)");
    trainScorer->add_option("-o,--output", trainScorerArgs.output, "The scorer file to write (scorer.json)")
        ->required();

    WorldArgs worldArgs;
    auto* worldServe = addWorldServeCommand(app, worldArgs);
    ServeArgs serveArgs;
    auto* serve = addServeCommand(app, serveArgs);

    FidelityArgs fidelityArgs;
    std::string fidelityDb;
    auto* fidelity = app.add_subcommand(
        "fidelity", "Calibrate on part of the measured tasks and predict every measured design on the rest: "
                    "simulated and replayed against measured (docs/fidelity.md)");
    fidelity->add_option("experiments", fidelityArgs.experiments, "Experiment ids (or unique prefixes)")->required();
    auto* holdoutOption = fidelity->add_option("--holdout", fidelityArgs.holdout,
                                               "The share of tasks held out for testing (default 0.5)");
    fidelity
        ->add_option("--folds", fidelityArgs.folds,
                     "Cross-fit: split the tasks into K parts (2 to 10) and predict each from a calibration on the "
                     "others (default 1: one split at --holdout)")
        ->excludes(holdoutOption);
    fidelity->add_option("--seed", fidelityArgs.seed, "The task split's seed (default 0)");
    auto* fidelityDbOption = fidelity->add_option(
        "--db", fidelityDb, "The run store (default: $CONCLAVE_DB, else $XDG_DATA_HOME/conclave/runs.sqlite)");
    bool fidelityNoUncertainty = false;
    fidelity->add_flag("--no-calibration-uncertainty", fidelityNoUncertainty,
                       "Give simulated CIs from the simulated draws alone");
    bool fidelityNoReplay = false;
    fidelity->add_flag("--no-replay", fidelityNoReplay, "Skip the replayed predictions");
    fidelity
        ->add_option("--simulated-seeds", fidelityArgs.simulatedSeeds,
                     "Simulate each held-out task under at least this many seeds: the experiment's, then more "
                     "(default 10)")
        ->check(CLI::Range(1, 1000));
    fidelity->add_flag("--json", fidelityArgs.json, "Print one JSON object");
    fidelity->add_option("-o,--output", fidelityArgs.output, "Also write the report to FILE.md or FILE.json");

    WhatIfArgs whatIfArgs;
    std::string whatIfDb;
    auto* whatIf = app.add_subcommand(
        "whatif", "What a change would have saved: a stored run re-run on the simulated clock from its own calls, "
                  "some nodes' latencies changed (docs/whatif.md)");
    auto* whatIfRun = whatIf->add_option("run", whatIfArgs.run, "The run's id (or a unique prefix)");
    auto* speedOption = whatIf->add_option(
        "--speed", whatIfArgs.speeds,
        "NODE=CHANGE: that node's calls -30% (0.7 of their time), x0.5, -200ms or =300ms; repeatable");
    auto* backendOption = whatIf->add_option(
        "--backend", whatIfArgs.backends,
        "NAME.max_concurrency=N: that backend serves N calls at once, the queue re-simulated; repeatable");
    auto* modelOption = whatIf->add_option(
        "--model", whatIfArgs.models,
        "NODE=MODEL: that node calls MODEL, its calls answered by the simulator (marked simulated); repeatable");
    whatIf->add_option(
        "--models-file", whatIfArgs.modelsFile,
        "The simulator's profiles (a models file, e.g. from conclave calibrate) for the calls it answers, "
        "over each backend's own");
    auto* profileFlag = whatIf->add_flag(
        "--profile", whatIfArgs.profile,
        "The speed-up profile: the wall each agent alone would save 10, 25, 50 and 100 % faster, and each "
        "backend's max_concurrency doubled");
    profileFlag->excludes(speedOption)->excludes(backendOption)->excludes(modelOption);
    auto* experimentOption = whatIf->add_option(
        "--experiment", whatIfArgs.experiment,
        "With --design and --profile: the profile of a design over its stored trials (p50 and p95 of their walls)");
    auto* designOption = whatIf->add_option("--design", whatIfArgs.design, "The experiment's design (its name)");
    experimentOption->needs(designOption)->needs(profileFlag)->excludes(whatIfRun);
    designOption->needs(experimentOption);
    auto* whatIfDbOption = whatIf->add_option(
        "--db", whatIfDb, "The run store (default: $CONCLAVE_DB, else $XDG_DATA_HOME/conclave/runs.sqlite)");
    whatIf->add_flag("--json", whatIfArgs.json, "Print one JSON object");

    SearchArgs searchArgs;
    auto* search = addSearchCommand(app, searchArgs);
    SearchesArgs searchesArgs;
    auto* searches = addSearchesCommand(app, searchesArgs);

    BenchArgs benchArgs;
    auto* bench = addBenchCommand(app, benchArgs);

    std::string checkTeam;
    auto* backends = app.add_subcommand("backends", "Work with a team's backends");
    backends->require_subcommand(1);
    auto* backendsCheck = backends->add_subcommand(
        "check", "Reach each backend of a team; print status and latency (exit 1 if one fails)");
    backendsCheck->add_option("team", checkTeam, "Team file (*.team.json)")->required();
    int checkLoad = 0;
    backendsCheck
        ->add_option("--load", checkLoad,
                     "Also send N calls at once to each openai backend and print the peak in flight reached")
        ->check(CLI::Range(1, 4096));

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ExtrasError& e) {
        // Before a subcommand, a word that is not an option is a misspelt subcommand.
        const auto extras = app.remaining();
        if (app.get_subcommands().empty() && !extras.empty() && !extras.front().starts_with('-'))
            return usageError("unknown subcommand \"" + extras.front() + "\"; expected " + subcommandNames(app));
        app.exit(e);
        return kExitBadInput;
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kExitBadInput;
    }
    if (app.get_subcommands().empty())
        return usageError("A subcommand is required: " + subcommandNames(app));

    const CliContext context{std::cout, std::cerr, resourcesForThisProcess()};
    if (*validate)
        return runValidate(context, validateFiles);
    if (*fmt)
        return runFormat(context, fmtFiles, check);
    if (*bench)
        return runBench(context, benchArgs);
    if (*runs) {
        for (const auto* sub : runs->get_subcommands())
            runsArgs.action = sub->get_name();
        if (!runsDb.empty())
            runsArgs.db = runsDb;
        return runRuns(context, runsArgs);
    }
    if (*eval) {
        if (evalArgs.resume.empty()) {
            if (evalArgs.request.designFiles.empty())
                return usageError("eval: give the designs (team files), or --resume ID");
            if (evalArgs.request.taskset.empty())
                return usageError("eval: give the tasks with --taskset NAME|FILE");
        }
        size_t start = 0;
        while (*tasksOption && start <= evalTasks.size()) {
            const auto comma = evalTasks.find(',', start);
            const auto id = evalTasks.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            if (!id.empty())
                evalArgs.request.taskIds.push_back(id);
            if (comma == std::string::npos)
                break;
            start = comma + 1;
        }
        if (*sampleOption)
            evalArgs.request.sample = sample;
        evalArgs.request.seeds.clear();
        if (*seedListOption)
            evalArgs.request.seeds = seedList;
        else
            for (int s = 1; s <= seedCount; ++s)
                evalArgs.request.seeds.push_back(uint64_t(s));
        if (*baselineOption)
            evalArgs.request.baselineFile = baseline;
        if (*judgeOption)
            evalArgs.request.judgeFile = judge;
        if (!evalClock.empty())
            evalArgs.request.clock = conclave::clockRequestFromString(evalClock).value_or(conclave::ClockRequest::Auto);
        if (*maxCostOption)
            evalArgs.maxCostUsd = maxCost;
        evalArgs.summariesOnly = evalStore == "summaries";
        evalArgs.request.manyVariants = evalArgs.yes;
        evalArgs.calibrationUncertainty = !noCalibrationUncertainty;
        if (*evalDbOption)
            evalArgs.db = evalDb;
        if (*minAccuracyOption)
            evalArgs.gates.minAccuracy = minAccuracy;
        if (*maxRegressionsOption)
            evalArgs.gates.maxRegressions = maxRegressions;
        return runEval(context, evalArgs);
    }
    if (*experiments) {
        for (const auto* sub : experiments->get_subcommands())
            experimentsArgs.action = sub->get_name();
        if (!experimentsDb.empty())
            experimentsArgs.db = experimentsDb;
        return runExperiments(context, experimentsArgs);
    }
    if (*trainScorer) {
        if (*trainScorerDbOption)
            trainScorerArgs.db = trainScorerDb;
        return runTrainScorer(context, trainScorerArgs);
    }
    if (*calibrateThreshold)
        return runCalibrateThreshold(context, thresholdArgs);
    if (*trainRouter) {
        if (*trainRouterDbOption)
            trainRouterArgs.db = trainRouterDb;
        return runTrainRouter(context, trainRouterArgs);
    }
    if (*calibrate) {
        if (*calibrateDbOption)
            calibrateArgs.db = calibrateDb;
        return runCalibrate(context, calibrateArgs);
    }
    if (*search)
        return runSearch(context, searchArgs);
    if (*searches) {
        for (const auto* sub : searches->get_subcommands())
            searchesArgs.action = sub->get_name();
        return runSearches(context, searchesArgs);
    }
    if (*serve)
        return runServe(context, serveArgs);
    if (*worldServe)
        return runWorldServe(context, worldArgs);
    if (*fidelity) {
        if (*fidelityDbOption)
            fidelityArgs.db = fidelityDb;
        fidelityArgs.calibrationUncertainty = !fidelityNoUncertainty;
        fidelityArgs.replay = !fidelityNoReplay;
        return runFidelity(context, fidelityArgs);
    }
    if (*whatIf) {
        if (*whatIfDbOption)
            whatIfArgs.db = whatIfDb;
        return runWhatIf(context, whatIfArgs);
    }
    if (*backendsCheck)
        return runBackendsCheck(context, checkTeam, checkLoad);
    if (*run) {
        if (runArgs.input.empty() && runArgs.task.empty()) {
            std::cerr << "run: give the input with --input TEXT, or a task with --task ID\n";
            return kExitBadInput;
        }
        if (*seedOption)
            runArgs.seed = seed;
        if (*timeScaleOption)
            runArgs.timeScale = timeScale;
        if (*runDbOption)
            runArgs.db = runDb;
        return runTeam(context, runArgs);
    }
    return kExitBadInput;
}
