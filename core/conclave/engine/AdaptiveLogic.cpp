#include "conclave/engine/AdaptiveLogic.h"

#include "conclave/util/MoneyText.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace conclave {

namespace {

// Shares and confidences decided within rounding are decided as written.
constexpr double kEpsilon = 1e-9;

std::string fixed2(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", value);
    return text;
}

// "1 of 2 agree, confidence 0.55 < 0.80": why the meeting is not settled.
std::string unsettled(const AdaptiveLogic::Rules& rules, const AdaptiveLogic::Standing& standing)
{
    if (standing.score)
        return std::to_string(standing.agree) + " of " + std::to_string(standing.asked) + " agree, score " +
               fixed2(*standing.score) + " < " + fixed2(rules.threshold);
    return std::to_string(standing.agree) + " of " + std::to_string(standing.asked) + " agree, confidence " +
           fixed2(standing.result.ok() ? standing.result.confidence : 0.0) + " < " + fixed2(rules.threshold);
}

} // namespace

AdaptiveLogic::Standing AdaptiveLogic::stand(const std::vector<Vote>& votes)
{
    Standing s;
    s.asked = int(votes.size());
    s.result = AggregatorLogic::conclude({AggregatorStrategy::Majority, {}, {}}, votes);
    const auto tally = AggregatorLogic::tally(votes, false);
    s.agree = tally.empty() ? 0 : tally.front().count;
    return s;
}

AdaptiveLogic::Decision AdaptiveLogic::decide(const Rules& rules, const Standing& standing, int round,
                                              const NextCall& next)
{
    const auto stop = [](std::string why) { return Decision{true, "stop: " + why}; };
    if (standing.agree >= 2 && standing.asked > 0 &&
        double(standing.agree) / double(standing.asked) + kEpsilon >= rules.consensus)
        return stop(std::to_string(standing.agree) + " of " + std::to_string(standing.asked) + " agree (consensus " +
                    fixed2(rules.consensus) + ")");
    if (standing.score && *standing.score + kEpsilon >= rules.threshold)
        return stop("score " + fixed2(*standing.score) + " \u2265 threshold " + fixed2(rules.threshold));
    if (!standing.score && standing.result.ok() && standing.result.confidence + kEpsilon >= rules.threshold)
        return stop("confidence " + fixed2(standing.result.confidence) + " \u2265 threshold " +
                    fixed2(rules.threshold));
    if (next.member.empty())
        return stop("no member left (" + unsettled(rules, standing) + ")");
    if (round >= rules.maxRounds)
        return stop("max_rounds " + std::to_string(rules.maxRounds) + " reached (" + unsettled(rules, standing) + ")");
    if (!next.exhausted.empty())
        return stop(next.exhausted);
    if (next.maxCostUsd && next.spentUsd + next.expectedUsd > *next.maxCostUsd * (1 + kEpsilon))
        return stop("the next call's expected " + moneyText(next.expectedUsd) + " would pass the budget (" +
                    moneyText(*next.maxCostUsd) + ", " + moneyText(next.spentUsd) + " spent)");
    if (next.maxTokens && next.spentTokens + next.expectedTokens > *next.maxTokens)
        return stop("the next call's expected " + std::to_string(next.expectedTokens) +
                    " tokens would pass the budget (" + std::to_string(*next.maxTokens) + " tokens, " +
                    std::to_string(next.spentTokens) + " spent)");
    return Decision{false, "ask " + next.member + ": " + unsettled(rules, standing)};
}

} // namespace conclave
