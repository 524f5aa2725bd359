#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// What a call is, read from its prompt's words as a real model reads them
// (the ground-truth world never looks at ModelRequest::purpose or inputs, so
// it answers the same in process and over HTTP). The engine's phrasings are
// PromptBuilder's; tst_groundtruthworld checks every kind against them:
//   Judge       the prompt holds "Grade the response below against the
//               reference answer." with "Question:", "Reference answer:"
//               ("(none)": no reference) and "Response:" sections
//   Route       it starts "Routes: a, b, c" and holds "Request:"
//   Plan        it starts "Split the task below into at most N"; "Task:"
//   Synthesize  it starts "Synthesize one final answer"; "Task:", "Candidates:"
//   Combine     it starts "Combine the answers to the subtasks"; "Task:", "Candidates:"
//   MemberTurn  any other prompt that shows other agents' answers: lines
//               "- SOURCE (round R): answer: A (confidence C)" (a meeting's
//               transcript) or lines "Answer: A" (upstream replies, labelled)
//   Answer      anything else
// `subject` is where the task is looked for: the whole prompt for an answer
// or a member turn, else its Task, Request or Question section.
struct WorldPrompt {
    enum class Kind { Answer, MemberTurn, Synthesize, Combine, Plan, Route, Judge };
    struct Shown {
        std::string answer; // normalised (ReplyParser::normalizeAnswer)
        double confidence = 0.5;
    };

    Kind kind = Kind::Answer;
    std::string subject;
    std::vector<Shown> shown;        // candidates, subtasks' answers or peers, in prompt order
    std::vector<std::string> labels; // route labels, in prompt order
    size_t maxSubtasks = 0;
    std::string reference; // judge: normalised, empty when "(none)"
    std::string response;  // judge: the response's answer, normalised

    static WorldPrompt read(std::string_view prompt);
};

} // namespace conclave
