#pragma once

#include "conclave/experiment/TrialSink.h"

namespace conclave {

class RunStore;

// Trials kept in a run store: each one's row, and with Keep::Runs its design
// run as a stored run (as `eval` does by default). With Keep::Rows only the
// rows are kept (`eval --store summaries`): a trial's run can be rebuilt on
// the simulated clock from the stored team, input and seed.
class StoredTrials final : public TrialSink {
public:
    enum class Keep { Runs, Rows };

    StoredTrials(RunStore& store, Keep keep);

    std::optional<ExperimentRecord> experiment(const std::string& id, std::string& error) override;
    std::optional<std::vector<TrialRecord>> trials(const std::string& id, std::string& error) override;
    std::optional<std::string> saveExperiment(const ExperimentRecord& record) override;
    std::unique_ptr<RunRecorder> recorder(const Team& team, const std::string& experimentId,
                                          std::string& error) override;
    void add(const TrialRecord& trial) override;
    Committed commit() override;
    std::optional<std::string> finish(const std::string& id) override;

private:
    RunStore& m_store;
    Keep m_keep;
    int64_t m_lostBefore = 0; // the store's lost trials when this sink began: not this sink's
};

} // namespace conclave
