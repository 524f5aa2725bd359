#include "conclave/experiment/FidelityTwin.h"

namespace conclave {

namespace {

bool replays(const Team& team)
{
    for (const auto& [name, block] : team.backends)
        if (block.kind == BackendKind::Recorded)
            return true;
    return false;
}

} // namespace

std::optional<Team> FidelityTwin::simulated(const Team& measured, const ModelsFile::Profiles& calibrated,
                                            std::string& why)
{
    if (replays(measured)) {
        why = "it replays recordings: it has no measurement of its own to predict";
        return std::nullopt;
    }
    Team twin = measured;
    for (auto& [name, block] : twin.backends) {
        Backend simulator;
        simulator.kind = BackendKind::LocalMoe;
        simulator.seed = block.kind == BackendKind::LocalMoe ? block.seed : std::nullopt;
        simulator.maxConcurrency = block.maxConcurrency;
        simulator.models = calibrated;
        block = std::move(simulator);
    }
    return twin;
}

std::optional<Team> FidelityTwin::replayed(const Team& measured, const std::vector<std::string>& experiments,
                                           const std::vector<std::string>& excluded,
                                           const ModelsFile::Profiles& calibrated, std::string& why)
{
    if (replays(measured)) {
        why = "it replays recordings: it has no measurement of its own to predict";
        return std::nullopt;
    }
    Team twin = measured;
    for (auto& [name, block] : twin.backends) {
        Backend recorded;
        recorded.kind = BackendKind::Recorded;
        recorded.experiments = experiments;
        if (!excluded.empty())
            recorded.excludeDesigns = excluded;
        recorded.onMissing = "simulate";
        recorded.seed = block.kind == BackendKind::LocalMoe ? block.seed : std::nullopt;
        recorded.maxConcurrency = block.maxConcurrency;
        recorded.models = calibrated;
        block = std::move(recorded);
    }
    return twin;
}

bool FidelityTwin::combines(const Team& team)
{
    int calling = 0;
    for (const auto& node : team.nodes) {
        if (node.kind == NodeKind::Coordinator)
            return true;
        calling += node.callsModel() ? 1 : 0;
    }
    return calling >= 2;
}

} // namespace conclave
