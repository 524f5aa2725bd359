#pragma once

// Hand-made stored runs whose timelines, replays, comparisons and latency
// distributions the suites assert exactly. Every time is in microseconds from
// the run's start.
#include "conclave/store/StoredRun.h"

#include <string>

namespace known_runs {

using namespace conclave;

// in -> a, b, spare, panel(m1) -> join -> out; spare is skipped.
inline const char* const kTeam =
    "{\"conclave\": 1, \"name\": \"review\","
    " \"backends\": {\"local\": {\"kind\": \"local-moe\"}}, \"defaults\": {\"backend\": \"local\"},"
    " \"nodes\": ["
    "  {\"id\": \"in\", \"kind\": \"input\"},"
    "  {\"id\": \"a\", \"kind\": \"expert\", \"label\": \"Expert A\", \"model\": \"local/tiny-1b\"},"
    "  {\"id\": \"b\", \"kind\": \"expert\", \"model\": \"local/tiny-1b\"},"
    "  {\"id\": \"spare\", \"kind\": \"expert\", \"model\": \"local/tiny-1b\"},"
    "  {\"id\": \"panel\", \"kind\": \"coordinator\", \"mode\": \"round_robin\"},"
    "  {\"id\": \"m1\", \"kind\": \"expert\", \"model\": \"local/generalist-7b\"},"
    "  {\"id\": \"join\", \"kind\": \"aggregator\", \"strategy\": \"concat\"},"
    "  {\"id\": \"out\", \"kind\": \"output\"}],"
    " \"edges\": [{\"from\": \"in\", \"to\": \"a\"}, {\"from\": \"in\", \"to\": \"b\"},"
    "  {\"from\": \"in\", \"to\": \"spare\"}, {\"from\": \"in\", \"to\": \"panel\"},"
    "  {\"from\": \"panel\", \"to\": \"m1\", \"role\": \"member\"},"
    "  {\"from\": \"a\", \"to\": \"join\"}, {\"from\": \"b\", \"to\": \"join\"},"
    "  {\"from\": \"spare\", \"to\": \"join\"}, {\"from\": \"panel\", \"to\": \"join\"},"
    "  {\"from\": \"join\", \"to\": \"out\"}]}";

inline Span span(SpanId id, SpanId parent, const char* node, SpanKind kind, int64_t start, int64_t end,
                 Status status = Status::Ok)
{
    Span s;
    s.id = id;
    s.parent = parent;
    s.node = NodeId(node);
    s.kind = kind;
    s.name = node;
    s.startUs = start;
    s.endUs = end;
    s.status = status;
    return s;
}

inline Span attempt(SpanId id, SpanId parent, const char* node, int64_t start, int64_t end, Status status,
                    int number, int64_t ttft, int64_t tokensIn, int64_t tokensOut, double cost)
{
    Span s = span(id, parent, node, SpanKind::Attempt, start, end, status);
    s.name = "attempt " + std::to_string(number);
    s.attempt = number;
    s.model = "local/tiny-1b";
    s.ttftUs = ttft;
    s.tokensIn = tokensIn;
    s.tokensOut = tokensOut;
    s.costUsd = cost;
    return s;
}

inline Span round(SpanId id, SpanId parent, int number, int64_t start, int64_t end)
{
    Span s = span(id, parent, "panel", SpanKind::Round, start, end);
    s.name = "round " + std::to_string(number);
    s.round = number;
    return s;
}

// a retries once (a failed attempt, then an ok one); b is a cancelled straggler;
// panel runs two rounds with its member m1; the critical path is in, panel, join, out.
// `scale` stretches every time (for a slower second run), `bTokens` changes b's tokens.
inline StoredRun review(const char* id = "run-a", int64_t scale = 1, int64_t bTokens = 30)
{
    StoredRun run;
    run.teamJson = kTeam;
    run.summary.id = RunId(id);
    run.summary.teamName = "review";
    run.summary.status = RunStatus::Ok;
    run.summary.input = "What is 2 + 2?";
    run.summary.seed = 7;
    const int64_t k = scale;
    Span m1a = span(9, 8, "m1", SpanKind::Node, 100 * k, 4000 * k);
    m1a.round = 1;
    Span m1b = span(12, 11, "m1", SpanKind::Node, 4100 * k, 9000 * k);
    m1b.round = 2;
    run.spans = {span(1, 0, "in", SpanKind::Node, 0, 100 * k),
                 span(2, 0, "a", SpanKind::Node, 100 * k, 5100 * k),
                 attempt(3, 2, "a", 100 * k, 2100 * k, Status::Failed, 1, -1, 0, 0, 0),
                 attempt(4, 2, "a", 2100 * k, 5100 * k, Status::Ok, 2, 400 * k, 100, 50, 0.01),
                 span(5, 0, "b", SpanKind::Node, 100 * k, 3000 * k, Status::Cancelled),
                 attempt(6, 5, "b", 100 * k, 3000 * k, Status::Cancelled, 1, 300 * k, bTokens, 0, 0.002),
                 span(7, 0, "panel", SpanKind::Node, 100 * k, 9100 * k),
                 round(8, 7, 1, 100 * k, 4100 * k),
                 m1a,
                 attempt(10, 9, "m1", 100 * k, 4000 * k, Status::Ok, 1, 200 * k, 40, 20, 0.004),
                 round(11, 7, 2, 4100 * k, 9100 * k),
                 m1b,
                 attempt(13, 12, "m1", 4100 * k, 9000 * k, Status::Ok, 1, 500 * k, 60, 20, 0.006),
                 span(14, 0, "join", SpanKind::Node, 9100 * k, 9200 * k),
                 span(15, 0, "out", SpanKind::Node, 9200 * k, 9300 * k)};
    run.spans[2].error = "HTTP 500";
    run.summary.wallUs = 9300 * k;
    run.criticalPath = {NodeId("in"), NodeId("panel"), NodeId("join"), NodeId("out")};
    run.summary.criticalPathUs = (100 + 9000 + 100 + 100) * k;
    run.summary.tokensIn = 100 + bTokens + 40 + 60;
    run.summary.tokensOut = 50 + 20 + 20;
    run.summary.costUsd = 0.022;
    StoredNode spare;
    spare.node = NodeId("spare");
    spare.result.status = Status::Skipped;
    spare.finishedUs = 100 * k;
    run.nodes.push_back(spare);
    return run;
}

// A second run of the same team to compare with review(): every time doubled,
// b read 90 tokens instead of 30 and timed out.
inline StoredRun slower()
{
    auto run = review("run-b", 2, 90);
    run.spans[4].status = Status::Timeout;
    return run;
}

} // namespace known_runs
