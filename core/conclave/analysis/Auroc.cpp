#include "conclave/analysis/Auroc.h"

#include <algorithm>
#include <utility>

namespace conclave {

std::optional<double> Auroc::of(std::vector<double> positives, std::vector<double> negatives)
{
    if (positives.empty() || negatives.empty())
        return std::nullopt;
    // (score, positive), sorted by score; each run of equal scores shares its mid-rank.
    std::vector<std::pair<double, bool>> all;
    all.reserve(positives.size() + negatives.size());
    for (const double s : positives)
        all.emplace_back(s, true);
    for (const double s : negatives)
        all.emplace_back(s, false);
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    double positiveRanks = 0; // sum of the positives' ranks, 1-based
    for (size_t i = 0; i < all.size();) {
        size_t j = i;
        size_t positivesHere = 0;
        while (j < all.size() && all[j].first == all[i].first)
            positivesHere += all[j++].second ? 1 : 0;
        const double midRank = (double(i + 1) + double(j)) / 2;
        positiveRanks += midRank * double(positivesHere);
        i = j;
    }
    const double nPos = double(positives.size());
    const double u = positiveRanks - nPos * (nPos + 1) / 2;
    return u / (nPos * double(negatives.size()));
}

} // namespace conclave
