#pragma once

#include "conclave/replay/RecordingSource.h"

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace conclave {

// The recorded calls of some experiments' trials, matched on what a call is
// regardless of the design that makes it: (model as sent, the run's input
// text, draw key). Each match is one run's attempts of that call; which one a
// replay uses is the backend's choice (same seed first). Attempts stored
// without a draw key (a store older than schema 6) match nothing. The
// trials of designs left out (a leave-one-design-out check) are not loaded:
// their calls, their judges' too, read as not recorded.
class ExperimentRecordings : public RecordingSource {
public:
    // `excludedDesigns`: the names of the designs `attempts` leave out, for messages.
    ExperimentRecordings(std::vector<std::string> experimentIds, std::vector<StoredAttempt> attempts,
                         std::vector<std::string> excludedDesigns = {});

    // Reads the trials' attempts of `experimentIds` from the store at `db`,
    // read-only, but for those of a design named in `excludedDesigns`; null,
    // with `error` set, when the store or an id cannot be read, or a name is
    // that of no design of those experiments.
    static std::shared_ptr<const ExperimentRecordings> load(const std::filesystem::path& db,
                                                            const std::vector<std::string>& experimentIds,
                                                            const std::vector<std::string>& excludedDesigns,
                                                            std::string& error);

    std::vector<const RecordedCall*> find(const ModelRequest& request) const override;
    std::string describe() const override;
    size_t attempts() const override { return m_attempts; }

private:
    std::vector<std::string> m_experimentIds;
    std::vector<std::string> m_excludedDesigns;
    std::map<std::string, std::vector<RecordedCall>> m_calls; // by matchKey
    size_t m_attempts = 0;
};

} // namespace conclave
