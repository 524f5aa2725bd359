#pragma once

#include "conclave/analysis/ExperimentStats.h"
#include "conclave/experiment/TrialSink.h"

#include <map>
#include <optional>
#include <mutex>
#include <tuple>

namespace conclave {

class Engine;
struct ExperimentSpec;

// Trials kept in memory: each one's row with its figures and its agents'
// (TrialRecord), no run stored. For what evaluates many trials and reads
// their figures right away; a second run of the same spec into the same
// sink resumes it, as with a store.
class TrialSummaries final : public TrialSink {
public:
    std::optional<ExperimentRecord> experiment(const std::string& id, std::string& error) override;
    std::optional<std::vector<TrialRecord>> trials(const std::string& id, std::string& error) override;
    std::optional<std::string> saveExperiment(const ExperimentRecord& record) override;
    std::unique_ptr<RunRecorder> recorder(const Team&, const std::string&, std::string&) override { return nullptr; }
    void add(const TrialRecord& trial) override;
    Committed commit() override { return {}; }
    std::optional<std::string> finish(const std::string&) override { return std::nullopt; }

    // The trials kept for experiment `id`, in the order they finished.
    std::vector<TrialRecord> kept(const std::string& id) const;

    // Runs every trial of `spec` on `engine` in memory, on the simulated clock
    // (64 at once), and summarizes them (ExperimentStats, the first design the
    // baseline): what predictions evaluate designs with. Unset, with `error`,
    // when the runner could not run them. With `trials`, the trials
    // themselves are appended there too (in the order they finished).
    static std::optional<ExperimentSummary> evaluate(Engine& engine, const ExperimentSpec& spec, std::string& error,
                                                     std::vector<TrialRecord>* trials = nullptr);

private:
    mutable std::mutex m_mutex;
    std::map<std::string, ExperimentRecord> m_experiments;
    std::map<std::string, std::vector<TrialRecord>> m_trials;
    std::map<std::tuple<std::string, int, std::string, uint64_t>, size_t> m_index; // into m_trials[id]
};

} // namespace conclave
