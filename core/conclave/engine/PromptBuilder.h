#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

// The values a prompt template can use.
struct TemplateValues {
    std::string_view input;      // {{input}}: the run's input
    std::string_view inputs;     // {{inputs}}: every upstream output, labelled
    std::string_view transcript; // {{transcript}}: a meeting so far
    std::string_view task;       // {{task}}: a member's task
    int round = 0;               // {{round}}
    // {{from.NODE}}: one upstream node's output, or nullopt when it has none.
    std::function<std::optional<std::string>(std::string_view node)> from;
};

// A candidate answer shown to a synthesizer or to meeting members.
struct Candidate {
    std::string source;
    std::string answer;
    double confidence = 0;
    std::string text;
};

// Builds every prompt the engine sends. The structured requests (route
// choice, decomposition, synthesis) are plain prompts that a real LLM
// follows; the local backend recognises their first line and answers in kind.
class PromptBuilder {
public:
    // The template with its placeholders filled in (PromptTemplate reads them).
    static std::string render(std::string_view tmpl, const TemplateValues& values);

    // Appended to the system prompt of every answering call.
    static std::string_view answerFormat();

    static std::string routeChoiceSystem();
    static std::string routeChoicePrompt(const std::vector<std::string>& labels, std::string_view request);

    static std::string decomposeSystem();
    static std::string decomposePrompt(std::string_view task, size_t maxSubtasks);

    static std::string synthesizeSystem();
    static std::string synthesizePrompt(std::string_view task, const std::vector<Candidate>& candidates);

    static std::string combineSystem();
    static std::string combinePrompt(std::string_view task, const std::vector<Candidate>& parts);

    // The input of a judge team (experiments): the question, the reference
    // answer (may be empty) and the response to grade; its answer is
    // "correct" or "incorrect".
    struct JudgeCase {
        std::string question;
        std::string reference;
        std::string response;
    };
    static std::string judgeInput(const JudgeCase& judged);
    // The case a judge input holds, when the text is one.
    static std::optional<JudgeCase> parseJudgeInput(std::string_view text);

    // One line per candidate: "- SOURCE (round R): answer: A (confidence C)".
    static std::string transcriptLine(std::string_view source, int round, std::string_view answer, double confidence);
    static std::string labelledInputs(const std::vector<Candidate>& inputs);

    // The fixed first words that identify each structured request.
    static constexpr std::string_view kRoutesHeader = "Routes: ";
    static constexpr std::string_view kRequestHeader = "Request:\n";
    static constexpr std::string_view kDecomposeHeader = "Split the task below into at most ";
    static constexpr std::string_view kSynthesizeHeader = "Synthesize one final answer to the task below";
    static constexpr std::string_view kCombineHeader = "Combine the answers to the subtasks below";
    static constexpr std::string_view kTaskHeader = "Task:\n";
    static constexpr std::string_view kCandidatesHeader = "Candidates:\n";
    static constexpr std::string_view kJudgeHeader = "Grade the response below against the reference answer.";
};

} // namespace conclave
