#pragma once

#include "conclave/engine/AggregatorLogic.h"
#include "conclave/engine/CallPurpose.h"
#include "conclave/engine/Span.h"
#include "conclave/model/DefaultValues.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

class Run;
class CallRunner;

// A coordinator's meeting among its members: round_robin (members speak in
// turn over a shared transcript), debate (all answer each round, then see
// each other), decompose (the coordinator's model splits the task into at
// most max_subtasks parts, further plan lines dropped and counted in the plan
// round's note; members solve the parts in parallel, the coordinator
// combines) and cascade
// (members cheapest first, escalating while confidence < threshold) and
// adaptive (MOSAIC's loop: the `initial` members the gate scores highest
// first, then one more member a round until the answers agree or are sure
// enough; AdaptiveLogic decides, and each round's span notes why).
// Rounds are spans under the coordinator's span; each member call is a node
// span of the member under its round. With a `scorer` (RunOptions::scorers),
// a cascade or adaptive meeting reads its AnswerScore's p where it would read
// a stated confidence, and the round's note says the score. A cascade or adaptive meeting may have
// a coordinator as a member: asking it holds that coordinator's own meeting
// (a child Meeting) under the member's span, and its result is the member's
// answer. Driven by call completions; every method expects the run's lock held.
class Meeting : public std::enable_shared_from_this<Meeting> {
public:
    // How a meeting held as another meeting's member reports its result.
    using Done = std::function<void(NodeResult)>;

    // `span`: the coordinator's node span, which the rounds go under. Without
    // `done` the meeting settles its coordinator; with it (a member meeting)
    // it settles its own members and hands its result to `done`, and the
    // meeting it belongs to settles the coordinator with the rest of its members.
    Meeting(std::shared_ptr<Run> run, size_t coordinator, std::string task, SpanId span, Done done = {});

    void start();
    void cancel(Status status, const std::string& why);

private:
    struct Turn {
        size_t member;
        int round;
        size_t part = 0;  // decompose: which subtask
        std::string answer;
        double confidence = 0;
        NodeResult result;
    };

    void startRound();
    // `shown`: the turns of the meeting the member may be shown (transcript()'s).
    void callMember(size_t member, std::string task, std::vector<Candidate> shown, size_t part = 0);
    // A coordinator member: holds its meeting under `span`, reporting to onMemberDone.
    void holdMemberMeeting(size_t member, SpanId span, std::string task, size_t part);
    void onMemberDone(size_t member, SpanId span, size_t part, struct CallOutcome outcome);
    void roundFinished();
    // After a Stop, a reply ends the meeting as cancelled instead of leading to another turn or round.
    bool endIfCancelled();
    // adaptive: the members in the order they are asked (by gate score, ties in edge order)
    std::vector<size_t> adaptiveOrder() const;
    void adaptiveRoundFinished();
    // With the coordinator's scorer: `turn`'s score given the turns asked
    // before it (`earlier`, in asking order) and how many members were asked
    // before it; unset without a scorer, for a failed turn or a member that
    // is not an expert.
    std::optional<double> scoreOf(const Turn& turn, const std::vector<const Turn*>& earlier, int asked) const;
    void callCoordinator(std::string system, std::string prompt, bool planning, CallInputs inputs);
    void onCoordinatorDone(bool planning, struct CallOutcome outcome);
    bool consensusReached() const;
    void conclude(NodeResult result);
    // The ok turns of the rounds before `uptoRound` (and of it, with
    // includeCurrent), in round and then member order; and their text.
    std::vector<Candidate> transcriptEntries(int uptoRound, bool includeCurrent) const;
    std::string transcript(int uptoRound, bool includeCurrent) const;
    static std::string transcriptText(const std::vector<Candidate>& entries);
    std::string memberId(size_t member) const;
    // decompose: the most subtasks a plan may have (max_subtasks, else one per member)
    size_t maxSubtasks() const;

    std::shared_ptr<Run> m_run;
    size_t m_node;
    std::string m_task;
    SpanId m_span = 0;             // the coordinator's node span
    Done m_onDone;                 // set for a member meeting
    int m_round = 0;
    int m_maxRounds = defaults::kMaxRounds;
    SpanId m_roundSpan = 0;
    size_t m_outstanding = 0;
    size_t m_nextSpeaker = 0;      // round_robin and cascade: the member index to call next
    std::vector<size_t> m_order;   // adaptive: members (plan indices) in the order they are asked
    size_t m_asked = 0;            // adaptive: how many of m_order have been asked
    std::vector<std::string> m_subtasks;
    std::vector<Turn> m_turns;
    std::vector<std::shared_ptr<CallRunner>> m_calls;
    std::vector<std::shared_ptr<Meeting>> m_children; // member meetings
    NodeResult m_usage;            // tokens and cost of every call in the meeting
    int m_callCount = 0;           // model calls in the meeting, its member meetings' included
    bool m_done = false;
};

} // namespace conclave
