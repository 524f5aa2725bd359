#include "conclave/whatif/ReplayTeam.h"

#include "conclave/session/Engine.h"

#include <algorithm>

namespace conclave {

std::optional<ReplayTeam> ReplayTeam::make(Engine& engine, Team team, std::shared_ptr<const RecordingSource> source,
                                           Settings settings, std::string& error)
{
    ReplayTeam replay(engine, std::move(team), std::move(source), std::move(settings));
    replay.m_prepared = replay.prepare(replay.m_team, {}, error);
    if (!replay.m_prepared)
        return std::nullopt;
    return replay;
}

std::shared_ptr<const PreparedTeam> ReplayTeam::prepare(const Team& team, CallRetiming retime,
                                                        std::string& error) const
{
    // Without recorded waits each call's recorded time holds its wait: the queue is not simulated again.
    Team replayed = team;
    if (!m_settings.waitsRecorded)
        for (auto& [name, block] : replayed.backends)
            block.maxConcurrency.reset();
    auto prepared = m_engine->prepareReplay(replayed, m_source, m_settings.teamFolder, std::move(retime),
                                            m_settings.simulatorModels);
    if (!prepared.team) {
        // A stored team names its files as written; without the team file's folder they are read
        // from the folder the command runs in.
        const bool relativeFile =
            m_settings.teamFolder.empty() &&
            std::any_of(team.backends.begin(), team.backends.end(), [](const auto& entry) {
                return entry.second.modelsFile && std::filesystem::path(*entry.second.modelsFile).is_relative();
            });
        error = m_settings.owner + ": its team cannot be prepared: " + prepared.error +
                (relativeFile ? " (a relative models_file is read from the folder the command runs in: run it from "
                                "the team file's folder)"
                              : "");
        return nullptr;
    }
    if (!m_settings.realClock || prepared.team->plan->timeScale() == 1.0)
        return prepared.team;
    auto scaled = std::make_shared<PreparedTeam>(*prepared.team);
    scaled->replayScale = scaled->plan->timeScale();
    return scaled;
}

std::optional<Team> ReplayTeam::changedTeam(const WhatIfChanges& changes, std::string& error) const
{
    const auto& owner = m_settings.owner;
    Team team = m_team;
    for (const auto& [name, limit] : changes.maxConcurrency) {
        const auto block = team.backends.find(name);
        if (block == team.backends.end()) {
            error = "--backend " + name.str() + ": no backend \"" + name.str() + "\" in the team of " + owner;
            return std::nullopt;
        }
        block->second.maxConcurrency = limit;
    }
    if (!changes.maxConcurrency.empty() && !m_settings.waitsRecorded) {
        error = owner + ": queue waits not recorded: concurrency what-ifs unavailable";
        return std::nullopt;
    }
    for (const auto& [id, model] : changes.models) {
        auto* node = team.findNode(id);
        // A swapped model's calls are the simulator's: it must know the model.
        const auto index = m_prepared->plan->indexOf(id);
        if (node && node->callsModel() && index) {
            const auto& backend = m_prepared->plan->at(*index).call->backend;
            const auto profiles = m_prepared->localProfiles.find(backend);
            if (profiles == m_prepared->localProfiles.end() || !profiles->second->count(model)) {
                error = "--model " + id.str() + "=" + model + ": the simulator has no profile of model \"" + model +
                        "\" (backend \"" + backend.str() +
                        "\"): give one in --models-file (conclave calibrate writes one from measured runs)";
                return std::nullopt;
            }
            // A local-moe backend's team must know the model: it is among the simulator's profiles.
            auto& block = team.backends.at(backend);
            if (block.kind == BackendKind::LocalMoe && !m_settings.simulatorModels.empty())
                block.models = ModelsFile::overlay(block.models.value_or(ModelsFile::Profiles{}),
                                                   m_settings.simulatorModels);
        }
        if (!node) {
            error = "--model " + id.str() + ": no node \"" + id.str() + "\" in the team of " + owner;
            return std::nullopt;
        }
        if (!node->callsModel()) {
            error = "--model " + id.str() + ": node \"" + id.str() + "\" calls no model";
            return std::nullopt;
        }
        node->config.call.model = model;
    }
    return team;
}

std::shared_ptr<const PreparedTeam> ReplayTeam::prepared(const WhatIfChanges& changes, std::string& error) const
{
    for (const auto& [node, change] : changes.speeds.byNode())
        if (!m_team.findNode(node)) {
            error = "--speed " + node.str() + ": no node \"" + node.str() + "\" in the team of " + m_settings.owner;
            return nullptr;
        }
    if (changes.maxConcurrency.empty() && changes.models.empty()) {
        auto retimed = std::make_shared<PreparedTeam>(*m_prepared);
        retimed->retime = changes.speeds.retiming();
        return retimed;
    }
    const auto team = changedTeam(changes, error);
    if (!team)
        return nullptr;
    return prepare(*team, changes.speeds.retiming(), error);
}

} // namespace conclave
