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
    // An aggregator that decides on time (a quorum or a deadline): the inputs that had answered when
    // it ended, and those cancelled, in team order.
    bool decidesOnTime = false;
    bool quorum = false;
    std::vector<NodeId> decidersBefore, decidersAfter, cancelledBefore, cancelledAfter;

    bool decisionChanged() const
    {
        return before != after || answerBefore != answerAfter || noteBefore != noteAfter ||
               (decidesOnTime && decidersBefore != decidersAfter);
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
    int64_t replayedCalls = 0;  // attempts answered from the run's own records
    int64_t simulatedCalls = 0; // attempts the simulator answered: the run did not make them, or cut them short
    int64_t cutShortAgain = 0;  // attempts cancelled or timed out in the projection (before any answer)
    int64_t cutShortCalls = 0;  // the run's own attempts cancelled or timed out when recorded

    // The share of the projection's answered calls replayed from the run (1 when none was simulated).
    double replayedShare() const
    {
        const auto answered = replayedCalls + simulatedCalls;
        return answered == 0 ? 1.0 : double(replayedCalls) / double(answered);
    }

    // "e: ok → cancelled", "vote: answer \"a\" → \"b\"", "vote: quorum now reached at 1.400 s by a, b; c
    // cancelled (was 2.100 s by a, c)", "vote: \"note\" → \"note\"".
    std::vector<std::string> decisions() const;
    nlohmann::ordered_json json() const;
    std::string text() const;
};

} // namespace conclave
