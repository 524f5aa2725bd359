// conclave: the command-line face of conclave_core. Parsing only; the work is in the commands.
#include "Commands.h"

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
    auto* timeScaleOption = run->add_option("--time-scale", timeScale,
                                            "Replace the local backends' time_scale (0.1 = ten times faster)")
                                ->check(CLI::PositiveNumber);
    auto* taskOption = run->add_option("--task", runArgs.task, "Run one task of a task set and say if it was right");
    run->add_option("--taskset", runArgs.taskset, "A task set file (*.jsonl) holding --task")->needs(taskOption);
    inputOption->excludes(taskOption);

    BenchArgs benchArgs;
    auto* bench = app.add_subcommand("bench", "Measure the engine: fan-out, scheduler overhead, early termination");
    bench->add_option("which", benchArgs.which, "all, fanout, chain or early")
        ->check(CLI::IsMember({"all", "fanout", "chain", "early"}));
    bench->add_option("--runs", benchArgs.runs, "Runs per measurement (medians are reported)")
        ->check(CLI::Range(1, 100));
    bench->add_option("--max-n", benchArgs.maxN, "Largest fan-out to measure")->check(CLI::Range(1, 100000));

    std::string checkTeam;
    auto* backends = app.add_subcommand("backends", "Work with a team's backends");
    backends->require_subcommand(1);
    auto* backendsCheck =
        backends->add_subcommand("check", "Reach each backend of a team; print status and latency (exit 1 if one fails)");
    backendsCheck->add_option("team", checkTeam, "Team file (*.team.json)")->required();

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
    if (*backendsCheck)
        return runBackendsCheck(context, checkTeam);
    if (*run) {
        if (runArgs.input.empty() && runArgs.task.empty()) {
            std::cerr << "run: give the input with --input TEXT, or a task with --task ID\n";
            return kExitBadInput;
        }
        if (*seedOption)
            runArgs.seed = seed;
        if (*timeScaleOption)
            runArgs.timeScale = timeScale;
        return runTeam(context, runArgs);
    }
    return kExitBadInput;
}
