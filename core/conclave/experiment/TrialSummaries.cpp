#include "conclave/experiment/TrialSummaries.h"

#include "conclave/experiment/ExperimentRunner.h"

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

std::optional<ExperimentSummary> TrialSummaries::evaluate(Engine& engine, const ExperimentSpec& spec,
                                                         std::string& error, std::vector<TrialRecord>* trials)
{
    TrialSummaries summaries;
    ExperimentRunner::Options options;
    options.concurrency = 64;
    options.virtualClockOnly = true;
    ExperimentRunner runner(engine, summaries, spec, options);
    const auto outcome = runner.run();
    if (!outcome.error.empty()) {
        error = outcome.error;
        return std::nullopt;
    }
    auto kept = summaries.kept(runner.id());
    auto summary = ExperimentStats::summarize(spec.designNames(), 0, kept);
    if (trials)
        trials->insert(trials->end(), std::make_move_iterator(kept.begin()), std::make_move_iterator(kept.end()));
    return summary;
}

} // namespace conclave
