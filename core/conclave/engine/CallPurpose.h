#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// What a model call is for, as the engine knows it when it makes the call.
// A backend that calls real models ignores it (they read the prompt); the
// local simulator answers by it and by CallInputs, never by the prompt's
// wording, so rewording a prompt changes only its length.
enum class CallPurpose {
    Answer,     // an expert answers (its prompt is the team's template)
    Synthesize, // a synthesize aggregator weighs its inputs' answers
    Plan,       // a decompose coordinator splits its task into subtasks
    Combine,    // a decompose coordinator combines its subtasks' answers
    Judge,      // a judge team grades a response (experiments' --judge)
    Route,      // an llm router chooses a route label
    MemberTurn, // a coordinator's member answers, shown the meeting so far
};

// "answer", "synthesize", "plan", "combine", "judge", "route", "member_turn".
constexpr std::string_view callPurposeName(CallPurpose purpose)
{
    switch (purpose) {
    case CallPurpose::Answer:
        return "answer";
    case CallPurpose::Synthesize:
        return "synthesize";
    case CallPurpose::Plan:
        return "plan";
    case CallPurpose::Combine:
        return "combine";
    case CallPurpose::Judge:
        return "judge";
    case CallPurpose::Route:
        return "route";
    case CallPurpose::MemberTurn:
        return "member_turn";
    }
    return "answer";
}

// An answer shown to a synthesizer, to a combining coordinator or to a
// meeting's members: who gave it, in which round (0: outside a meeting), how
// sure it was, and its whole reply (for prompts; left empty in CallInputs).
struct Candidate {
    std::string source;
    std::string answer;
    double confidence = 0;
    std::string text;
    int round = 0;
};

// What a judge grades: the question, the reference answer (may be empty) and
// the response; its answer is "correct" or "incorrect".
struct JudgeCase {
    std::string question;
    std::string reference;
    std::string response;
};

// A call's inputs as data, the same ones its prompt is built from.
struct CallInputs {
    // What the call works on: the run's input (answer, synthesize, judge),
    // the meeting's task or a member's subtask (plan, combine, member turn),
    // the text a router routes (route).
    std::string task;
    // synthesize: the inputs' answers, in edge order; combine: the subtasks'
    // answers, in subtask order.
    std::vector<Candidate> candidates;
    // member turn: the turns of the meeting the member is shown (empty when
    // its prompt shows no transcript), in round and then member order.
    std::vector<Candidate> transcript;
    // route: the labels to choose from, in edge order.
    std::vector<std::string> routes;
    // plan: the most subtasks the plan may have.
    size_t maxSubtasks = 0;
    // The case a judge run grades, on every call of that run.
    std::optional<JudgeCase> judge;
};

} // namespace conclave
