#pragma once

#include "conclave/io/ModelsFile.h"
#include "conclave/model/Team.h"
#include "conclave/store/StoredRun.h"
#include "conclave/whatif/ReplayTeam.h"
#include "conclave/whatif/SpeedupProfile.h"
#include "conclave/whatif/WhatIfChanges.h"
#include "conclave/whatif/WhatIfReport.h"

#include <filesystem>
#include <optional>
#include <string>

namespace conclave {

class Engine;
class RunQueries;

// `conclave whatif RUN_ID …` (docs/whatif.md): a stored run re-run on the
// simulated clock with its own team, input and seed, every call replayed
// from the run's own attempts (Engine::prepareReplay) with some nodes'
// latencies, models or backends' limits changed, and the timing rules
// deciding again; what the run did not make or cut short, the simulator
// answers. Loaded once, then projected under any number of changes.
class WhatIf {
public:
    // Refused for a run still running or interrupted, or whose team cannot be read or prepared. A call
    // the run did not make (a new route, a swapped model) or cut short is answered by the simulator:
    // each backend's own profiles overlaid with `simulatorModels` (--models-file).
    static std::optional<WhatIf> load(Engine& engine, RunQueries& reader, const std::string& runIdOrPrefix,
                                      std::string& error,
                                      ModelsFile::Profiles simulatorModels = {});

    // The run against its projection under `changes`; refused as ReplayTeam::prepared says. With
    // `projected`, the projected run itself is kept there too (what the studio draws).
    std::optional<WhatIfReport> project(const WhatIfChanges& changes, std::string& error,
                                        RunResult* projected = nullptr) const;
    // For each agent (a node that called a model in the run), the projected
    // wall when it alone is 10, 25, 50 and 100 % faster, ranked by the saving
    // at 50 %; and for each backend with a max_concurrency, the wall with it doubled.
    std::optional<SpeedupProfile> profile(std::string& error) const;
    // The projected run itself (its spans, results and critical path), as `project` reads it: what the
    // studio's What-if panel draws over the stored timeline. Refused as `project` is.
    std::optional<RunResult> projection(const WhatIfChanges& changes, std::string& error) const;

    const StoredRun& stored() const { return m_stored; }
    const Team& team() const { return m_replay.team(); }
    bool waitsRecorded() const { return m_replay.settings().waitsRecorded; }

private:
    WhatIf(Engine& engine, StoredRun stored, ReplayTeam replay)
        : m_engine(&engine), m_stored(std::move(stored)), m_replay(std::move(replay))
    {
    }

    Engine* m_engine;
    StoredRun m_stored;
    ReplayTeam m_replay;
};

} // namespace conclave
