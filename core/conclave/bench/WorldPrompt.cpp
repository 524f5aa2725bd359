#include "conclave/bench/WorldPrompt.h"

#include "conclave/engine/ReplyParser.h"

#include <charconv>

namespace conclave {

namespace {

constexpr std::string_view kJudge = "Grade the response below against the reference answer.";
constexpr std::string_view kQuestion = "\nQuestion:\n";
constexpr std::string_view kReference = "\n\nReference answer:\n";
constexpr std::string_view kResponse = "\n\nResponse:\n";
constexpr std::string_view kRoutes = "Routes: ";
constexpr std::string_view kRequest = "\n\nRequest:\n";
constexpr std::string_view kPlan = "Split the task below into at most ";
constexpr std::string_view kSynthesize = "Synthesize one final answer";
constexpr std::string_view kCombine = "Combine the answers to the subtasks";
constexpr std::string_view kTask = "Task:\n";
constexpr std::string_view kCandidates = "\n\nCandidates:\n";
constexpr std::string_view kShownAnswer = ": answer: ";
constexpr std::string_view kShownConfidence = " (confidence ";
constexpr std::string_view kAnswerLine = "Answer:";

// The text between `open` and `close` (to the end when close is empty or absent).
std::string_view between(std::string_view text, std::string_view open, std::string_view close)
{
    const auto from = text.find(open);
    if (from == std::string_view::npos)
        return {};
    const auto rest = text.substr(from + open.size());
    const auto to = close.empty() ? std::string_view::npos : rest.find(close);
    return to == std::string_view::npos ? rest : rest.substr(0, to);
}

template <class Visit> void forEachLine(std::string_view text, Visit visit)
{
    while (!text.empty()) {
        const auto end = text.find('\n');
        visit(text.substr(0, end));
        if (end == std::string_view::npos)
            break;
        text.remove_prefix(end + 1);
    }
}

// "- SOURCE (round R): answer: A (confidence C)": an answer shown to the model.
bool readShownLine(std::string_view line, WorldPrompt::Shown& out)
{
    if (!line.starts_with("- ") || !line.ends_with(")"))
        return false;
    const auto at = line.find(kShownAnswer);
    const auto conf = line.rfind(kShownConfidence);
    if (at == std::string_view::npos || conf == std::string_view::npos || conf < at)
        return false;
    out.answer = ReplyParser::normalizeAnswer(line.substr(at + kShownAnswer.size(), conf - at - kShownAnswer.size()));
    const auto number = line.substr(conf + kShownConfidence.size());
    double c = 0.5;
    std::from_chars(number.data(), number.data() + number.size() - 1, c);
    out.confidence = c;
    return true;
}

std::vector<WorldPrompt::Shown> shownAnswers(std::string_view text)
{
    std::vector<WorldPrompt::Shown> shown;
    forEachLine(text, [&](std::string_view line) {
        WorldPrompt::Shown s;
        if (readShownLine(line, s))
            shown.push_back(std::move(s));
        else if (line.starts_with(kAnswerLine))
            shown.push_back({ReplyParser::normalizeAnswer(line.substr(kAnswerLine.size())), 0.5});
    });
    return shown;
}

} // namespace

WorldPrompt WorldPrompt::read(std::string_view prompt)
{
    WorldPrompt out;
    if (prompt.find(kJudge) != std::string_view::npos) {
        out.kind = Kind::Judge;
        out.subject = std::string(between(prompt, kQuestion, kReference));
        const auto reference = between(prompt, kReference, kResponse);
        out.reference = reference == "(none)" ? std::string() : ReplyParser::normalizeAnswer(reference);
        out.response = ReplyParser::parse(between(prompt, kResponse, {})).answer;
        if (out.response.empty())
            out.response = ReplyParser::normalizeAnswer(between(prompt, kResponse, {}));
        return out;
    }
    if (prompt.starts_with(kRoutes) && prompt.find(kRequest) != std::string_view::npos) {
        out.kind = Kind::Route;
        auto list = prompt.substr(kRoutes.size(), prompt.find('\n') - kRoutes.size());
        while (!list.empty()) {
            const auto comma = list.find(", ");
            out.labels.emplace_back(list.substr(0, comma));
            list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 2);
        }
        out.subject = std::string(between(prompt, kRequest, {}));
        return out;
    }
    if (prompt.starts_with(kPlan)) {
        out.kind = Kind::Plan;
        const auto digits = prompt.substr(kPlan.size());
        std::from_chars(digits.data(), digits.data() + digits.size(), out.maxSubtasks);
        out.subject = std::string(between(prompt, kTask, {}));
        return out;
    }
    if (prompt.starts_with(kSynthesize) || prompt.starts_with(kCombine)) {
        out.kind = prompt.starts_with(kSynthesize) ? Kind::Synthesize : Kind::Combine;
        out.subject = std::string(between(prompt, kTask, kCandidates));
        out.shown = shownAnswers(between(prompt, kCandidates, {}));
        return out;
    }
    out.subject = std::string(prompt);
    out.shown = shownAnswers(prompt);
    out.kind = out.shown.empty() ? Kind::Answer : Kind::MemberTurn;
    return out;
}

} // namespace conclave
