#include "conclave/local/ResolvedProfile.h"

#include <algorithm>
#include <cmath>

namespace conclave {

namespace {

constexpr double kZ95 = 1.6448536269514722;

} // namespace

double ResolvedProfile::at(const Distribution& d, double z)
{
    if (d.median <= 0)
        return 0;
    if (d.p95 <= 0 || d.p95 == d.median)
        return d.median;
    const double sigma = std::log(d.p95 / d.median) / kZ95;
    return d.median * std::exp(sigma * std::clamp(z, -3.0, 3.0));
}

double ResolvedProfile::skill(std::string_view domain) const
{
    const auto it = skills.find(domain);
    return it == skills.end() ? 0.5 : it->second;
}

double ResolvedProfile::agreement() const
{
    if (errorAgreement)
        return *errorAgreement;
    double sum = 0;
    for (const auto& [domain, s] : skills)
        sum += s;
    return 0.57 + 0.3 * (skills.empty() ? 0.5 : sum / double(skills.size()));
}

double ResolvedProfile::worstLatencyMs(std::optional<int64_t> maxTokens) const
{
    // The same arithmetic as respond(), at the draws that make a call longest
    // (either clamp: a profile may put its p95 on either side of its median).
    const auto most = [](const Distribution& d) { return std::max(at(d, 3.0), at(d, -3.0)); };
    const auto least = [](const Distribution& d) { return std::min(at(d, 3.0), at(d, -3.0)); };
    auto tokens = std::max<int64_t>(1, std::llround(most(outputTokens)));
    if (maxTokens)
        tokens = std::min(tokens, *maxTokens);
    const double speed = std::max(1.0, least(tokensPerS));
    return most(ttftMs) + double(tokens) / speed * 1000.0;
}

} // namespace conclave
