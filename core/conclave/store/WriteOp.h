#pragma once

#include "conclave/store/RunSource.h"
#include "conclave/engine/RunResult.h"
#include "conclave/engine/RunTotals.h"
#include "conclave/engine/Span.h"
#include "conclave/store/ExperimentRecords.h"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace conclave {

// What a RunRecorder asks the writer thread to store. Plain values, copied
// out of the engine's events so the engine never waits on SQLite. They carry
// no run id: each run queues its operations in a WriteFeed of its own.
namespace write_op {

struct RunBegin {
    std::string teamName;
    std::string teamJson;
    std::string input;
    uint64_t seed = 0;
    ClockKind clock = ClockKind::Real;
    int64_t startedAtMs = 0;
    std::string host;
    int64_t pid = 0;
    int64_t pidStart = 0;
    std::string experimentId; // set when the run is a trial of an experiment
    RunSource source = RunSource::Run;
    std::string teamHash; // contentHash of teamJson
    std::string keyName;  // the API key's name (served runs); empty: none
};

// A span as it started, or as it finished with the text streamed in it.
struct SpanRow {
    Span span;
    bool finished = false;
    bool hasText = false;
    bool truncated = false; // the text reached the recorder's cap
    std::string text{};     // an initializer, so a SpanRow{…} may leave it out
};

// When a node was queued; the writer keeps it for the node's row.
struct NodeQueued {
    NodeId node;
    int64_t atUs = 0;
};

struct NodeRow {
    NodeId node;
    NodeResult result;
    int64_t finishedUs = -1;
};

struct RunEnd : RunTotals {
    RunStatus status = RunStatus::Ok;
    NodeResult output;
    int64_t endedAtMs = 0;
    std::vector<NodeId> criticalPath;
    int64_t criticalPathUs = 0;
};

// An experiment as it starts or ends, with the process that writes it.
struct ExperimentRow {
    ExperimentRecord record;
    std::string host;
    int64_t pid = 0;
    int64_t pidStart = 0;
};

struct TrialRow {
    TrialRecord trial;
};

} // namespace write_op

using WriteOp =
    std::variant<write_op::RunBegin, write_op::SpanRow, write_op::NodeQueued, write_op::NodeRow, write_op::RunEnd>;

// Experiments' writes: a queue of their own (not a run's feed), so a run's
// operations stay small; the writer stores them after the runs' in each batch.
using ExperimentWriteOp = std::variant<write_op::ExperimentRow, write_op::TrialRow>;

} // namespace conclave
