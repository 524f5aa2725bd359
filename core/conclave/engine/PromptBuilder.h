#pragma once

#include "conclave/engine/CallPurpose.h"

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

// Builds every prompt the engine sends. The structured requests (route
// choice, decomposition, synthesis, combination) are plain prompts that a
// real LLM follows; the local backend never reads them: the engine tells it
// each call's purpose and inputs (ModelRequest::purpose, ::inputs).
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
    static std::string judgeInput(const JudgeCase& judged);

    // One line per candidate: "- SOURCE (round R): answer: A (confidence C)".
    static std::string transcriptLine(std::string_view source, int round, std::string_view answer, double confidence);
    static std::string labelledInputs(const std::vector<Candidate>& inputs);
};

} // namespace conclave
