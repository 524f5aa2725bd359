#include "conclave/experiment/FidelityTwin.h"

namespace conclave {

namespace {

// The measured team with every backend replaced by what `make` builds from it;
// unset, with `why`, for a team that already replays recordings.
template <class Make>
std::optional<Team> withBackends(const Team& measured, std::string& why, Make make)
{
    for (const auto& [name, block] : measured.backends) {
        if (block.kind == BackendKind::Recorded) {
            why = "it replays recordings: it has no measurement of its own to predict";
            return std::nullopt;
        }
    }
    Team twin = measured;
    for (auto& [name, block] : twin.backends) {
        Backend replaced = make();
        replaced.seed = block.kind == BackendKind::LocalMoe ? block.seed : std::nullopt;
        replaced.maxConcurrency = block.maxConcurrency;
        block = std::move(replaced);
    }
    return twin;
}

} // namespace

std::optional<Team> FidelityTwin::simulated(const Team& measured, const ModelsFile::Profiles& calibrated,
                                            std::string& why)
{
    return withBackends(measured, why, [&] {
        Backend simulator;
        simulator.kind = BackendKind::LocalMoe;
        simulator.models = calibrated;
        return simulator;
    });
}

std::optional<Team> FidelityTwin::replayed(const Team& measured, const std::vector<std::string>& experiments,
                                           const std::vector<std::string>& excluded,
                                           const ModelsFile::Profiles& calibrated, std::string& why)
{
    return withBackends(measured, why, [&] {
        Backend recorded;
        recorded.kind = BackendKind::Recorded;
        recorded.experiments = experiments;
        if (!excluded.empty())
            recorded.excludeDesigns = excluded;
        recorded.onMissing = "simulate";
        recorded.models = calibrated;
        return recorded;
    });
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
