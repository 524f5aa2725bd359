// `conclave search`: a design search on the simulator. The rules are in core/conclave/search.
#include "Commands.h"

#include "conclave/experiment/TaskSplit.h"
#include "conclave/search/DesignSearch.h"
#include "conclave/search/SearchOutput.h"
#include "conclave/search/SearchReport.h"
#include "conclave/search/SearchSetup.h"
#include "conclave/search/SpaceProposal.h"
#include "conclave/io/FileIo.h"
#include "conclave/search/StoreSearchJournal.h"
#include "conclave/store/RunStore.h"
#include "conclave/store/SearchStore.h"
#include "conclave/util/MoneyText.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>

namespace conclave::cli {

namespace {

std::atomic<bool> g_interrupted{false};

void onSearchInterrupt(int)
{
    g_interrupted.store(true);
    std::signal(SIGINT, SIG_DFL); // a second Ctrl+C ends the process at once
}

std::string quoted(const std::string& word)
{
    if (!word.empty() && word.find_first_of(" \t'\"$\\*?[]<>|&;()") == std::string::npos)
        return word;
    std::string out = "'";
    for (const char c : word)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// The command that reproduces the search, every option spelled out.
std::string commandOf(const SearchArgs& args)
{
    std::string text = "conclave search";
    for (const auto& b : args.bases)
        text += " " + quoted(b);
    if (!args.space.empty())
        text += " --space " + quoted(args.space);
    text += " --taskset " + quoted(args.taskset);
    if (args.budgetTrials)
        text += " --budget-trials " + std::to_string(*args.budgetTrials);
    if (args.budgetSeconds) {
        char number[32];
        std::snprintf(number, sizeof number, "%g", *args.budgetSeconds);
        text += std::string(" --budget-seconds ") + number;
    }
    text += " --objectives " + args.objectives;
    for (const auto& c : args.constraints)
        text += " --constraint " + quoted(c);
    text += " --split " + args.split + " --seed " + std::to_string(args.seed);
    if (args.seeds != 1)
        text += " --seeds " + std::to_string(args.seeds);
    if (args.population > 0)
        text += " --population " + std::to_string(args.population);
    for (const auto& r : args.references)
        text += " --reference " + quoted(r);
    text += " -o " + quoted(args.output);
    return text;
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
    if (!args.confirmOn.empty())
        return fail("--confirm-on is not available yet: measure the written team files with conclave eval");

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

    if (auto problem = SearchOutput::prepare(args.output, args.force))
        return fail(*problem);

    const auto spec = SearchReport::specJson(space, setup.tasksetName, *setup.tasks, options);
    const auto id = SearchReport::idOf(spec);
    const auto command = commandOf(args);
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

    g_interrupted.store(false);
    std::signal(SIGINT, onSearchInterrupt);
    std::atomic<bool> done{false};
    std::thread watcher([&] {
        while (!done.load()) {
            if (g_interrupted.exchange(false))
                search.stop("stopped by Ctrl+C: the front so far is kept; the same command resumes it");
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
    const auto result = search.run();
    done.store(true);
    watcher.join();
    std::signal(SIGINT, SIG_DFL);
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
