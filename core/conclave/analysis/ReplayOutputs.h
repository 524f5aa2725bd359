#pragma once

#include "conclave/analysis/ReplayStates.h"
#include "conclave/store/StoredRun.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace conclave {

// What one node of a stored run had produced by an instant.
struct NodeOutput {
    std::optional<Status> status;     // none: the run says nothing of the node (the output dock's "–")
    std::string text;                 // its spans' text that had ended by then, or its final text
    std::optional<NodeResult> result; // answer, confidence, tokens, cost, error: once it had finished
    int64_t runningSinceUs = -1;      // not finished, a node span in progress: when that span started

    bool finished() const { return result.has_value(); }
    bool inProgress() const { return runningSinceUs >= 0; }

    friend bool operator==(const NodeOutput&, const NodeOutput&) = default;
};

// What each node of a stored run had produced by any instant t, for a replay's
// output dock and inspector. Promises:
// - status is ReplayStates::stateAt, never derived again here;
// - text is that of the node's spans (of any kind) that had ended by t
//   (end <= t), in span order, joined as storedText joins them. The store keeps
//   no time per streamed chunk, only each span's whole text, so the text of a
//   span still in progress is never revealed: it appears when the span ends;
// - the result only once the node had finished: its StoredNode's finishedUs,
//   else (-1) the end of its last node span, else the run's end. From then on
//   `at` is the node's final output;
// - at t >= endUs() every node's output is finalOutput(): exactly what the dock
//   shows for the stored run (its StoredNode's status and result, else its last
//   node span's status; its result's text, else storedText's join).
// Built once (it copies what it needs: the run may go); each `at` walks one
// node's spans.
class ReplayOutputs {
public:
    ReplayOutputs() = default;
    explicit ReplayOutputs(const StoredRun& run);

    NodeOutput at(const NodeId& node, int64_t atUs) const;
    NodeOutput finalOutput(const NodeId& node) const { return at(node, m_endUs); }
    // The run's end: its wall time, or the last instant a span names.
    int64_t endUs() const { return m_endUs; }

    // A node's final text: its result's text once it settled, else (it never
    // settled: cut short, interrupted) the text its spans streamed, in span order.
    static std::string storedText(const StoredRun& run, const NodeId& node);

private:
    struct Piece {
        int64_t endUs = -1; // -1: never ended
        std::string text;
    };
    struct NodeSpan {
        int64_t startUs = 0;
        int64_t endUs = -1; // -1: never ended
    };
    struct Track {
        std::optional<NodeResult> result; // its StoredNode's (the last one the run lists)
        int64_t finishedUs = -1;          // its StoredNode's finish, -1 when unknown
        std::optional<Status> lastSpanStatus;
        std::vector<NodeSpan> nodeSpans; // in span order
        std::vector<Piece> pieces;       // its spans' non-empty texts, in span order
    };

    static void add(Track& track, const Span& span, const StoredRun& run);
    static void add(Track& track, const StoredNode& node);
    static void append(std::string& text, std::string_view piece);
    static std::string finalText(const Track& track);
    static NodeOutput finalOf(const Track& track);
    int64_t finishOf(const Track& track) const;

    ReplayStates m_states;
    std::unordered_map<NodeId, Track> m_tracks;
    int64_t m_endUs = 0;
};

} // namespace conclave
