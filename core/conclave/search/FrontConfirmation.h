#pragma once

#include "conclave/analysis/ExperimentStats.h"
#include "conclave/model/Team.h"
#include "conclave/search/SearchObjectives.h"

#include <optional>
#include <string>
#include <vector>

namespace conclave {

// A search's front on real models (`search --confirm-on BACKENDS.team.json`): each front design rebound to
// another team file's backends, then measured on the search's test tasks, its figures beside the
// simulator's prediction for the same tasks.
class FrontConfirmation {
public:
    // `design` with every model call on a local-moe backend moved to the first of `backends`' backends
    // (by name) that serves the model — an openai backend serves the models its `prices` name, a
    // recorded backend every model — and its backends replaced by `backends`' (the others it has kept).
    // Unset with "LABEL: no backend serves MODEL, which NODE of DESIGN calls (its backends serve: …)".
    static std::optional<Team> rebind(const Team& design, const Team& backends, const std::string& label,
                                      std::string& error);

    struct Row {
        std::string name;
        ObjectiveFigures predicted; // the simulator's, on the test tasks
        const DesignSummary* measured = nullptr;
        bool accuracyInside = false; // the prediction inside the measured accuracy's 95 % CI
        std::string dominatedBy;     // another front design shown better on the measured trials, with its evidence
    };
    // Which front designs another is shown better than on the measured trials (CandidateDominance at 95 %,
    // over the objectives): the front found on the simulator is still a front where it is measured when none is.
    // `trials`: the measured experiment's, design d the front's d-th; `taskIds` and `seeds` its tasks and seeds.
    static void markDominated(std::vector<Row>& rows, const std::vector<TrialRecord>& trials,
                              const std::vector<std::string>& taskIds, const std::vector<uint64_t>& seeds,
                              const std::vector<Objective>& objectives);
    // "predicted against measured" as `conclave fidelity` words it: per design, each figure predicted and
    // measured, the accuracy's CI, whether the prediction lies inside it, and whether it stayed on the front.
    static std::string text(const std::vector<Row>& rows, size_t tasks);
};

} // namespace conclave
