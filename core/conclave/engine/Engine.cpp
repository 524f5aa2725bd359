#include "conclave/engine/Engine.h"

#include "conclave/http/OpenAiBackend.h"
#include "conclave/local/LocalMoeBackend.h"
#include "conclave/resources/LocalModelCatalog.h"
#include "conclave/validate/Validator.h"

namespace conclave {

EngineResources EngineResources::load(const std::filesystem::path& dir, std::vector<std::string>& errors)
{
    EngineResources r;
    const auto describe = [](const std::filesystem::path& file, const std::vector<Problem>& problems) {
        for (const auto& p : problems) {
            if (p.isError())
                return formatProblem(p, file.string());
        }
        return file.string() + ": cannot be loaded";
    };
    const auto modelsPath = dir / "models" / "local-models.json";
    auto catalog = LocalModelCatalog::load(modelsPath);
    if (catalog.catalog)
        r.localModels = catalog.catalog->models();
    else
        errors.push_back(describe(modelsPath, catalog.problems));
    const auto gatePath = dir / "models" / "gate.json";
    auto gate = Gate::load(gatePath);
    if (gate.gate)
        r.gate = std::make_shared<const Gate>(std::move(*gate.gate));
    else
        errors.push_back(describe(gatePath, gate.problems));
    auto tasks = TaskSet::loadFolder(dir / "tasksets");
    if (tasks.tasks)
        r.tasks = std::make_shared<const TaskSet>(std::move(*tasks.tasks));
    else
        errors.push_back(describe(dir / "tasksets", tasks.problems));
    return r;
}

Engine::Engine(EngineResources resources, size_t threads)
    : m_resources(std::move(resources)), m_pool(threads), m_timers(m_pool)
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
    Started started;
    ValidationContext context;
    for (const auto& [name, profile] : m_resources.localModels)
        context.localModels.insert(name);
    for (const auto& problem : validate(team, context)) {
        if (problem.isError()) {
            started.error = "the team is invalid: " + formatProblem(problem, "").substr(2);
            return started;
        }
    }
    auto plan = RunPlan::make(team, started.error);
    if (!plan)
        return started;

    std::map<BackendName, std::shared_ptr<ModelBackend>> backends;
    std::shared_ptr<const LocalResponder> gateResponder;
    uint64_t runSeed = seed.value_or(42);
    for (const auto& [name, block] : plan->team().backends) {
        if (block.kind == BackendKind::OpenAi) {
            auto http = OpenAiBackend::make(name.str(), block, m_http, started.error);
            if (!http)
                return started;  // a missing API key: said before anything runs
            backends.emplace(name, std::move(http));
            continue;
        }
        const uint64_t backendSeed = seed.value_or(uint64_t(block.seed.value_or(42)));
        if (!seed && name == plan->team().defaults.value_or(Defaults{}).backend.value_or(name))
            runSeed = backendSeed;
        auto prepared = std::make_shared<LocalResponder>(
            LocalResponder::resolve(m_resources.localModels, block.models.value_or(std::map<std::string, ModelProfile>{})),
            m_resources.gate, m_resources.tasks, backendSeed);
        prepared->prepareFor(input);
        std::shared_ptr<const LocalResponder> responder = std::move(prepared);
        if (!gateResponder)
            gateResponder = responder;
        backends.emplace(name, std::make_shared<LocalMoeBackend>(responder, m_timers, m_pool,
                                                                  block.timeScale.value_or(1.0)));
    }
    GateScorer gate;
    if (gateResponder) {
        gate = [gateResponder](std::string_view prompt, const std::vector<std::string>& models) {
            return gateResponder->gateScores(prompt, models);
        };
    }
    RunOptions options;
    options.input = std::move(input);
    options.seed = runSeed;
    options.observers = std::move(observers);
    started.run = std::make_shared<Run>(std::move(plan), std::move(options), std::move(backends), std::move(gate),
                                        m_pool, m_timers);
    {
        std::lock_guard lock(m_mutex);
        std::erase_if(m_runs, [](const std::weak_ptr<Run>& w) { return w.expired(); });
        m_runs.push_back(started.run);
    }
    started.run->start();
    return started;
}

} // namespace conclave
