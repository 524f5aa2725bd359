#pragma once

#include "conclave/experiment/ExperimentSpec.h"
#include "conclave/model/Team.h"
#include "conclave/store/ExperimentRecords.h"

#include <cstdint>
#include <string>
#include <vector>

namespace conclave {

// Where a design's answers come from, counted in model calls: the input of
// the one provenance rule.
struct CallSources {
    int64_t measured = 0;  // answered live by a real endpoint (an openai backend)
    int64_t replayed = 0;  // answered from recorded replies (a recorded backend; docs/replay.md)
    int64_t simulated = 0; // answered by the local-moe simulator

    CallSources& operator+=(const CallSources& other);
};

// What every output says of a design's figures (the terminal table, --json
// "provenance", the Markdown report, the studio's experiment header), from
// one rule over its calls:
// - simulated: any call was simulated — the figures are the simulator's;
// - else replayed (N % of calls): some calls were answered from recordings,
//   N = round(100 · replayed ÷ (replayed + measured));
// - else measured: every call went to a real endpoint (also a team that calls
//   no model: nothing in it is simulated).
struct Provenance {
    enum class Kind { Measured, Replayed, Simulated };
    Kind kind = Kind::Measured;
    int replayedPercent = 0; // of the calls; set when Replayed

    // "measured", "replayed (40 % of calls)", "simulated".
    std::string text() const;
    bool measured() const { return kind == Kind::Measured; }
    friend bool operator==(const Provenance&, const Provenance&) = default;
};

Provenance provenance(const CallSources& sources);

// A team's call sources as it is configured: each node that calls a model
// counts once, under the kind of the backend it calls (local-moe: simulated,
// openai: measured, recorded: replayed).
CallSources callSources(const Team& team);

// A design's call sources counted from its stored trials, for a team with a
// recorded backend (any other team: callSources(team)): each trial's
// replayed calls are replayed; its other calls are simulated when the team
// can simulate (a local-moe backend, a recorded one with on_missing
// "simulate"), else measured when it has an openai backend, else (calls a
// recorded backend failed as not recorded) counted nowhere. No trial, or
// nothing counted: callSources(team).
CallSources callSources(const Team& team, const std::vector<const TrialRecord*>& trials);

// provenance(callSources(design.team)).
Provenance provenance(const ExperimentDesign& design);

} // namespace conclave
