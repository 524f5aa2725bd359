#include "conclave/session/Engine.h"

#include "conclave/analysis/CriticalPathFinder.h"
#include "conclave/engine/RealClock.h"
#include "conclave/engine/VirtualClock.h"
#include "conclave/io/ModelsFile.h"
#include "conclave/session/BackendFactory.h"
#include "conclave/session/RouterBehaviourFactory.h"
#include "conclave/session/TeamScorers.h"
#include "conclave/validate/Validator.h"

namespace conclave {

Engine::Engine(EngineResources resources, size_t threads)
    : m_resources(std::move(resources)), m_pool(threads, "conclave-engine"), m_timers(m_pool)
{
}

Engine::~Engine()
{
    std::vector<std::shared_ptr<Run>> live;
    {
        std::lock_guard lock(m_mutex);
        for (auto& weak : m_runs) {
            if (auto run = weak.lock())
                live.push_back(std::move(run));
        }
    }
    for (auto& run : live)
        run->cancel();
    for (auto& run : live)
        run->wait();
}

Engine::Started Engine::start(const Team& team, std::string input, std::optional<uint64_t> seed,
                              std::vector<RunObserver*> observers)
{
    return start(team, std::move(input), StartOptions{seed, std::move(observers), ClockRequest::Real, {}, {}});
}

Engine::Prepared Engine::prepare(const Team& team, const std::filesystem::path& teamFolder) const
{
    Prepared prepared;
    ValidationContext context;
    context.teamFolder = teamFolder;
    for (const auto& [name, profile] : m_resources.localModels)
        context.localModels.insert(name);
    for (const auto& problem : validate(team, context)) {
        if (problem.isError()) {
            prepared.error = "the team is invalid: " + formatProblem(problem, "").substr(2);
            return prepared;
        }
    }
    const RouterBehaviourFactory routers(m_resources, teamFolder, &team);
    auto plan = RunPlan::make(team, prepared.error, routers.maker());
    if (!plan)
        return prepared;
    auto ready = std::make_shared<PreparedTeam>();
    ready->localProfiles = BackendFactory::resolveProfiles(m_resources, plan->team(), teamFolder, prepared.error);
    if (!prepared.error.empty())
        return prepared;
    ready->gateProfiles = BackendFactory::resolveGateProfiles(m_resources, plan->team(), teamFolder, prepared.error);
    if (!prepared.error.empty())
        return prepared;
    for (const auto& [name, block] : plan->team().backends) {
        if (block.kind != BackendKind::Recorded)
            continue;
        const auto db = block.db ? ModelsFile::resolve(*block.db, teamFolder) : m_store;
        if (db.empty()) {
            prepared.error = "backend \"" + name.str() +
                             "\": a recorded backend reads a run store: set its db, or run the team with a store";
            return prepared;
        }
        std::string error;
        auto source = m_recordings.experiments(db, block.experiments.value_or(std::vector<std::string>{}),
                                               block.excludeDesigns.value_or(std::vector<std::string>{}), error);
        if (!source) {
            prepared.error = "backend \"" + name.str() + "\": " + error;
            return prepared;
        }
        ready->recordings.emplace(name, std::move(source));
    }
    ready->scorers = TeamScorers::load(plan->team(), teamFolder, m_resources.gate, prepared.error);
    if (!prepared.error.empty())
        return prepared;
    ready->plan = std::move(plan);
    prepared.team = std::move(ready);
    return prepared;
}

Engine::Prepared Engine::prepareReplay(const Team& team, const std::string& runId, const std::filesystem::path& db,
                                       const std::filesystem::path& teamFolder, CallRetiming retime,
                                       const ModelsFile::Profiles& simulatorModels) const
{
    Prepared prepared;
    const auto store = db.empty() ? m_store : db;
    if (store.empty()) {
        prepared.error = "replaying run " + runId + " needs its run store";
        return prepared;
    }
    auto source = m_recordings.run(store, runId, prepared.error);
    if (!source)
        return prepared;
    return prepareReplay(team, std::move(source), teamFolder, std::move(retime), simulatorModels);
}

Engine::Prepared Engine::prepareReplay(const Team& team, std::shared_ptr<const RecordingSource> source,
                                       const std::filesystem::path& teamFolder, CallRetiming retime,
                                       const ModelsFile::Profiles& simulatorModels) const
{
    auto prepared = prepare(team, teamFolder);
    if (!prepared.team)
        return prepared;
    auto replaying = std::make_shared<PreparedTeam>(*prepared.team);
    // Every backend gets a simulator for the calls the run did not make: a local-moe block's own
    // profiles, anything else the catalog's; then the given models over them.
    auto own = BackendFactory::profileOverrides(team, teamFolder, prepared.error);
    if (!prepared.error.empty()) {
        prepared.team.reset();
        return prepared;
    }
    replaying->localProfiles.clear();
    for (const auto& [name, block] : team.backends) {
        const auto it = own.find(name);
        auto resolved = LocalResponder::resolve(
            m_resources.localModels,
            ModelsFile::overlay(it != own.end() ? it->second : ModelsFile::Profiles{}, simulatorModels));
        replaying->localProfiles.emplace(name, std::make_shared<const LocalResponder::Profiles>(
                                                   std::make_move_iterator(resolved.begin()),
                                                   std::make_move_iterator(resolved.end())));
    }
    replaying->replayAll = std::move(source);
    replaying->retime = std::move(retime);
    prepared.team = std::move(replaying);
    return prepared;
}

Engine::Started Engine::start(const Team& team, std::string input, StartOptions startOptions)
{
    const auto prepared = prepare(team);
    if (!prepared.team)
        return Started{nullptr, prepared.error};
    return start(*prepared.team, std::move(input), std::move(startOptions));
}

Engine::Started Engine::start(const PreparedTeam& team, std::string input, StartOptions startOptions)
{
    Started started;
    const auto choice = chooseClock(*team.plan, startOptions.clock, team.replayAll != nullptr);
    if (!choice.error.empty()) {
        started.error = choice.error;
        return started;
    }
    std::shared_ptr<RunClock> clock;
    if (choice.kind == ClockKind::Virtual)
        clock = std::make_shared<VirtualClock>(m_pool);
    else
        clock = std::make_shared<RealClock>(m_pool, m_timers);
    auto made = BackendFactory(m_resources, m_http, clock).make(team, input, startOptions.seed, startOptions.tasks);
    if (!made.error.empty()) {
        started.error = std::move(made.error); // a missing API key: said before anything runs
        return started;
    }
    RunOptions options;
    options.input = std::move(input);
    options.seed = made.seed;
    options.observers = std::move(startOptions.observers);
    options.criticalPath = &CriticalPathFinder::find;
    options.cancelAfterMs = startOptions.cancelAfterMs;
    options.judge = std::move(startOptions.judge);
    options.scorers = team.scorers;
    started.run = std::make_shared<Run>(team.plan, std::move(options), std::move(made.backends), std::move(made.gate),
                                        std::move(clock));
    {
        std::lock_guard lock(m_mutex);
        std::erase_if(m_runs, [](const std::weak_ptr<Run>& w) { return w.expired(); });
        m_runs.push_back(started.run);
    }
    started.run->start();
    return started;
}

} // namespace conclave
