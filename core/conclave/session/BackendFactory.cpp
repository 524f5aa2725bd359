#include "conclave/session/BackendFactory.h"

#include "conclave/http/OpenAiBackend.h"
#include "conclave/io/ModelsFile.h"
#include "conclave/local/LocalMoeBackend.h"
#include "conclave/local/LongerCall.h"
#include "conclave/local/ProfileGate.h"
#include "conclave/model/DefaultValues.h"
#include "conclave/replay/RecordedBackend.h"
#include "conclave/replay/ReplayNote.h"

#include <cmath>

#include <algorithm>

namespace conclave {

namespace {

// A cut-short call as the simulator finishes it: drawn to outlast the time it was served (LongerCall).
ContinuedCall continueLonger(const CallResponder& answers, const ModelRequest& request, int64_t servedUs)
{
    auto drawn = LongerCall::draw(answers, request, double(servedUs) / 1e3);
    ContinuedCall call;
    call.reply = std::move(drawn.reply);
    call.reply.costUsd = answers.costOf(request.model, call.reply.tokensIn, call.reply.tokensOut);
    call.doneUs = std::llround(drawn.totalMs * 1e3);
    if (!drawn.firstChunk.empty()) {
        call.firstTokenUs = std::llround(drawn.ttftMs * 1e3);
        call.firstChunk = std::move(drawn.firstChunk);
    }
    return call;
}

// The profiles of a backend's models_file; nullopt, with `error` set, when it cannot be read.
std::optional<ModelsFile::Profiles> modelsFileProfiles(const BackendName& name, const Backend& block,
                                                       const std::filesystem::path& teamFolder, std::string& error)
{
    const auto path = ModelsFile::resolve(*block.modelsFile, teamFolder);
    auto file = ModelsFile::load(path);
    if (!file.file) {
        // The validator said why already, unless the file changed since.
        const auto first =
            std::find_if(file.problems.begin(), file.problems.end(), [](const Problem& p) { return p.isError(); });
        error =
            "models file of backend \"" + name.str() + "\": " +
            (first == file.problems.end() ? path.string() + ": cannot be read" : formatProblem(*first, path.string()));
        return std::nullopt;
    }
    return file.file->models();
}

std::shared_ptr<const LocalResponder::Profiles> shared(std::map<std::string, ResolvedProfile> resolved)
{
    return std::make_shared<const LocalResponder::Profiles>(std::make_move_iterator(resolved.begin()),
                                                            std::make_move_iterator(resolved.end()));
}

} // namespace

BackendFactory::BackendFactory(const EngineResources& resources, HttpHub& http, std::shared_ptr<RunClock> clock)
    : m_resources(resources), m_http(http), m_clock(std::move(clock))
{
}

std::map<BackendName, ModelsFile::Profiles> BackendFactory::profileOverrides(const Team& team,
                                                                           const std::filesystem::path& teamFolder,
                                                                           std::string& error)
{
    std::map<BackendName, ModelsFile::Profiles> out;
    for (const auto& [name, block] : team.backends) {
        // A recorded backend that simulates what was not recorded has a simulator's profiles too.
        if (block.kind != BackendKind::LocalMoe &&
            (block.kind != BackendKind::Recorded || block.onMissing.value_or("fail") != "simulate"))
            continue;
        auto overrides = block.models.value_or(ModelsFile::Profiles{});
        if (block.modelsFile) {
            const auto file = modelsFileProfiles(name, block, teamFolder, error);
            if (!file)
                return {};
            overrides = ModelsFile::overlay(*file, overrides);
        }
        out.emplace(name, std::move(overrides));
    }
    return out;
}

std::map<BackendName, std::shared_ptr<const LocalResponder::Profiles>>
BackendFactory::resolveProfiles(const EngineResources& resources, const Team& team,
                                const std::filesystem::path& teamFolder, std::string& error)
{
    std::map<BackendName, std::shared_ptr<const LocalResponder::Profiles>> out;
    for (const auto& [name, overrides] : profileOverrides(team, teamFolder, error))
        out.emplace(name, shared(LocalResponder::resolve(resources.localModels, overrides)));
    if (!error.empty())
        return {};
    return out;
}

std::map<BackendName, std::shared_ptr<const LocalResponder::Profiles>>
BackendFactory::resolveGateProfiles(const EngineResources& resources, const Team& team,
                                    const std::filesystem::path& teamFolder, std::string& error)
{
    std::map<BackendName, std::shared_ptr<const LocalResponder::Profiles>> out;
    for (const auto& [name, block] : team.backends) {
        if (block.kind != BackendKind::OpenAi || !block.modelsFile)
            continue;
        const auto file = modelsFileProfiles(name, block, teamFolder, error);
        if (!file)
            return {};
        // Only the models the file names: a real endpoint's model is not the catalog's unless the file says so.
        ModelsFile::Profiles named;
        for (const auto& entry : *file) {
            if (const auto catalog = resources.localModels.find(entry.first); catalog != resources.localModels.end())
                named.insert(*catalog);
        }
        out.emplace(name, shared(LocalResponder::resolve(named, *file)));
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
    std::shared_ptr<const LocalResponder::Profiles> gateLocalProfiles; // gateResponder's
    const auto defaultBackend = plan.team().defaults.value_or(Defaults{}).backend;
    for (const auto& [name, block] : plan.team().backends) {
        if (team.replayAll) {
            // Single-run mode: every call is the stored run's, whatever the block says. What the run
            // did not make, or cut short, the simulator answers (a moe_gate router scores with the
            // gate of the first backend's profiles).
            std::shared_ptr<ModelBackend> simulator;
            CutShortContinuation continuation;
            if (const auto profiles = team.localProfiles.find(name); profiles != team.localProfiles.end()) {
                auto prepared = std::make_shared<LocalResponder>(profiles->second, m_resources.gate, tasks, made.seed);
                prepared->prepareFor(input);
                std::shared_ptr<const LocalResponder> responder = std::move(prepared);
                if (!gateResponder) {
                    gateResponder = responder;
                    gateLocalProfiles = profiles->second;
                }
                const std::shared_ptr<const CallResponder> answers =
                    m_resources.world ? m_resources.world : std::shared_ptr<const CallResponder>(responder);
                simulator = std::make_shared<LocalMoeBackend>(answers, m_clock, block.timeScale.value_or(1.0));
                continuation = [answers](const ModelRequest& request, int64_t servedUs) {
                    return continueLonger(*answers, request, servedUs);
                };
            }
            RecordedBackend::Settings settings{name.str(), made.seed, block.maxConcurrency.value_or(0), team.retime,
                                               std::move(continuation),
                                               ReplayNote::simulated(team.replayAll->describe()), team.replayScale};
            made.backends.emplace(name, std::make_shared<RecordedBackend>(team.replayAll, m_clock, std::move(settings),
                                                                          std::move(simulator)));
            continue;
        }
        if (block.kind == BackendKind::OpenAi) {
            auto http = OpenAiBackend::make(name.str(), block, m_http, made.error);
            if (!http)
                return Made{{}, {}, 0, std::move(made.error)};
            made.backends.emplace(name, std::move(http));
            continue;
        }
        const uint64_t backendSeed = seed.value_or(uint64_t(block.seed.value_or(int64_t(defaults::kSeed))));
        if (!seed && name == defaultBackend.value_or(name))
            made.seed = backendSeed;
        if (block.kind == BackendKind::Recorded) {
            std::shared_ptr<ModelBackend> simulator;
            if (const auto profiles = team.localProfiles.find(name); profiles != team.localProfiles.end()) {
                auto prepared =
                    std::make_shared<LocalResponder>(profiles->second, m_resources.gate, tasks, backendSeed);
                prepared->prepareFor(input);
                std::shared_ptr<const LocalResponder> responder = std::move(prepared);
                if (!gateResponder) {
                    gateResponder = responder;
                    gateLocalProfiles = profiles->second;
                }
                simulator = std::make_shared<LocalMoeBackend>(responder, m_clock, 1.0);
            }
            made.backends.emplace(
                name, std::make_shared<RecordedBackend>(
                          team.recordings.at(name), m_clock,
                          RecordedBackend::Settings{name.str(), backendSeed, block.maxConcurrency.value_or(0), {}, {}, {}, 1.0},
                          std::move(simulator)));
            continue;
        }
        auto prepared =
            std::make_shared<LocalResponder>(team.localProfiles.at(name), m_resources.gate, tasks, backendSeed);
        prepared->prepareFor(input);
        std::shared_ptr<const LocalResponder> responder = std::move(prepared);
        if (!gateResponder) {
            gateResponder = responder;
            gateLocalProfiles = team.localProfiles.at(name);
        }
        const std::shared_ptr<const CallResponder> answers =
            m_resources.world ? m_resources.world : std::shared_ptr<const CallResponder>(responder);
        made.backends.emplace(
            name, std::make_shared<LocalMoeBackend>(
                      answers, m_clock, block.timeScale.value_or(1.0),
                      SimulatedLoad{block.maxConcurrency.value_or(0), block.backgroundInflight.value_or(0)}));
    }
    if (!team.gateProfiles.empty()) {
        // An openai backend's models_file speaks for the models it names, ahead of any local backend's
        // profile of the same name (the catalog's, most often); the first local backend's profiles
        // score the rest, as they would without the file.
        std::vector<std::shared_ptr<const LocalResponder::Profiles>> sources;
        for (const auto& entry : team.gateProfiles)
            sources.push_back(entry.second);
        if (gateLocalProfiles)
            sources.push_back(gateLocalProfiles);
        auto gate = std::make_shared<const ProfileGate>(m_resources.gate, std::move(sources));
        made.gate = [gate](std::string_view prompt, const std::vector<std::string>& models) {
            return gate->scores(prompt, models);
        };
    } else if (gateResponder) {
        made.gate = [gateResponder](std::string_view prompt, const std::vector<std::string>& models) {
            return gateResponder->gateScores(prompt, models);
        };
    }
    return made;
}

} // namespace conclave
