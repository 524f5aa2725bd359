// `conclave world serve FILE`: a ground-truth world (docs/ground-truth-worlds.md)
// served as an OpenAI-compatible endpoint, to measure, calibrate and check the
// simulator against models that are not it, end to end over HTTP.
#include "Commands.h"

#include "conclave/bench/ChatTestServer.h"
#include "conclave/bench/GroundTruthWorld.h"
#include "conclave/diagnostics/Problem.h"
#include "conclave/util/NumberText.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>

namespace conclave::cli {

namespace {

std::atomic<bool> g_stop{false};

void onStop(int)
{
    g_stop.store(true);
}

} // namespace

int runWorldServe(const CliContext& context, const WorldArgs& args)
{
    const auto fail = [&](const std::string& message) {
        context.err << "world serve: " << message << '\n';
        return kExitBadInput;
    };
    if (!context.resources)
        return fail("cannot find the resources folder (task sets)");
    if (!(args.timeScale > 0))
        return fail("--time-scale: expected a positive number, got " + formatNumber(args.timeScale));
    auto loaded = GroundTruthWorld::load(args.file, *context.resources);
    if (!loaded.world) {
        for (const auto& problem : loaded.problems)
            context.err << formatProblem(problem, args.file) << '\n';
        return kExitBadInput;
    }
    auto world = args.seed ? loaded.world->withSeed(*args.seed) : loaded.world;
    ChatTestServerOptions options;
    options.responder = world;
    options.responderTimeScale = args.timeScale;
    options.port = args.port;
    std::string error;
    auto server = ChatTestServer::start(options, error);
    if (!server)
        return fail("port " + std::to_string(args.port) + ": " + error);
    std::string models;
    for (const auto& [name, model] : world->spec().models)
        models += (models.empty() ? "" : ", ") + name;
    context.out << "serving the ground-truth world " << world->spec().name << " (seed " << world->spec().seed
                << "; models " << models << "; " << world->tasks().tasks().size() << " tasks) at " << server->baseUrl()
                << ", times x " << formatNumber(args.timeScale)
                << "\nit is a world of rules, not real models (docs/ground-truth-worlds.md); Ctrl+C stops it\n"
                << std::flush;
    g_stop.store(false);
    std::signal(SIGINT, onStop);
    std::signal(SIGTERM, onStop);
    while (!g_stop.load())
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    server.reset();
    context.out << "stopped\n";
    return kExitOk;
}

} // namespace conclave::cli
