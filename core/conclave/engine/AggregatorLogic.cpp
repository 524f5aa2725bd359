#include "conclave/engine/AggregatorLogic.h"

#include <algorithm>
#include <map>

namespace conclave {

namespace {

std::vector<const Vote*> okVotes(const std::vector<Vote>& votes)
{
    std::vector<const Vote*> out;
    for (const auto& v : votes) {
        if (v.result.ok())
            out.push_back(&v);
    }
    return out;
}

NodeResult fromVote(const Vote& v, double confidence)
{
    NodeResult r;
    r.status = Status::Ok;
    r.text = v.result.text;
    r.answer = v.result.answer;
    r.confidence = confidence;
    return r;
}

} // namespace

std::vector<AggregatorLogic::Tally> AggregatorLogic::tally(const std::vector<Vote>& votes, bool weighted)
{
    std::map<std::string, Tally> byAnswer;
    for (size_t i = 0; i < votes.size(); ++i) {
        const auto& v = votes[i];
        if (!v.result.ok())
            continue;
        auto [it, inserted] = byAnswer.try_emplace(v.result.answer);
        auto& t = it->second;
        if (inserted) {
            t.answer = v.result.answer;
            t.firstIndex = i;
        }
        t.count += 1;
        t.score += weighted ? v.weight : 1.0;
        t.confidence += v.result.confidence;
    }
    std::vector<Tally> out;
    for (auto& [answer, t] : byAnswer)
        out.push_back(std::move(t));
    std::sort(out.begin(), out.end(), [](const Tally& a, const Tally& b) {
        if (a.score != b.score)
            return a.score > b.score;
        if (a.confidence != b.confidence)
            return a.confidence > b.confidence;
        return a.firstIndex < b.firstIndex;
    });
    return out;
}

std::optional<AggregatorLogic::Agreement>
AggregatorLogic::agreement(double fraction, std::optional<double> minConfidence, const std::vector<Vote>& votes)
{
    const auto ok = okVotes(votes);
    if (ok.size() < 2)
        return std::nullopt;
    const auto t = tally(votes, false);
    const auto& winner = t.front();
    if (winner.count < 2) // agreement takes two voices, whatever the fraction
        return std::nullopt;
    if (double(winner.count) / double(ok.size()) + 1e-9 < fraction)
        return std::nullopt;
    const double mean = winner.confidence / double(winner.count);
    if (minConfidence && mean < *minConfidence)
        return std::nullopt;
    Agreement a;
    a.answer = winner.answer;
    a.okVotes = ok.size();
    a.confidence = mean;
    for (size_t i = 0; i < votes.size(); ++i) {
        if (votes[i].result.ok() && votes[i].result.answer == winner.answer)
            a.votes.push_back(i);
    }
    return a;
}

bool AggregatorLogic::canStopEarly(const Rules& rules, const std::vector<Vote>& votes)
{
    const auto ok = okVotes(votes);
    if (ok.empty())
        return false;
    if (rules.strategy == AggregatorStrategy::First)
        return true;
    if (rules.minConfidence) {
        for (const auto* v : ok) {
            if (v->result.confidence >= *rules.minConfidence)
                return true;
        }
    }
    if (rules.quorum) {
        const auto t = tally(votes, false);
        if (!t.empty() && t.front().count >= *rules.quorum)
            return true;
    }
    return false;
}

NodeResult AggregatorLogic::conclude(const Rules& rules, const std::vector<Vote>& votes)
{
    const auto ok = okVotes(votes);
    NodeResult r;
    if (ok.empty()) {
        r.status = Status::Failed;
        r.error = votes.empty() ? "no input arrived" : "every input failed";
        return r;
    }
    // An input confident enough settles it, whatever the strategy.
    if (rules.minConfidence) {
        for (const auto* v : ok) {
            if (v->result.confidence >= *rules.minConfidence)
                return fromVote(*v, v->result.confidence);
        }
    }
    switch (rules.strategy) {
    case AggregatorStrategy::First:
        return fromVote(*ok.front(), ok.front()->result.confidence);
    case AggregatorStrategy::BestConfidence: {
        const auto* best = *std::max_element(ok.begin(), ok.end(), [](const Vote* a, const Vote* b) {
            return a->result.confidence < b->result.confidence;
        });
        return fromVote(*best, best->result.confidence);
    }
    case AggregatorStrategy::Concat: {
        const auto t = tally(votes, false);
        r.status = Status::Ok;
        double confidence = 0;
        for (const auto* v : ok) {
            if (!r.text.empty())
                r.text += "\n\n";
            r.text += "[" + v->source + "]\n" + v->result.text;
            confidence += v->result.confidence;
        }
        r.answer = t.front().answer;
        r.confidence = confidence / double(ok.size());
        return r;
    }
    case AggregatorStrategy::Majority:
    case AggregatorStrategy::Weighted:
    case AggregatorStrategy::Synthesize: {
        const bool weighted = rules.strategy == AggregatorStrategy::Weighted;
        const auto t = tally(votes, weighted);
        double total = 0;
        for (const auto& entry : t)
            total += entry.score;
        const auto& winner = t.front();
        const Vote& first = votes[winner.firstIndex];
        // Confidence of a vote: the winner's share of the votes, tempered by how sure its voters were.
        return fromVote(first, total > 0 ? winner.score / total * (winner.confidence / winner.count) : 0);
    }
    }
    return r;
}

} // namespace conclave
