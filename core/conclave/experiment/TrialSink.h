#pragma once

#include "conclave/store/ExperimentRecords.h"
#include "conclave/store/RunRecorder.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace conclave {

struct Team;

// Where an experiment's finished trials go. The runner hands each trial to
// its sink on the runner's thread, and reads from it what a resume skips.
// StoredTrials keeps them in a run store (with or without their runs);
// TrialSummaries keeps their figures in memory, for what evaluates many
// trials and needs no stored run (calibration, sweeps, search).
class TrialSink {
public:
    virtual ~TrialSink() = default;

    // The experiment's row as kept before (a resume), if it was.
    virtual std::optional<ExperimentRecord> experiment(const std::string& id, std::string& error) = 0;
    // The trials of experiment `id` kept before; unset, with an error, when they cannot be read.
    virtual std::optional<std::vector<TrialRecord>> trials(const std::string& id, std::string& error) = 0;
    // Keeps the experiment's row, new or updated; an error when it cannot.
    virtual std::optional<std::string> saveExperiment(const ExperimentRecord& record) = 0;
    // A recorder that stores a trial's design run of `team`, tagged with the
    // experiment; null when runs are not kept (the trial then has no run id),
    // or with an error when one cannot be made.
    virtual std::unique_ptr<RunRecorder> recorder(const Team& team, const std::string& experimentId,
                                                  std::string& error) = 0;
    // Keeps a finished trial.
    virtual void add(const TrialRecord& trial) = 0;

    struct Committed {
        std::string error; // the first error keeping trials, if any
        int64_t lost = 0;  // trials added but not kept, for good
    };
    // Makes everything added so far durable (a store commits); what was lost.
    virtual Committed commit() = 0;
    // After the experiment's last trial: what the sink tidies (StoredTrials
    // removes runs no trial refers to).
    virtual std::optional<std::string> finish(const std::string& id) = 0;
};

} // namespace conclave
