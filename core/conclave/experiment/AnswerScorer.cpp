#include "conclave/experiment/AnswerScorer.h"

#include "conclave/engine/ReplyParser.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace conclave {

namespace {

std::string numericMethod(double tolerance)
{
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, tolerance).ptr;
    return "numeric ±" + std::string(buffer, end);
}

} // namespace

AnswerScorer::Score AnswerScorer::score(const Task& task, std::string_view answer)
{
    Score score;
    score.expected = ReplyParser::normalizeAnswer(task.answer);
    if (score.expected.empty()) {
        score.method = "unscored";
        return score;
    }
    const auto given = ReplyParser::normalizeAnswer(answer);

    if (task.tolerance) {
        const auto reference = TaskSet::parseNumber(score.expected);
        if (!reference) {
            score.method = "unscored";
            return score;
        }
        score.method = numericMethod(*task.tolerance);
        const auto value = TaskSet::parseNumber(given);
        score.correct = value && std::abs(*value - *reference) <= *task.tolerance;
        return score;
    }
    if (!task.choices.empty()) {
        score.method = "choice";
        const bool isChoice = std::any_of(task.choices.begin(), task.choices.end(), [&](const std::string& choice) {
            return ReplyParser::normalizeAnswer(choice) == given;
        });
        score.correct = isChoice && given == score.expected;
        return score;
    }
    score.method = "exact";
    score.correct = given == score.expected;
    return score;
}

} // namespace conclave
