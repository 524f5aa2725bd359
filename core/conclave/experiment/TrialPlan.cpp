#include "conclave/experiment/TrialPlan.h"

#include "conclave/experiment/ExperimentSpec.h"

#include <charconv>

namespace conclave {

namespace {

std::optional<int> parseCount(std::string_view text)
{
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty())
        return std::nullopt;
    return value;
}

} // namespace

std::optional<Shard> Shard::parse(std::string_view text, std::string& error)
{
    const auto slash = text.find('/');
    const auto index = slash == std::string_view::npos ? std::nullopt : parseCount(text.substr(0, slash));
    const auto count = slash == std::string_view::npos ? std::nullopt : parseCount(text.substr(slash + 1));
    if (!index || !count) {
        error = "expected I/N (this shard's index from 0 and the number of shards), got \"" + std::string(text) + "\"";
        return std::nullopt;
    }
    if (*count < 1 || *index < 0 || *index >= *count) {
        error = "the shard index must be from 0 to N-1, got \"" + std::string(text) + "\"";
        return std::nullopt;
    }
    return Shard{*index, *count};
}

std::vector<PlannedTrial> planTrials(const ExperimentSpec& spec, std::optional<Shard> shard)
{
    std::vector<PlannedTrial> trials;
    const size_t tasks = spec.tasks ? spec.tasks->tasks().size() : 0;
    size_t index = 0;
    for (size_t task = 0; task < tasks; ++task) {
        for (const uint64_t seed : spec.seeds) {
            for (size_t design = 0; design < spec.designs.size(); ++design, ++index) {
                if (shard && int(index % size_t(shard->count)) != shard->index)
                    continue;
                trials.push_back({index, int(design), task, seed});
            }
        }
    }
    return trials;
}

} // namespace conclave
