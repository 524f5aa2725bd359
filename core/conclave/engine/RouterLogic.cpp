#include "conclave/engine/RouterLogic.h"

#include "conclave/util/AsciiText.h"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <regex>

namespace conclave {

namespace {

// std::regex recurses per character; bound the text it sees.
constexpr size_t kMaxRegexText = 4096;

} // namespace

bool RouterLogic::keywordMatches(std::string_view keyword, std::string_view text)
{
    if (keyword.size() >= 2 && keyword.front() == '/' && keyword.back() == '/') {
        try {
            const std::regex re(std::string(keyword.substr(1, keyword.size() - 2)),
                                std::regex::ECMAScript | std::regex::icase);
            const std::string bounded(text.substr(0, kMaxRegexText));
            return std::regex_search(bounded, re);
        } catch (const std::exception&) {
            return false;  // validate() reports bad patterns; at run time they simply do not match
        }
    }
    if (keyword.empty())
        return false;
    return toLowerAscii(text).find(toLowerAscii(keyword)) != std::string::npos;
}

std::vector<std::string> RouterLogic::keywordLabels(const RouteTable& routes,
                                                    const std::optional<std::string>& fallback, std::string_view text)
{
    std::vector<std::string> labels;
    for (const auto& [label, keywords] : routes) {
        for (const auto& keyword : keywords) {
            if (keywordMatches(keyword, text)) {
                labels.push_back(label);
                break;
            }
        }
    }
    if (labels.empty() && fallback)
        labels.push_back(*fallback);
    return labels;
}

std::vector<size_t> RouterLogic::ranked(const std::vector<double>& scores)
{
    std::vector<size_t> order(scores.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a] > scores[b]; });
    return order;
}

std::vector<size_t> RouterLogic::topTargets(const std::vector<double>& scores, size_t topK, double minWeight)
{
    const auto order = ranked(scores);
    const double total = std::accumulate(scores.begin(), scores.end(), 0.0);
    std::vector<size_t> chosen;
    for (const size_t i : order) {
        if (chosen.size() >= std::max<size_t>(topK, 1))
            break;
        if (!chosen.empty() && total > 0 && scores[i] / total < minWeight)
            break;
        chosen.push_back(i);
    }
    std::sort(chosen.begin(), chosen.end());
    return chosen;
}

} // namespace conclave
