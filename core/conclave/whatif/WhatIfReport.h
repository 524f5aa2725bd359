#pragma once

#include "conclave/engine/RunResult.h"
#include "conclave/engine/Span.h"
#include "conclave/model/StrongId.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace conclave {

// One node of a what-if, before (as stored) and after (as projected).
struct WhatIfNode {
    NodeId node;
    Status before = Status::Queued, after = Status::Queued; // Queued: it did not run
    int64_t endBefore = -1, endAfter = -1;                  // µs from the run's start
    std::string answerBefore, answerAfter;
    std::string noteBefore, noteAfter; // what it decided (a quorum, a skip, an early stop)

    bool decisionChanged() const
    {
        return before != after || answerBefore != answerAfter || noteBefore != noteAfter;
    }
};

// What `conclave whatif` prints (docs/whatif.md): the stored run against its
// projection on the simulated clock with the changes applied.
struct WhatIfReport {
    std::string run;
    std::string team;
    ClockKind clock = ClockKind::Virtual;     // the stored run's
    std::vector<std::string> changes;         // "b: x0.5", in node order
    RunStatus statusBefore = RunStatus::Ok, statusAfter = RunStatus::Ok;
    int64_t wallBefore = 0, wallAfter = 0;
    double costBefore = 0, costAfter = 0;
    std::string answerBefore, answerAfter;
    std::vector<NodeId> pathBefore, pathAfter; // critical paths
    std::vector<WhatIfNode> nodes;             // every node that ran in either, in team order
    int64_t replayedCalls = 0;                 // attempts answered from the run's own records
    int64_t otherCalls = 0;                    // attempts the run did not make (they fail: not recorded)
    int64_t cutShortCalls = 0;                 // the run's attempts cancelled or timed out: their full time is unknown

    // "vote: ok → cancelled", "vote: answer \"a\" → \"b\"", "vote: \"quorum … by a, b\" → \"…\"".
    std::vector<std::string> decisions() const;
    nlohmann::ordered_json json() const;
    std::string text() const;
};

} // namespace conclave
