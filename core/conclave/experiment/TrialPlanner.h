#pragma once

#include "conclave/experiment/ExperimentSpec.h"
#include "conclave/experiment/TrialPlan.h"
#include "conclave/store/ExperimentRecords.h"

#include <optional>
#include <vector>

namespace conclave {

// What one run of an experiment has to do: the trials of the spec (or of a
// shard), which of them were kept before (a resume skips them) and which are
// left, in the experiment's order.
struct TrialAgenda {
    std::vector<PlannedTrial> planned; // this run's trials
    std::vector<size_t> pending;       // indices into planned, not kept yet, in order
    std::vector<TrialRecord> kept;     // the kept trials among planned, each once
};

class TrialPlanner {
public:
    static TrialAgenda make(const ExperimentSpec& spec, std::optional<Shard> shard,
                            const std::vector<TrialRecord>& keptBefore);
};

} // namespace conclave
