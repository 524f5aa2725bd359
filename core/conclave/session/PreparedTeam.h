#pragma once

#include "conclave/engine/AnswerScore.h"
#include "conclave/engine/RunPlan.h"
#include "conclave/local/LocalResponder.h"
#include "conclave/replay/CallRetiming.h"
#include "conclave/replay/RecordingSource.h"

#include <map>
#include <memory>

namespace conclave {

// A team checked and indexed once, ready for any number of runs: what every
// run would otherwise redo (validation, the run plan, the local models'
// resolved profiles). Immutable, so runs on any thread share it.
struct PreparedTeam {
    std::shared_ptr<const RunPlan> plan;
    // Per local-moe backend: the catalog's profiles with the block's inline overrides.
    // (and per recorded backend that simulates what was not recorded).
    std::map<BackendName, std::shared_ptr<const LocalResponder::Profiles>> localProfiles;
    // Per openai backend with a models_file: the profiles of the models the file
    // names (BackendFactory::resolveGateProfiles). They feed the gate, nothing else.
    std::map<BackendName, std::shared_ptr<const LocalResponder::Profiles>> gateProfiles;
    // Per recorded backend: what it replays, loaded once for every run.
    std::map<BackendName, std::shared_ptr<const RecordingSource>> recordings;
    // Single-run mode (Engine::prepareReplay): every backend, whatever its
    // kind, replays this; null otherwise.
    std::shared_ptr<const RecordingSource> replayAll;
    // Per cascade or adaptive coordinator with a `scorer`: its loaded scorer (TeamScorers).
    std::map<NodeId, std::shared_ptr<const AnswerScore>> scorers;
    // With replayAll: how each replayed call's recorded times change (a what-if); unset: as recorded.
    CallRetiming retime;
    // With replayAll: recorded µs per simulated µs. A run on the real clock at a time_scale recorded
    // its calls' times scaled; they are divided by it to replay in the team's own time.
    double replayScale = 1.0;
};

} // namespace conclave
