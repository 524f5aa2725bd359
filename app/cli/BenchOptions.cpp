// The options of `conclave bench`.
#include "BenchOptions.h"

#include "Commands.h"

#include <CLI/CLI.hpp>

namespace conclave::cli {

CLI::App* addBenchCommand(CLI::App& app, BenchArgs& args)
{
    auto* bench = app.add_subcommand(
        "bench", "Measure the engine: fan-out, scheduler overhead, early termination, the virtual clock, the store, "
                 "the simulator");
    bench
        ->add_option("which", args.which,
                     "all, fanout, chain, early, clock, store, sim, eval, calibrate, fidelity, whatif, routing "
                     "(routing-speed: its timings alone), http, serve or search (search-worlds: its part on "
                     "ground-truth worlds alone)")
        ->check(CLI::IsMember({"all", "fanout", "chain", "early", "clock", "store", "sim", "eval", "calibrate",
                               "fidelity", "whatif", "routing", "routing-speed", "http", "serve", "search",
                               "search-worlds"}));
    bench->add_option("--world", args.worlds,
                      "fidelity, search: a ground-truth world file; repeat for more (default: every bundled world)");
    bench->add_option_function<uint64_t>(
        "--world-seed", [&args](uint64_t seed) { args.worldSeed = seed; },
        "fidelity, search: draw the worlds under this seed");
    bench
        ->add_option("--folds", args.folds,
                     "fidelity: cross-fit over K parts of the tasks (default 2; 1: one split, half held out)")
        ->check(CLI::Range(1, 10));
    bench->add_flag_function(
        "--no-replay", [&args](int64_t) { args.replay = false; },
        "fidelity: skip the replayed predictions (the targets read only the simulated ones)");
    bench->add_option_function<std::string>(
        "--db", [&args](const std::string& db) { args.db = db; },
        "store: the database file to measure in (default: a temporary file); fidelity: keep each world's measured "
        "runs in DB-WORLD.sqlite");
    bench->add_option("--runs", args.runs, "Runs per measurement (medians are reported)")->check(CLI::Range(1, 100));
    bench->add_option("--max-n", args.maxN, "Largest fan-out to measure")->check(CLI::Range(1, 100000));
    bench->add_flag("--verbose", args.verbose, "Show where each fan-out's time went");
    return bench;
}

} // namespace conclave::cli
