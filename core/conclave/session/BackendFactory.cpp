#include "conclave/session/BackendFactory.h"

#include "conclave/http/OpenAiBackend.h"
#include "conclave/io/ModelsFile.h"
#include "conclave/local/LocalMoeBackend.h"
#include "conclave/model/DefaultValues.h"

#include <algorithm>

namespace conclave {

BackendFactory::BackendFactory(const EngineResources& resources, HttpHub& http, std::shared_ptr<RunClock> clock)
    : m_resources(resources), m_http(http), m_clock(std::move(clock))
{
}

std::map<BackendName, std::shared_ptr<const LocalResponder::Profiles>>
BackendFactory::resolveProfiles(const EngineResources& resources, const RunPlan& plan,
                                const std::filesystem::path& teamFolder, std::string& error)
{
    std::map<BackendName, std::shared_ptr<const LocalResponder::Profiles>> out;
    for (const auto& [name, block] : plan.team().backends) {
        if (block.kind != BackendKind::LocalMoe)
            continue;
        auto overrides = block.models.value_or(ModelsFile::Profiles{});
        if (block.modelsFile) {
            const auto path = ModelsFile::resolve(*block.modelsFile, teamFolder);
            auto file = ModelsFile::load(path);
            if (!file.file) {
                // The validator said why already, unless the file changed since.
                const auto first = std::find_if(file.problems.begin(), file.problems.end(),
                                                [](const Problem& p) { return p.isError(); });
                error = "models file of backend \"" + name.str() + "\": " +
                        (first == file.problems.end() ? path.string() + ": cannot be read"
                                                      : formatProblem(*first, path.string()));
                return {};
            }
            overrides = ModelsFile::overlay(file.file->models(), overrides);
        }
        auto resolved = LocalResponder::resolve(resources.localModels, overrides);
        out.emplace(name, std::make_shared<const LocalResponder::Profiles>(std::make_move_iterator(resolved.begin()),
                                                                           std::make_move_iterator(resolved.end())));
    }
    return out;
}

BackendFactory::Made BackendFactory::make(const PreparedTeam& team, std::string_view input,
                                          std::optional<uint64_t> seed, std::shared_ptr<const TaskSet> tasks) const
{
    if (!tasks)
        tasks = m_resources.tasks;
    const auto& plan = *team.plan;
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
        auto prepared =
            std::make_shared<LocalResponder>(team.localProfiles.at(name), m_resources.gate, tasks, backendSeed);
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
