#include "conclave/experiment/TaskSplit.h"

#include "conclave/io/ContentHash.h"
#include "conclave/util/NumberText.h"

#include <cmath>
#include <numeric>

namespace conclave {

std::optional<TaskSplit> TaskSplit::make(std::vector<double> fractions, uint64_t seed, std::string& error)
{
    if (fractions.size() < 2) {
        error = "a split needs at least two parts";
        return std::nullopt;
    }
    for (size_t i = 0; i < fractions.size(); ++i) {
        if (!std::isfinite(fractions[i]) || fractions[i] <= 0 || fractions[i] > 1) {
            error = "part " + std::to_string(i + 1) + " is " + formatNumber(fractions[i]) +
                    "; each part must be a fraction above 0 and at most 1";
            return std::nullopt;
        }
    }
    const double sum = std::accumulate(fractions.begin(), fractions.end(), 0.0);
    if (std::abs(sum - 1.0) > 1e-9) {
        error = "the parts sum to " + formatNumber(sum) + "; they must sum to 1";
        return std::nullopt;
    }
    return TaskSplit(std::move(fractions), seed);
}

std::optional<TaskSplit> TaskSplit::holdout(double share, uint64_t seed, std::string& error)
{
    if (!std::isfinite(share) || share <= 0 || share >= 1) {
        error = "the held-out share is " + formatNumber(share) + "; it must be above 0 and below 1";
        return std::nullopt;
    }
    return make({1.0 - share, share}, seed, error);
}

std::optional<TaskSplit> TaskSplit::parse(std::string_view text, uint64_t seed, std::string& error)
{
    std::vector<double> fractions;
    size_t start = 0;
    while (true) {
        const size_t slash = text.find('/', start);
        const auto piece = text.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
        const auto value = parseNumber(piece);
        if (!value) {
            error = "\"" + std::string(piece) + "\" is not a number; give fractions separated by '/', e.g. 0.5/0.25/0.25";
            return std::nullopt;
        }
        fractions.push_back(*value);
        if (slash == std::string_view::npos)
            break;
        start = slash + 1;
    }
    return make(std::move(fractions), seed, error);
}

double TaskSplit::position(std::string_view tasksetHash, std::string_view taskId) const
{
    std::string key = std::to_string(m_seed);
    key += '\n';
    key += tasksetHash;
    key += '\n';
    key += taskId;
    const uint64_t bits = std::stoull(contentHash(key), nullptr, 16);
    return double(bits >> 11) * 0x1.0p-53; // the top 53 bits: exactly representable, in [0, 1)
}

size_t TaskSplit::partOf(std::string_view tasksetHash, std::string_view taskId) const
{
    const double u = position(tasksetHash, taskId);
    double cumulative = 0;
    for (size_t i = 0; i + 1 < m_fractions.size(); ++i) {
        cumulative += m_fractions[i];
        if (u < cumulative)
            return i;
    }
    return m_fractions.size() - 1;
}

} // namespace conclave
