#pragma once

#include "conclave/io/ModelsFile.h"
#include "conclave/replay/RecordingSource.h"
#include "conclave/whatif/ReplayTeam.h"
#include "conclave/whatif/SpeedupProfile.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace conclave {

class Engine;
class RunQueries;

// `conclave whatif --experiment ID --design NAME --profile` (docs/whatif.md):
// a design's speed-up profile over its stored trials. The design's team is
// prepared once (ReplayTeam); each trial replays its own run's calls on the
// simulated clock with its input and seed, under every change of the
// profile, and the profile gives the p50 and p95 of the trials' walls.
class DesignWhatIf {
public:
    // Refused for an unknown experiment or design, and for a design none of whose trials' runs were
    // stored (eval --store summaries). Trials stored without their run are left out.
    static std::optional<DesignWhatIf> load(Engine& engine, RunQueries& reader, const std::string& experimentIdOrPrefix,
                                            const std::string& design, std::string& error,
                                            ModelsFile::Profiles simulatorModels = {});

    std::optional<SpeedupProfile> profile(std::string& error) const;
    size_t trials() const { return m_trials.size(); }

private:
    struct Trial {
        std::shared_ptr<const RecordingSource> calls; // its run's own (RunRecordings)
        std::string input;
        uint64_t seed = 0;
    };

    DesignWhatIf(Engine& engine, ReplayTeam replay) : m_engine(&engine), m_replay(std::move(replay)) {}

    Engine* m_engine;
    ReplayTeam m_replay;
    std::string m_experiment, m_design;
    std::vector<Trial> m_trials;
    std::set<NodeId> m_called; // the nodes that called a model in any trial
};

} // namespace conclave
