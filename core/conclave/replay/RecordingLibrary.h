#pragma once

#include "conclave/replay/RecordingSource.h"

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace conclave {

// Loads recordings once: every design and run of an experiment that replays
// the same experiments from the same store, leaving out the same designs,
// shares one load. Thread-safe.
// What it holds is read when first asked for: trials stored later (a
// recorded experiment resumed meanwhile) are not seen by this library.
class RecordingLibrary {
public:
    // The attempts of `experimentIds`' trials in the store at `db`, but for
    // those of the designs named in `excludedDesigns`; null, with `error`
    // set, when they cannot be read (ExperimentRecordings::load).
    std::shared_ptr<const RecordingSource> experiments(const std::filesystem::path& db,
                                                       const std::vector<std::string>& experimentIds,
                                                       const std::vector<std::string>& excludedDesigns,
                                                       std::string& error);
    // One run's own attempts (single-run mode).
    std::shared_ptr<const RecordingSource> run(const std::filesystem::path& db, const std::string& runId,
                                               std::string& error);

private:
    std::mutex m_mutex; // guards m_loaded; a load runs under it, so two askers never load twice
    std::map<std::string, std::shared_ptr<const RecordingSource>> m_loaded;
};

} // namespace conclave
