#include "conclave/experiment/TrialSummaries.h"

#include <tuple>

namespace conclave {

std::optional<ExperimentRecord> TrialSummaries::experiment(const std::string& id, std::string&)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_experiments.find(id);
    return it == m_experiments.end() ? std::nullopt : std::optional(it->second);
}

std::optional<std::vector<TrialRecord>> TrialSummaries::trials(const std::string& id, std::string&)
{
    return kept(id);
}

std::optional<std::string> TrialSummaries::saveExperiment(const ExperimentRecord& record)
{
    std::lock_guard lock(m_mutex);
    m_experiments[record.id] = record;
    return std::nullopt;
}

void TrialSummaries::add(const TrialRecord& trial)
{
    std::lock_guard lock(m_mutex);
    auto& trials = m_trials[trial.experimentId];
    // One per (design, task, seed), as in a store: a trial run again replaces its row.
    const auto [at, added] =
        m_index.try_emplace({trial.experimentId, trial.design, trial.task, trial.seed}, trials.size());
    if (added)
        trials.push_back(trial);
    else
        trials[at->second] = trial;
}

std::vector<TrialRecord> TrialSummaries::kept(const std::string& id) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_trials.find(id);
    return it == m_trials.end() ? std::vector<TrialRecord>() : it->second;
}

} // namespace conclave
