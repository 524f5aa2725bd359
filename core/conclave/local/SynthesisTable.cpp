#include "conclave/local/SynthesisTable.h"

#include "conclave/engine/ReplyParser.h"
#include "conclave/local/WrongAnswers.h"

#include <algorithm>

namespace conclave {

SynthesisTable::SynthesisTable(SynthesisProfile profile) : m_profile(std::move(profile)) {}

double SynthesisTable::pRight(size_t rightCandidates) const
{
    const auto& table = m_profile.pRightGivenRight;
    if (table.empty())
        return 0;
    return table[std::min(rightCandidates, table.size() - 1)];
}

std::optional<std::string> SynthesisTable::mostSupportedWrong(const std::vector<Candidate>& candidates,
                                                              const std::string& truth)
{
    struct Support {
        std::string answer;
        int count = 0;
        double confidence = 0;
    };
    std::vector<Support> supports; // in the order first given
    for (const auto& c : candidates) {
        auto answer = ReplyParser::normalizeAnswer(c.answer);
        if (answer == truth || answer.empty())
            continue;
        auto it = std::find_if(supports.begin(), supports.end(), [&](const Support& s) { return s.answer == answer; });
        if (it == supports.end())
            it = supports.insert(supports.end(), Support{std::move(answer)});
        ++it->count;
        it->confidence += c.confidence;
    }
    if (supports.empty())
        return std::nullopt;
    // max_element keeps the first of equals: the one given first.
    const auto best = std::max_element(supports.begin(), supports.end(), [](const Support& a, const Support& b) {
        return a.count != b.count ? a.count < b.count : a.confidence < b.confidence;
    });
    return best->answer;
}

std::string SynthesisTable::answer(const std::vector<Candidate>& candidates, const std::string& truth,
                                   const WrongAnswers& wrong, double agreement, const Draws& draws,
                                   bool& correct) const
{
    std::vector<std::string> given;
    size_t rightCount = 0;
    for (const auto& c : candidates) {
        given.push_back(ReplyParser::normalizeAnswer(c.answer));
        rightCount += given.back() == truth ? 1 : 0;
    }
    correct = draws.right < pRight(rightCount);
    if (correct)
        return truth;
    const auto fromCandidates = mostSupportedWrong(candidates, truth);
    if (fromCandidates && draws.self >= m_profile.selfAnswer)
        return *fromCandidates;
    // Its own: drawn as an expert's, then the next wrong answer no candidate gave.
    const std::string& drawn = draws.wrong < agreement ? wrong.attractive() : wrong.other(draws.other);
    const auto& all = wrong.all();
    const auto start = size_t(std::find(all.begin(), all.end(), drawn) - all.begin());
    for (size_t i = 0; i < all.size(); ++i) {
        const auto& candidate = all[(start + i) % all.size()];
        if (std::find(given.begin(), given.end(), candidate) == given.end())
            return candidate;
    }
    return fromCandidates ? *fromCandidates : drawn;
}

} // namespace conclave
