#pragma once

#include "conclave/experiment/SweepSpec.h"
#include "conclave/search/SearchSpace.h"

#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// alive: still searched (or parked at a rung it was not promoted from);
// dropped: another candidate was shown better (its evidence in `why`);
// front: on the front the search chose on validation.
enum class CandidateStatus { Alive, Dropped, Front };

// "alive", "dropped", "front".
std::string_view toString(CandidateStatus status);
bool candidateStatusFrom(std::string_view text, CandidateStatus& status);

struct SearchCandidate {
    int id = 0; // in the order candidates were proposed, from 1
    SearchSpace::Point point;
    std::string key;  // SearchSpace::key(point)
    std::string name; // "triage [gate.threshold=0.5]"
    std::vector<SweepParameter> parameters;
    std::string teamJson; // canonical, as run
    int generation = 0;
    int rung = -1; // the highest rung it was evaluated at; -1: none yet
    CandidateStatus status = CandidateStatus::Alive;
    int droppedBy = 0; // the candidate shown better, when dropped
    std::string why;   // the evidence of a drop, why it was never run (it does not validate), or its twin
    // A candidate whose every trial so far came out exactly as an earlier one's (a field that changed
    // nothing, as a threshold no answer reached): not run further, and listed with that one.
    int twinOf = 0;

    bool asDrawn() const; // the base itself, every parameter at its own value
};

} // namespace conclave
