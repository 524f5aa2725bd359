// Meeting's scoring of a member's answer by its coordinator's learned scorer
// (AnswerScore): apart from Meeting.cpp, which holds the meeting's turns.
#include "conclave/engine/AnswerScore.h"
#include "conclave/engine/Meeting.h"
#include "conclave/engine/Run.h"

#include <algorithm>

namespace conclave {

std::optional<double> Meeting::scoreOf(const Turn& turn, const std::vector<const Turn*>& earlier, int asked) const
{
    const auto& coordinator = *m_run->plan().at(m_node).node;
    const auto* scorer = m_run->scorer(coordinator.id);
    const auto& member = m_run->plan().at(turn.member);
    if (!scorer || !turn.result.ok() || !member.call)
        return std::nullopt;
    ScoredAnswer answer;
    answer.input = m_task;
    answer.model = member.call->model;
    answer.text = turn.result.text;
    answer.answer = turn.answer;
    answer.confidence = turn.confidence;
    for (const Turn* t : earlier) {
        if (t->result.ok())
            answer.earlier.push_back(t->answer);
    }
    answer.asked = asked;
    return std::clamp(scorer->score(answer), 0.0, 1.0);
}

} // namespace conclave
