#include "conclave/engine/PromptBuilder.h"

#include "conclave/model/PromptTemplate.h"

#include <cstdio>

namespace conclave {

namespace {

// The first words of each structured request: fixed, so a real model meets
// the same request every time (no simulator reads them).
constexpr std::string_view kRoutesHeader = "Routes: ";
constexpr std::string_view kRequestHeader = "Request:\n";
constexpr std::string_view kDecomposeHeader = "Split the task below into at most ";
constexpr std::string_view kSynthesizeHeader = "Synthesize one final answer to the task below";
constexpr std::string_view kCombineHeader = "Combine the answers to the subtasks below";
constexpr std::string_view kTaskHeader = "Task:\n";
constexpr std::string_view kCandidatesHeader = "Candidates:\n";
constexpr std::string_view kJudgeHeader = "Grade the response below against the reference answer.";
constexpr std::string_view kJudgeQuestion = "\nQuestion:\n";
constexpr std::string_view kJudgeReference = "\n\nReference answer:\n";
constexpr std::string_view kJudgeResponse = "\n\nResponse:\n";

std::string formatConfidence(double c)
{
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "%.2f", c);
    return buffer;
}

} // namespace

std::string PromptBuilder::render(std::string_view tmpl, const TemplateValues& values)
{
    std::string out;
    out.reserve(tmpl.size() + values.input.size());
    PromptTemplate::scan(
        tmpl, [&](std::string_view text) { out.append(text); },
        [&](const PromptTemplate::Placeholder& p) {
            const auto name = p.name;
            if (name == "input")
                out.append(values.input);
            else if (name == "inputs")
                out.append(values.inputs);
            else if (name == "transcript")
                out.append(values.transcript);
            else if (name == "task")
                out.append(values.task);
            else if (name == "round")
                out.append(std::to_string(values.round));
            else if (name.starts_with(PromptTemplate::kFromPrefix) && values.from) {
                if (auto text = values.from(name.substr(PromptTemplate::kFromPrefix.size())))
                    out.append(*text);
            } else {
                // Unknown placeholders stay as written; validate() warns about them.
                out.append(p.whole);
            }
        });
    return out;
}

std::string_view PromptBuilder::answerFormat()
{
    return "End your reply with two lines: \"Answer: <a short answer>\" and \"Confidence: <a number from 0 to "
           "1>\".";
}

std::string PromptBuilder::routeChoiceSystem()
{
    return "You are a router. Read the request and reply with exactly one route label from the list, and nothing "
           "else.";
}

std::string PromptBuilder::routeChoicePrompt(const std::vector<std::string>& labels, std::string_view request)
{
    std::string out(kRoutesHeader);
    for (size_t i = 0; i < labels.size(); ++i)
        out += (i ? ", " : "") + labels[i];
    out += "\n\n";
    out += kRequestHeader;
    out += request;
    return out;
}

std::string PromptBuilder::decomposeSystem()
{
    return "You plan work for a team. Reply with the subtasks only, one per line, numbered 1., 2., 3.";
}

std::string PromptBuilder::decomposePrompt(std::string_view task, size_t maxSubtasks)
{
    std::string out(kDecomposeHeader);
    out += std::to_string(maxSubtasks);
    out += " independent subtasks that together solve it.\n\n";
    out += kTaskHeader;
    out += task;
    return out;
}

std::string PromptBuilder::judgeInput(const JudgeCase& judged)
{
    std::string out(kJudgeHeader);
    out += " Reply with \"Answer: correct\" when the response gives the reference answer (or, without a "
           "reference, answers the question right), else \"Answer: incorrect\".\n";
    out.append(kJudgeQuestion).append(judged.question);
    out.append(kJudgeReference).append(judged.reference.empty() ? "(none)" : judged.reference);
    out.append(kJudgeResponse).append(judged.response);
    return out;
}

std::string PromptBuilder::synthesizeSystem()
{
    return "You combine the work of several experts into one final answer. Weigh their answers by their "
           "reasoning and confidence; do not simply count votes.";
}

std::string PromptBuilder::synthesizePrompt(std::string_view task, const std::vector<Candidate>& candidates)
{
    std::string out(kSynthesizeHeader);
    out += " from the candidate answers of the team.\n\n";
    out += kTaskHeader;
    out += task;
    out += "\n\n";
    out += kCandidatesHeader;
    for (const auto& c : candidates)
        out += transcriptLine(c.source, 0, c.answer, c.confidence);
    return out;
}

std::string PromptBuilder::combineSystem()
{
    return "You lead a team. Your members solved parts of a task; combine their answers into one final answer "
           "that covers every part, in order.";
}

std::string PromptBuilder::combinePrompt(std::string_view task, const std::vector<Candidate>& parts)
{
    std::string out(kCombineHeader);
    out += " into one answer to the task.\n\n";
    out += kTaskHeader;
    out += task;
    out += "\n\n";
    out += kCandidatesHeader;
    for (const auto& part : parts)
        out += transcriptLine(part.source, 0, part.answer, part.confidence);
    return out;
}

std::string PromptBuilder::transcriptLine(std::string_view source, int round, std::string_view answer,
                                          double confidence)
{
    std::string out = "- ";
    out += source;
    if (round > 0)
        out += " (round " + std::to_string(round) + ")";
    out += ": answer: ";
    out += answer;
    out += " (confidence " + formatConfidence(confidence) + ")\n";
    return out;
}

std::string PromptBuilder::labelledInputs(const std::vector<Candidate>& inputs)
{
    std::string out;
    for (const auto& input : inputs) {
        if (!out.empty())
            out += "\n\n";
        out += "[" + input.source + "]\n" + input.text;
    }
    return out;
}

} // namespace conclave
