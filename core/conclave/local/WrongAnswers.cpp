#include "conclave/local/WrongAnswers.h"

#include "conclave/engine/DeterministicRandom.h"
#include "conclave/engine/ReplyParser.h"
#include "conclave/local/ArithmeticQuestion.h"
#include "conclave/local/ItemBank.h"
#include "conclave/local/TaskSet.h"

#include <algorithm>
#include <cmath>

namespace conclave {

namespace {

std::vector<double> slips(double value)
{
    const bool integral = std::fabs(value - std::round(value)) < 1e-9;
    if (integral)
        return {value + 1, value - 1, std::round(value * 1.1), std::trunc(value / 10), value + 10, value - 10};
    return {value * 1.1, value / 10, value + 1, value - 1};
}

} // namespace

WrongAnswers::WrongAnswers(const Task& task, const ItemBank& items)
{
    const auto truth = ReplyParser::normalizeAnswer(task.answer);
    const auto add = [&](std::string answer) {
        if (answer != truth && !answer.empty() &&
            std::find(m_answers.begin(), m_answers.end(), answer) == m_answers.end())
            m_answers.push_back(std::move(answer));
    };
    if (!task.choices.empty()) {
        for (const auto& choice : task.choices)
            add(ReplyParser::normalizeAnswer(choice));
    } else if (const auto value = TaskSet::parseNumber(truth)) {
        const double tolerance = task.tolerance.value_or(0);
        for (const double slip : slips(*value)) {
            if (std::fabs(slip - *value) > tolerance)
                add(ArithmeticQuestion::format(slip));
        }
        if (m_answers.empty())
            add(ArithmeticQuestion::format(*value + 2 * tolerance + 1));
    } else {
        for (const auto& answer : items.answers(task.domain))
            add(answer);
    }
    if (m_answers.empty())
        m_answers.push_back("unknown");
    m_attractive = DeterministicRandom::hash(task.id, 0xA77AC7ull) % m_answers.size();
}

const std::string& WrongAnswers::attractive() const
{
    return m_answers[m_attractive];
}

const std::string& WrongAnswers::other(double u) const
{
    if (m_answers.size() == 1)
        return m_answers.front();
    size_t pick = std::min(m_answers.size() - 2, static_cast<size_t>(u * double(m_answers.size() - 1)));
    if (pick >= m_attractive)
        ++pick;
    return m_answers[pick];
}

double WrongAnswers::pairAgreement(double q1, double q2, size_t wrongOptions)
{
    if (wrongOptions <= 1)
        return 1;
    return q1 * q2 + (1 - q1) * (1 - q2) / double(wrongOptions - 1);
}

} // namespace conclave
