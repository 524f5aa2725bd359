#pragma once

#include "conclave/model/Team.h"
#include "conclave/session/PreparedTeam.h"
#include "conclave/store/StoredRun.h"
#include "conclave/whatif/WhatIfChanges.h"
#include "conclave/whatif/SpeedupProfile.h"
#include "conclave/whatif/WhatIfReport.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace conclave {

class Engine;
class RunQueries;

// `conclave whatif RUN_ID …` (docs/whatif.md): a stored run re-run on the
// simulated clock with its own team, input and seed, every call replayed
// from the run's own attempts (Engine::prepareReplay) with some nodes'
// latencies changed, and the timing rules deciding again. Loaded once, then
// projected under any number of changes (the speed-up profile runs many).
class WhatIf {
public:
    // Refused for a run still running or interrupted, or whose team cannot be read or prepared.
    static std::optional<WhatIf> load(Engine& engine, RunQueries& reader, const std::filesystem::path& db,
                                      const std::string& runIdOrPrefix, std::string& error);

    // The run against its projection under `changes`; refused for a change to a node or backend the team
    // does not have, and for a concurrency change to a run stored before queue waits were recorded.
    std::optional<WhatIfReport> project(const WhatIfChanges& changes, std::string& error) const;
    // For each agent (a node that called a model in the run), the projected
    // wall when it alone is 10, 25, 50 and 100 % faster, ranked by the saving
    // at 50 %; and for each backend with a max_concurrency, the wall with it doubled.
    std::optional<SpeedupProfile> profile(std::string& error) const;
    // The projected run itself (its spans, results and critical path), as `project` reads it: what the
    // studio's What-if panel draws over the stored timeline. Refused as `project` is.
    std::optional<RunResult> projection(const WhatIfChanges& changes, std::string& error) const;

    const StoredRun& stored() const { return m_stored; }
    const Team& team() const { return m_team; }
    bool waitsRecorded() const { return m_waitsRecorded; }

private:
    WhatIf(Engine& engine, std::filesystem::path db, StoredRun stored, Team team)
        : m_engine(&engine), m_db(std::move(db)), m_stored(std::move(stored)), m_team(std::move(team))
    {
    }
    // `team` prepared to replay the run with `retime`; unset, with `error`, when it cannot be.
    std::shared_ptr<const PreparedTeam> prepare(const Team& team, CallRetiming retime, std::string& error) const;

    Engine* m_engine;
    std::filesystem::path m_db;
    StoredRun m_stored;
    Team m_team;
    // The run's team prepared once: a speed change only swaps its retiming; a concurrency change prepares anew.
    std::shared_ptr<const PreparedTeam> m_prepared;
    bool m_waitsRecorded = true; // every attempt recorded its queue wait (wait_us): concurrency what-ifs possible
};

} // namespace conclave
