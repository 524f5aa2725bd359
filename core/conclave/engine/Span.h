#pragma once

#include "conclave/model/StrongId.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// The status of a node, a call attempt or a round. A run has its own (RunStatus).
enum class Status { Queued, Running, Ok, Failed, Skipped, Cancelled, Timeout, BudgetExhausted };

std::string_view toString(Status status);
std::optional<Status> statusFromString(std::string_view text);
bool isFinal(Status status);

enum class SpanKind { Node, Attempt, Round };

std::string_view toString(SpanKind kind);
std::optional<SpanKind> spanKindFromString(std::string_view text);

// Span ids are 1-based positions in a run's span list; 0 means "none".
using SpanId = uint64_t;

// One timed piece of a run: a node's execution, one call attempt, or one
// coordinator round. Times are microseconds since the run started, on the
// monotonic clock.
struct Span {
    SpanId id = 0;
    SpanId parent = 0;
    NodeId node;
    SpanKind kind = SpanKind::Node;
    std::string name;
    int64_t startUs = 0;
    int64_t endUs = -1;  // -1 while running
    Status status = Status::Running;
    int attempt = 0;     // call attempts: 1, 2, ...
    int round = 0;       // coordinator rounds: 1, 2, ...; members' spans carry their round
    std::string model;
    int64_t tokensIn = 0;
    int64_t tokensOut = 0;
    double costUsd = 0;
    int64_t ttftUs = -1;      // time to first token, from the span's start; -1 when none
    double plannedMs = 0;     // simulated latency the local backend drew (0 for real endpoints)
    // Call attempts, what replaying them needs: the requests in flight on the
    // same endpoint when this one was admitted (this one included; 0: not
    // known), the time from the attempt's start to that admission (-1: not
    // known), and the draw key the call was made with.
    int64_t inflight = 0;
    int64_t waitUs = -1;
    std::string draw;
    std::string error;
    // What the node decided here, when it decided something a reader needs to
    // see: an adaptive round's "stop: …" or "ask m2: …", a synthesize that
    // skipped its model ("skipped_model: agreement (a, b)").
    std::string note;

    int64_t durationUs() const { return endUs < 0 ? 0 : endUs - startUs; }
    // The endpoint's own time for an attempt: its duration less its wait for admission.
    int64_t serviceUs() const { return std::max<int64_t>(0, durationUs() - std::max<int64_t>(0, waitUs)); }

    friend bool operator==(const Span&, const Span&) = default;
};

// What a node produced.
struct NodeResult {
    Status status = Status::Queued;
    std::string text;
    std::string answer;      // normalized short answer, used for voting
    double confidence = 0;   // 0..1
    int64_t tokensIn = 0;
    int64_t tokensOut = 0;
    double costUsd = 0;
    std::string error;
    // A synthesize aggregator that answered without calling its model:
    // "agreement", and the inputs that agreed (in arrival order).
    std::string skippedModel;
    std::vector<std::string> agreed;

    bool ok() const { return status == Status::Ok; }

    friend bool operator==(const NodeResult&, const NodeResult&) = default;
};

} // namespace conclave
