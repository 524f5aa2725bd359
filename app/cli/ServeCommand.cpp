// `conclave serve`: teams as an OpenAI-compatible endpoint until SIGTERM or
// SIGINT (drain) — SIGHUP re-reads the teams (docs/serve.md).
#include "Commands.h"

#include "conclave/serve/ChatServer.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunStore.h"

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <pthread.h>

namespace conclave::cli {

namespace {

// The signals the command waits for, blocked in every thread it starts so
// that only its sigwait sees them.
sigset_t serveSignals()
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP);
    return set;
}

std::string teamList(const ServedTeams& teams)
{
    std::string list;
    for (const auto& team : teams.all())
        list += (list.empty() ? "" : ", ") + team.id +
                (team.file.empty() ? std::string() : " (" + team.file.string() + ")");
    return list;
}

} // namespace

int runServe(const CliContext& context, const ServeArgs& args)
{
    const auto fail = [&](const std::string& message) {
        context.err << "serve: " << message << '\n';
        return kExitBadInput;
    };
    std::vector<ServedTeams::Spec> specs;
    for (const auto& text : args.teams) {
        std::string error;
        auto spec = ServedTeams::parseSpec(text, error);
        if (!spec)
            return fail(error);
        specs.push_back(std::move(*spec));
    }
    ChatServerOptions options;
    options.host = args.host;
    options.port = args.port;
    options.maxConcurrency = args.maxConcurrency;
    options.maxQueue = args.maxQueue;
    options.ioThreads = args.ioThreads;
    options.maxBodyBytes = args.maxBodyBytes;
    options.keepRuns = args.keepRuns;
    options.storeText = args.storeText == "full";
    options.accessLog = &context.out;
    options.input = serveInputFromString(args.input).value_or(ServeInput::LastUser);
    if (!args.apiKeysFile.empty() && !args.apiKeyEnv.empty())
        return fail("give --api-keys-file or --api-key-env, not both");
    if (!args.apiKeysFile.empty()) {
        auto loaded = ApiKeys::loadFile(args.apiKeysFile);
        if (!loaded.keys)
            return fail(loaded.error);
        options.keys = std::move(loaded.keys);
    } else if (!args.apiKeyEnv.empty()) {
        auto loaded = ApiKeys::fromEnvironment(args.apiKeyEnv, std::getenv(args.apiKeyEnv.c_str()));
        if (!loaded.keys)
            return fail(loaded.error);
        options.keys = std::move(loaded.keys);
    }
    auto resources = context.engineResources();
    if (!resources)
        return kExitBadInput;
    const auto storePath = RunStore::resolvePath(args.db);
    auto opened = RunStore::open(storePath);
    if (!opened.store)
        return fail(opened.error);

    // Before any thread starts, so every thread inherits the mask.
    const sigset_t signals = serveSignals();
    sigset_t previous;
    pthread_sigmask(SIG_BLOCK, &signals, &previous);
    struct Restore {
        sigset_t mask;
        ~Restore() { pthread_sigmask(SIG_SETMASK, &mask, nullptr); }
    } restore{previous};

    Engine engine(std::move(*resources));
    engine.setStore(storePath);
    auto loaded = ServedTeams::load(specs, engine);
    if (!loaded.teams)
        return fail(loaded.error);
    std::string error;
    auto server = ChatServer::start(engine, *opened.store, loaded.teams, std::move(options), error);
    if (!server)
        return fail(error);
    const std::string url = "http://" + args.host + ":" + std::to_string(server->port()) + "/v1";
    context.err << "conclave serve: " << url << " — teams: " << teamList(*loaded.teams) << "\n"
                << "  keys: "
                << (args.apiKeysFile.empty() ? args.apiKeyEnv.empty() ? std::string("none (loopback only)")
                                                                       : "env:" + args.apiKeyEnv
                                             : args.apiKeysFile)
                << "; runs stored in " << storePath.string() << "\n"
                << "  SIGTERM or Ctrl+C drains (up to " << args.drainSeconds << " s), SIGHUP re-reads the teams"
                << std::endl;
    for (;;) {
        int signal = 0;
        if (sigwait(&signals, &signal) != 0)
            continue;
        if (signal == SIGHUP) {
            auto again = ServedTeams::load(server->teams()->specs(), engine);
            if (!again.teams) {
                context.err << "conclave serve: the teams were not reloaded; still serving the ones before:\n"
                            << again.error << std::endl;
                continue;
            }
            server->setTeams(again.teams);
            context.err << "conclave serve: reloaded " << teamList(*again.teams) << std::endl;
            continue;
        }
        context.err << "conclave serve: draining (up to " << args.drainSeconds << " s)" << std::endl;
        const int cancelled = server->drain(std::chrono::milliseconds(int64_t(args.drainSeconds * 1000)));
        context.err << "conclave serve: stopped"
                    << (cancelled ? "; " + std::to_string(cancelled) + " runs were cancelled at the drain's end"
                                  : std::string())
                    << std::endl;
        return kExitOk;
    }
}

} // namespace conclave::cli
