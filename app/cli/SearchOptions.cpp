// The options of `conclave search` and `conclave searches` (docs/search.md).
#include "SearchOptions.h"

#include "Commands.h"

#include <CLI/CLI.hpp>

namespace conclave::cli {

CLI::App* addSearchCommand(CLI::App& app, SearchArgs& args)
{
    auto* search = app.add_subcommand(
        "search", "Search for better designs on the simulator: several objectives, paired CIs, a held-out test "
                  "(docs/search.md)");
    search->add_option("bases", args.bases, "The team files to start from (*.team.json)")->required();
    search->add_option("--space", args.space,
                       "The space file: the fields to vary (--vary flags) and alternative bases");
    search->add_option("--propose-space", args.proposeSpace,
                       "Write the space Conclave proposes from the first team's fields to FILE, and stop");
    search->add_option("--taskset", args.taskset,
                       "A bundled task set's name or a file (JSONL or CSV); several, comma-separated, as one");
    auto* trials = search->add_option_function<int64_t>(
        "--budget-trials", [&args](int64_t n) { args.budgetTrials = n; },
        "Stop proposing after N search trials (reproducible)");
    trials->check(CLI::Range(int64_t(1), int64_t(100000000)));
    search
        ->add_option_function<double>(
            "--budget-seconds", [&args](double s) { args.budgetSeconds = s; }, "Stop proposing after S seconds")
        ->check(CLI::PositiveNumber);
    search->add_option("--objectives", args.objectives,
                       "accuracy, cost, p50_wall, p95_wall, calls, tokens: two or more, comma-separated "
                       "(default accuracy,cost,p95_wall)");
    search->add_option("--constraint", args.constraints,
                       "NAME>=NUMBER or NAME<=NUMBER on a front design's point estimate; repeatable");
    search->add_option("--split", args.split,
                       "search/validation/test fractions of the tasks (default 0.5/0.25/0.25)");
    search->add_option("--seed", args.seed, "The split's, the proposals' and the bootstraps' seed (default 1)");
    search->add_option("--seeds", args.seeds, "Run every trial at seeds 1..N (default 1)")->check(CLI::Range(1, 100));
    search->add_option("--population", args.population, "Candidates per generation (default: from the space)")
        ->check(CLI::Range(2, 1000));
    search->add_option("--reference", args.references,
                       "A team measured on test beside the front (a model alone); repeatable");
    search->add_option("-o,--output", args.output, "The folder the front's team files are written to");
    search->add_flag("--force", args.force, "Write into a folder that is not empty");
    search->add_option("--confirm-on", args.confirmOn,
                       "A team file whose backends serve the front's models (openai: the models its prices name; "
                       "recorded: every model): the front measured on them, on the test tasks, against the "
                       "prediction");
    search->add_flag("--yes", args.yes, "With --confirm-on: spend on paid endpoints without asking");
    search->add_option_function<std::string>(
        "--db", [&args](const std::string& db) { args.db = db; },
        "The run store (default: $CONCLAVE_DB, else $XDG_DATA_HOME/conclave/runs.sqlite)");
    search->add_flag("--json", args.json, "Print the report as one JSON object");
    return search;
}

CLI::App* addSearchesCommand(CLI::App& app, SearchesArgs& args)
{
    auto* searches = app.add_subcommand("searches", "Stored design searches: list, show, export, delete");
    searches->require_subcommand(1, 1);
    const auto addDb = [&args](CLI::App* sub) {
        sub->add_option_function<std::string>(
            "--db", [&args](const std::string& db) { args.db = db; },
            "The run store (default: $CONCLAVE_DB, else $XDG_DATA_HOME/conclave/runs.sqlite)");
    };
    auto* list = searches->add_subcommand("list", "List searches, newest first");
    addDb(list);
    list->add_flag("--json", args.json, "Print a JSON array");
    auto* show = searches->add_subcommand("show", "A search's report");
    addDb(show);
    show->add_option("search", args.id, "Search id (or a unique prefix)")->required();
    show->add_flag("--json", args.json, "Print one JSON object");
    show->add_flag("--candidates", args.candidates, "Every candidate, with why any was dropped");
    auto* exported = searches->add_subcommand("export", "Export a search: its candidates and trials");
    addDb(exported);
    exported->add_option("search", args.id, "Search id (or a unique prefix)")->required();
    exported->add_option("--format", args.format, "json (everything) or csv (one row per candidate)")
        ->check(CLI::IsMember({"json", "csv"}));
    exported->add_option("-o,--output", args.output, "Write to FILE instead of stdout");
    auto* remove = searches->add_subcommand("delete", "Delete a search with its candidates and trials");
    addDb(remove);
    remove->add_option("search", args.id, "Search id (or a unique prefix)")->required();
    return searches;
}

} // namespace conclave::cli
