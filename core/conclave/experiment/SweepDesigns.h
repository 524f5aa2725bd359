#pragma once

#include "conclave/experiment/ExperimentSpec.h"
#include "conclave/experiment/SweepSpec.h"

#include <optional>
#include <string>
#include <vector>

namespace conclave {

// A sweep's variants as an experiment's designs, and their regeneration on
// resume: `eval --vary` and `eval --resume` of its experiment go through here.
class SweepDesigns {
public:
    // The designs of every variant of `team` (from `file` as typed; "" for a
    // team not from a file), named "NAME [PATH=value, …]", each carrying its
    // parameters; unset with one error line (TeamSweep's) on any problem.
    static std::optional<std::vector<ExperimentDesign>> make(const std::string& name, const std::string& file,
                                                             const Team& team, const SweepSpec& sweep,
                                                             std::string& error);

    // The swept designs of a stored spec (those with parameters, in order)
    // made again from `team` (their file reloaded from `where`) and the
    // stored --vary flags; unset with an error when they cannot be, or when
    // any differs from what is stored (its name, or its content hash).
    static std::optional<std::vector<ExperimentDesign>> regenerate(const StoredSpec& stored, const Team& team,
                                                                   const std::string& where, std::string& error);

    // The designs of a stored spec that are a sweep's variants.
    static std::vector<const ExperimentDesign*> swept(const StoredSpec& stored);
};

} // namespace conclave
