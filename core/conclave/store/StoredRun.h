#pragma once

#include "conclave/store/RunSource.h"
#include "conclave/engine/RunResult.h"
#include "conclave/engine/RunTotals.h"
#include "conclave/engine/Span.h"
#include "conclave/model/StrongId.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace conclave {

using RunId = StrongId<struct RunIdTag>;

// One row of the runs table, without the large columns (team, output).
struct RunSummary : RunTotals {
    RunId id;
    std::string teamName;
    RunStatus status = RunStatus::Running;
    int64_t startedAtMs = 0; // Unix time
    int64_t endedAtMs = -1;  // -1 while running
    std::string input;
    uint64_t seed = 0;
    int64_t criticalPathUs = 0;
    std::string answer;
    ClockKind clock = ClockKind::Real;
    std::string experimentId; // the experiment the run is a trial of; empty for any other run
    RunSource source = RunSource::Run; // what started it (rows stored before the column: Run)
    std::string teamHash;              // contentHash of the team JSON as run ("" for rows stored before it)
    std::string keyName;               // the API key's name for a served run; empty otherwise
};

// What a node produced, as stored (queuedUs/finishedUs: -1 when unknown).
struct StoredNode {
    NodeId node;
    NodeResult result;
    int64_t queuedUs = -1;
    int64_t finishedUs = -1;
};

// A whole stored run: everything a timeline, a replay or an export needs.
struct StoredRun {
    RunSummary summary;
    std::string teamJson; // the team exactly as it was run
    NodeResult output;    // status, text, answer, confidence, error of the output
    std::vector<NodeId> criticalPath;
    std::vector<Span> spans; // in id order
    std::vector<StoredNode> nodes;
    std::map<SpanId, std::string> texts; // streamed text per span (capped), when loaded
};

} // namespace conclave
