// `conclave search`: a design search on the simulator. The rules are in core/conclave/search.
#include "Commands.h"
#include "CtrlCWatcher.h"

#include "conclave/experiment/TaskSplit.h"
#include "conclave/search/DesignSearch.h"
#include "conclave/search/SearchOutput.h"
#include "conclave/search/SearchCommandLine.h"
#include "conclave/search/SearchReport.h"
#include "conclave/search/SearchSetup.h"
#include "conclave/search/SpaceProposal.h"
#include "conclave/search/FrontConfirmation.h"
#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/StoredTrials.h"
#include "conclave/experiment/TrialPlan.h"
#include "conclave/io/TeamFile.h"
#include "conclave/io/TeamJson.h"
#include "conclave/diagnostics/Problem.h"
#include "conclave/io/FileIo.h"
#include "conclave/search/StoreSearchJournal.h"
#include "conclave/store/RunStore.h"
#include "conclave/store/SearchStore.h"
#include "conclave/util/MoneyText.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

namespace conclave::cli {

namespace {

// The --confirm-on file, checked before the search: every model any candidate may call is served there
// (the bases rebound, and every value of a parameter naming a model).
std::optional<Team> loadConfirmTeam(const CliContext& context, const std::string& file, const SearchSpace& space)
{
    auto loaded = loadTeamFile(file);
    if (!loaded.team) {
        for (const auto& p : loaded.problems)
            context.err << formatProblem(p, file) << '\n';
        return std::nullopt;
    }
    std::string error;
    for (const auto& base : space.bases()) {
        if (!FrontConfirmation::rebind(base.team, *loaded.team, file, error)) {
            context.err << "search: --confirm-on " << error << '\n';
            return std::nullopt;
        }
    }
    for (size_t p = 0; p < space.parameters().size(); ++p) {
        const auto& axis = space.parameters()[p].axis;
        if (!axis.path.ends_with(".model") && !axis.path.ends_with(".fallback_model"))
            continue;
        for (const auto& value : axis.values) {
            for (size_t b = 0; b < space.bases().size(); ++b) {
                if (!space.parameters()[p].appliesTo[b])
                    continue;
                SearchSpace::Point point{b, std::vector<int>(space.parameters().size(), SearchSpace::kBaseValue)};
                point.choice[p] = int(&value - axis.values.data());
                auto variant = space.variant(point, error);
                if (variant && !FrontConfirmation::rebind(variant->team, *loaded.team, file, error)) {
                    context.err << "search: --confirm-on " << error << '\n';
                    return std::nullopt;
                }
            }
        }
    }
    return std::move(*loaded.team);
}

// The front measured on the --confirm-on backends, on the test tasks, as eval measures (its cost confirmed
// first); the comparison printed, and returned for the report.
std::optional<nlohmann::ordered_json> confirmFront(const CliContext& context, const SearchArgs& args,
                                                   const Team& backends, const DesignSearch::Result& result,
                                                   const SearchSetupResult& setup, const std::filesystem::path& dbPath,
                                                   const std::vector<Objective>& objectives)
{
    ExperimentSpec spec;
    spec.name = "search front confirmed on " + args.confirmOn;
    std::vector<std::pair<std::string, std::string>> named;
    std::vector<Team> teams;
    std::string error;
    for (const int id : result.front) {
        const auto& c = result.candidates[size_t(id - 1)];
        auto team = teamFromJsonText(c.teamJson).team;
        auto rebound = team ? FrontConfirmation::rebind(*team, backends, args.confirmOn, error) : std::nullopt;
        if (!rebound) {
            context.err << "search: --confirm-on " << error << '\n';
            return std::nullopt;
        }
        rebound->name = c.name;
        named.emplace_back(c.name, "#" + std::to_string(id));
        teams.push_back(std::move(*rebound));
    }
    const auto names = nameDesigns(named);
    for (size_t i = 0; i < teams.size(); ++i)
        spec.designs.push_back(makeDesign(names[i], "", std::move(teams[i])));
    std::vector<const Task*> selected;
    for (const size_t t : result.parts.test)
        selected.push_back(&setup.tasks->tasks()[t]);
    spec.tasksetName = setup.tasksetName;
    spec.tasks = std::make_shared<const TaskSet>(setup.tasks->subset(selected));
    for (int s = 1; s <= args.seeds; ++s)
        spec.seeds.push_back(uint64_t(s));
    const auto bound = ExperimentSetup::costBound(spec);
    context.err << "search: confirming the front's " << spec.designs.size() << " designs on " << args.confirmOn
                << ": " << planTrials(spec).size() << " trials on the " << selected.size() << " test tasks; "
                << (bound.paidTrials == 0 ? std::string("no paid endpoint")
                                          : "typically " + moneyText(bound.typicalUsd) + ", at most " +
                                                moneyText(bound.upperUsd))
                << '\n';
    if (bound.paidTrials > 0 && !args.yes && ::isatty(STDIN_FILENO)) {
        context.err << "Go on? [y/N] " << std::flush;
        std::string answer;
        if (!std::getline(std::cin, answer) || (answer != "y" && answer != "Y" && answer != "yes")) {
            context.err << "search: the front was not confirmed\n";
            return std::nullopt;
        }
    }
    auto opened = RunStore::open(dbPath);
    if (!opened.store) {
        context.err << "search: " << opened.error << '\n';
        return std::nullopt;
    }
    auto resources = context.engineResources();
    if (!resources)
        return std::nullopt;
    Engine engine(std::move(*resources));
    engine.setStore(dbPath);
    StoredTrials sink(*opened.store, StoredTrials::Keep::Runs);
    ExperimentRunner runner(engine, sink, spec, ExperimentRunner::Options{});
    const auto outcome = runner.run();
    opened.store->flush();
    if (!outcome.error.empty()) {
        context.err << "search: --confirm-on: " << outcome.error << '\n';
        return std::nullopt;
    }
    auto reader = opened.store->reader(error);
    auto trials = reader ? reader->trials(runner.id(), error) : std::nullopt;
    if (!trials) {
        context.err << "search: " << error << '\n';
        return std::nullopt;
    }
    const auto summary = ExperimentStats::summarize(spec.designNames(), 0, *trials);
    std::vector<FrontConfirmation::Row> rows;
    auto json = nlohmann::ordered_json::array();
    for (size_t i = 0; i < result.front.size(); ++i) {
        FrontConfirmation::Row row;
        row.name = "#" + std::to_string(result.front[i]) + " " + names[i];
        row.predicted = result.testFigures.at(result.front[i]);
        row.measured = &summary.designs[i];
        const auto& ci = summary.designs[i].overall.ci;
        row.accuracyInside = row.predicted[Objective::Accuracy] >= ci.lo && row.predicted[Objective::Accuracy] <= ci.hi;
        json.push_back({{"candidate", result.front[i]},
                        {"predicted_accuracy", row.predicted[Objective::Accuracy]},
                        {"measured_accuracy", summary.designs[i].overall.accuracy},
                        {"measured_accuracy_ci", {ci.lo, ci.hi}},
                        {"inside", row.accuracyInside},
                        {"predicted_cost_usd", row.predicted[Objective::Cost]},
                        {"measured_cost_usd", summary.designs[i].meanCostUsd},
                        {"predicted_p95_wall_ms", row.predicted[Objective::P95Wall]},
                        {"measured_p95_wall_ms", summary.designs[i].wallMs.p95}});
        rows.push_back(row);
    }
    std::vector<std::string> taskIds;
    for (const auto* t : selected)
        taskIds.push_back(t->id);
    FrontConfirmation::markDominated(rows, *trials, taskIds, spec.seeds, objectives);
    for (size_t i = 0; i < rows.size(); ++i)
        json[i]["dominated_by"] = rows[i].dominatedBy;
    if (!args.json)
        context.out << FrontConfirmation::text(rows, selected.size()) << "  stored as experiment " << runner.id()
                    << " (conclave experiments show " << runner.id() << ")\n\n";
    return nlohmann::ordered_json{{"experiment", runner.id()}, {"backends", args.confirmOn}, {"designs", json}};
}

// `--propose-space FILE`: the first team's proposed space, written as a space file.
int proposeSpace(const CliContext& context, const SearchArgs& args)
{
    const auto fail = [&](const std::string& message) {
        context.err << "search: " << message << '\n';
        return kExitBadInput;
    };
    auto resources = context.engineResources();
    if (!resources)
        return kExitBadInput;
    std::vector<std::string> errors;
    auto base = SearchSetup::loadBase(args.bases.front(), {}, errors);
    if (!base) {
        for (const auto& e : errors)
            context.err << e << '\n';
        return kExitBadInput;
    }
    const auto flags =
        SpaceProposal::flags(base->team, std::filesystem::path(base->path).parent_path(), resources->localModels);
    std::string error;
    const auto space = SearchSpace::fromFlags(flags, {*base}, error);
    if (!space)
        return fail(error);
    if (std::filesystem::exists(args.proposeSpace) && !args.force)
        return fail(args.proposeSpace + ": exists; give --force to replace it");
    nlohmann::ordered_json file;
    file["format"] = SearchSpace::kFormat;
    file["parameters"] = flags;
    if (auto e = writeFileAtomically(args.proposeSpace, file.dump(2) + "\n"))
        return fail(args.proposeSpace + ": " + *e);
    context.out << "wrote " << args.proposeSpace << ": " << flags.size() << " fields of " << base->team.name << ", "
                << std::to_string(int64_t(space->size())) << " points; edit it, then search with --space "
                << args.proposeSpace << '\n';
    return kExitOk;
}

} // namespace

int runSearch(const CliContext& context, const SearchArgs& args)
{
    auto resources = context.engineResources();
    if (!resources || !context.resources)
        return kExitBadInput;
    const auto fail = [&](const std::string& message) {
        context.err << "search: " << message << '\n';
        return kExitBadInput;
    };

    if (!args.proposeSpace.empty())
        return proposeSpace(context, args);
    if (args.space.empty())
        return fail("give the space with --space FILE (--propose-space FILE writes one from the team's fields)");
    if (args.taskset.empty())
        return fail("give the tasks with --taskset NAME|FILE");
    if (args.output.empty())
        return fail("give the folder the front is written to with -o DIR");
    DesignSearch::Options options;
    std::string error;
    auto objectives = SearchObjectives::parse(args.objectives, error);
    if (!objectives)
        return fail("--objectives: " + error);
    options.objectives = *objectives;
    for (const auto& text : args.constraints) {
        auto constraint = SearchObjectives::parseConstraint(text, error);
        if (!constraint)
            return fail("--constraint " + error);
        options.constraints.push_back(*constraint);
    }
    auto split = TaskSplit::parse(args.split, args.seed, error);
    if (!split)
        return fail("--split: " + error);
    options.split = split->fractions();
    options.seed = args.seed;
    options.trialSeeds.clear();
    for (int s = 1; s <= args.seeds; ++s)
        options.trialSeeds.push_back(uint64_t(s));
    options.budgetTrials = args.budgetTrials;
    options.budgetSeconds = args.budgetSeconds;
    options.population = size_t(args.population);
    if (!args.budgetTrials && !args.budgetSeconds)
        return fail("give a budget: --budget-trials N (reproducible) or --budget-seconds S");

    SearchRequest request;
    request.baseFiles = args.bases;
    request.spaceFile = args.space;
    request.taskset = args.taskset;
    request.referenceFiles = args.references;
    auto setup = SearchSetup::build(request, *context.resources);
    for (const auto& warning : setup.warnings)
        context.err << warning << '\n';
    for (const auto& e : setup.errors)
        context.err << e << '\n';
    if (!setup.space)
        return kExitBadInput;
    options.references = setup.references;
    const auto& space = *setup.space;
    std::optional<Team> confirmOn;
    if (!args.confirmOn.empty()) {
        confirmOn = loadConfirmTeam(context, args.confirmOn, space);
        if (!confirmOn)
            return kExitBadInput;
    }

    if (auto problem = SearchOutput::prepare(args.output, args.force))
        return fail(*problem);

    const auto spec = SearchReport::specJson(space, setup.tasksetName, *setup.tasks, options);
    const auto id = SearchReport::idOf(spec);
    const auto command = SearchCommandLine::of(
        {args.bases, args.space, args.taskset, args.output, args.references, args.confirmOn, args.force}, options);
    const auto dbPath = RunStore::resolvePath(args.db);
    auto store = SearchStore::open(dbPath, true, error);
    if (!store)
        return fail(error);
    {
        std::string ignored;
        if (auto existing = store->search(id, ignored); existing && existing->id == id)
            context.err << "search: " << id << " was run before (" << existing->status
                        << "): its stored trials are read back, not run again\n";
    }
    std::string name = "search of ";
    for (size_t b = 0; b < space.bases().size(); ++b)
        name += (b ? ", " : "") + space.bases()[b].team.name;
    SearchRecord record;
    record.id = id;
    record.name = name;
    record.specJson = spec.dump();
    record.command = command;
    if (auto e = store->begin(record))
        return fail(*e);
    StoreSearchJournal journal(*store, id);

    Engine engine(std::move(*resources));
    engine.setStore(dbPath);
    DesignSearch search(engine, space, setup.tasks, options);
    search.setJournal(&journal);
    const bool live = ::isatty(STDERR_FILENO) && !args.json;
    auto lastPrint = std::chrono::steady_clock::now();
    search.setProgressHandler([&](const DesignSearch::Progress& p) {
        const auto now = std::chrono::steady_clock::now();
        if (!live || now - lastPrint < std::chrono::milliseconds(100))
            return;
        lastPrint = now;
        std::fprintf(stderr, "\r\033[K%s | %lld trials | %zu candidates, %zu dropped | %zu on the front | %.1f s",
                     p.phase.c_str(), static_cast<long long>(p.trials), p.candidates, p.dropped, p.front.size(),
                     p.seconds);
        std::fflush(stderr);
    });

    const auto result = [&] {
        const CtrlCWatcher ctrlC(
            [&] { search.stop("stopped by Ctrl+C: the front so far is kept; the same command resumes it"); });
        return search.run();
    }();
    if (live)
        std::fprintf(stderr, "\r\033[K");

    auto report = SearchReport::toJson(result, options, id, command);
    std::vector<std::string> files;
    if (result.status == DesignSearch::Status::Finished && !result.front.empty()) {
        std::vector<std::string> baseFiles;
        std::vector<std::string> baseNames;
        for (const auto& b : space.bases()) {
            baseFiles.push_back(b.path);
            baseNames.push_back(b.team.name);
        }
        files = SearchOutput::fileNames(args.output, report, baseFiles, baseNames);
        report = SearchReport::toJson(result, options, id, command, files);
        if (auto e = SearchOutput::write(args.output, report, baseFiles)) {
            context.err << "search: " << *e << '\n';
            report = SearchReport::toJson(result, options, id, command);
        }
    }
    if (confirmOn && result.status == DesignSearch::Status::Finished && !result.front.empty()) {
        auto confirmed = confirmFront(context, args, *confirmOn, result, setup, dbPath, options.objectives);
        if (!confirmed)
            return kExitFailed;
        report["confirmed"] = std::move(*confirmed);
    }
    const std::string status = report["status"].get<std::string>();
    if (auto e = store->end(id, status, result.status == DesignSearch::Status::Failed ? result.error : result.note,
                            report.dump(), result.searchTrials + result.validationTrials + result.testTrials,
                            result.seconds))
        context.err << "search: " << *e << '\n';
    if (const auto e = journal.error(); !e.empty())
        context.err << "search: not everything was stored (" << e << "); a resume runs those trials again\n";
    if (args.json)
        context.out << report.dump(2) << '\n';
    else
        context.out << SearchReport::text(report);
    if (result.status == DesignSearch::Status::Failed) {
        context.err << "search: " << result.error << '\n';
        return kExitFailed;
    }
    return result.status == DesignSearch::Status::Finished ? kExitOk : kExitFailed;
}

} // namespace conclave::cli
