#include "conclave/session/BackendFactory.h"

#include "conclave/http/OpenAiBackend.h"
#include "conclave/local/LocalMoeBackend.h"
#include "conclave/model/DefaultValues.h"

namespace conclave {

BackendFactory::BackendFactory(const EngineResources& resources, HttpHub& http, std::shared_ptr<RunClock> clock)
    : m_resources(resources), m_http(http), m_clock(std::move(clock))
{
}

BackendFactory::Made BackendFactory::make(const RunPlan& plan, std::string_view input,
                                          std::optional<uint64_t> seed) const
{
    Made made;
    made.seed = seed.value_or(defaults::kSeed);
    std::shared_ptr<const LocalResponder> gateResponder;
    for (const auto& [name, block] : plan.team().backends) {
        if (block.kind == BackendKind::OpenAi) {
            auto http = OpenAiBackend::make(name.str(), block, m_http, made.error);
            if (!http)
                return Made{{}, {}, 0, std::move(made.error)};
            made.backends.emplace(name, std::move(http));
            continue;
        }
        const uint64_t backendSeed = seed.value_or(uint64_t(block.seed.value_or(int64_t(defaults::kSeed))));
        if (!seed && name == plan.team().defaults.value_or(Defaults{}).backend.value_or(name))
            made.seed = backendSeed;
        auto prepared = std::make_shared<LocalResponder>(
            LocalResponder::resolve(m_resources.localModels,
                                    block.models.value_or(std::map<std::string, ModelProfile>{})),
            m_resources.gate, m_resources.tasks, backendSeed);
        prepared->prepareFor(input);
        std::shared_ptr<const LocalResponder> responder = std::move(prepared);
        if (!gateResponder)
            gateResponder = responder;
        made.backends.emplace(name,
                              std::make_shared<LocalMoeBackend>(responder, m_clock, block.timeScale.value_or(1.0)));
    }
    if (gateResponder) {
        made.gate = [gateResponder](std::string_view prompt, const std::vector<std::string>& models) {
            return gateResponder->gateScores(prompt, models);
        };
    }
    return made;
}

} // namespace conclave
