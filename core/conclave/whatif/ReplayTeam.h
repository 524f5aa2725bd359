#pragma once

#include "conclave/io/ModelsFile.h"
#include "conclave/model/Team.h"
#include "conclave/replay/RecordingSource.h"
#include "conclave/session/PreparedTeam.h"
#include "conclave/whatif/WhatIfChanges.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace conclave {

class Engine;

// A stored team made ready to replay recorded calls under a what-if's
// changes (docs/whatif.md): prepared once as it ran; a speed change only
// swaps the retiming, a model or concurrency change prepares the changed
// team. What it replays is `source` (one run's calls); an experiment's
// profile swaps in each trial's own (PreparedTeam::replayAll).
class ReplayTeam {
public:
    struct Settings {
        std::string owner; // "run R", "design D": whose team, in messages
        std::filesystem::path teamFolder; // where a relative models_file is found
        ModelsFile::Profiles simulatorModels; // over each backend's own, for what the simulator answers
        bool waitsRecorded = true; // every attempt recorded its queue wait: concurrency changes possible
        // Recorded on the real clock: its times were scaled by the team's time_scale; the replay, on
        // the simulated clock, runs in team time (timeScale() converts back).
        bool realClock = false;
    };

    // Unset, with `error`, when the team cannot be prepared.
    static std::optional<ReplayTeam> make(Engine& engine, Team team, std::shared_ptr<const RecordingSource> source,
                                          Settings settings, std::string& error);

    // The team prepared to replay `source` under `changes`; null, with `error`, when a change names
    // a node or backend the team does not have, a model for a node that calls none or that the
    // simulator has no profile of, or a concurrency change while queue waits were not recorded.
    std::shared_ptr<const PreparedTeam> prepared(const WhatIfChanges& changes, std::string& error) const;

    const Team& team() const { return m_team; }
    // Recorded µs per projected µs: the team's time_scale for a run recorded on the real clock, else 1.
    double timeScale() const { return m_prepared->replayScale; }
    const Settings& settings() const { return m_settings; }

private:
    ReplayTeam(Engine& engine, Team team, std::shared_ptr<const RecordingSource> source, Settings settings)
        : m_engine(&engine), m_team(std::move(team)), m_source(std::move(source)), m_settings(std::move(settings))
    {
    }
    std::optional<Team> changedTeam(const WhatIfChanges& changes, std::string& error) const;
    std::shared_ptr<const PreparedTeam> prepare(const Team& team, CallRetiming retime, std::string& error) const;

    Engine* m_engine;
    Team m_team;
    std::shared_ptr<const RecordingSource> m_source;
    Settings m_settings;
    std::shared_ptr<const PreparedTeam> m_prepared; // as it ran
};

} // namespace conclave
