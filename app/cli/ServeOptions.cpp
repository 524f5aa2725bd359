// The options of the serving commands, `conclave serve` (docs/serve.md) and
// `conclave world serve` (docs/ground-truth-worlds.md).
#include "ServeOptions.h"

#include "Commands.h"

#include <CLI/CLI.hpp>

namespace conclave::cli {

CLI::App* addWorldServeCommand(CLI::App& app, WorldArgs& args)
{
    auto* world = app.add_subcommand("world", "Ground-truth worlds: model worlds that are not the simulator");
    auto* serve = world->add_subcommand(
        "serve", "Serve a ground-truth world as an OpenAI-compatible endpoint (docs/ground-truth-worlds.md)");
    serve->add_option("file", args.file, "The world file, e.g. resources/bench/worlds/lab-a.json")->required();
    serve->add_option("--port", args.port, "The port on 127.0.0.1 (default 8089; 0: any free port)");
    serve->add_option_function<uint64_t>(
        "--seed", [&args](uint64_t seed) { args.seed = seed; }, "Draw the world under this seed instead of its own");
    serve->add_option("--time-scale", args.timeScale,
                      "Its latencies times this (default 1; 0.02 answers fifty times faster)");
    world->require_subcommand(1);
    return serve;
}

CLI::App* addServeCommand(CLI::App& app, ServeArgs& args)
{
    auto* serve = app.add_subcommand(
        "serve", "Serve teams as an OpenAI-compatible endpoint; every request is a stored run (docs/serve.md)");
    serve->add_option("teams", args.teams,
                      "Team files, each FILE[=NAME][:last-user|:transcript]; its id is NAME, else the file name "
                      "without .team.json")
        ->required();
    serve->add_option("--host", args.host,
                      "The address to listen on (default 127.0.0.1; any other needs keys)");
    serve->add_option("--port", args.port, "The port (default 8080; 0: any free port)");
    serve->add_option("--api-keys-file", args.apiKeysFile,
                      "Keys, one a line: KEY [name=N] [teams=a,b] [rpm=N] [concurrency=N] [budget_usd_per_day=X]; "
                      "readable by its owner only");
    serve->add_option("--api-key-env", args.apiKeyEnv, "One key, from this environment variable (named env:VAR)");
    serve->add_option("--input", args.input,
                      "How a conversation becomes the run's input: last-user (default) or transcript")
        ->check(CLI::IsMember({"last-user", "transcript"}));
    serve->add_option("--max-concurrency", args.maxConcurrency, "Runs at once (default 64)")
        ->check(CLI::Range(1, 100000));
    serve->add_option("--max-queue", args.maxQueue, "Requests waiting for a run before 503 (default 256)")
        ->check(CLI::Range(0, 1000000));
    serve->add_option("--io-threads", args.ioThreads,
                      "Threads reading, admitting and writing requests (default 2; a stream costs none)")
        ->check(CLI::Range(1, 64));
    serve->add_option("--max-body-bytes", args.maxBodyBytes, "The largest request body (default 1 MiB)")
        ->check(CLI::Range(size_t(1024), size_t(1) << 30));
    serve->add_option_function<std::string>(
        "--db", [&args](const std::string& file) { args.db = file; },
        "The run store (default: $CONCLAVE_DB, else $XDG_DATA_HOME/conclave/runs.sqlite)");
    serve->add_option("--drain-seconds", args.drainSeconds,
                      "On SIGTERM, how long runs may finish before the rest are cancelled (default 30)")
        ->check(CLI::Range(0.0, 86400.0));
    serve->add_option("--keep-runs", args.keepRuns, "Keep only the newest N served runs (default: all)")
        ->check(CLI::Range(1, 1 << 30));
    serve->add_option("--store-text", args.storeText,
                      "full (default), or none: prompts, outputs and span texts are not stored, only figures")
        ->check(CLI::IsMember({"full", "none"}));
    return serve;
}

} // namespace conclave::cli
