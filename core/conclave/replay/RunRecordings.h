#pragma once

#include "conclave/replay/RecordingSource.h"

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace conclave {

// Single-run mode: one stored run's own calls, matched on where the call is
// made rather than on the run's input: (model as sent, node, round, subtask),
// which a request carries as its salt (the node's id and the call's suffix,
// "#round#subtask" in a meeting). Replaying a run's own team reproduces it;
// a changed team (the what-if) replays whatever calls it still makes at the
// same places. Attempts stored without a draw key match nothing.
class RunRecordings : public RecordingSource {
public:
    RunRecordings(RunId run, std::vector<StoredAttempt> attempts);

    // Reads the run's attempts from the store at `db`, read-only; null, with
    // `error` set, when the store or the run cannot be read.
    static std::shared_ptr<const RunRecordings> load(const std::filesystem::path& db, const RunId& run,
                                                     std::string& error);

    std::vector<const RecordedCall*> find(const ModelRequest& request) const override;
    std::string describe() const override;
    size_t attempts() const override { return m_attempts; }

    // A stored attempt's salt: its node's id and its draw key's suffix (what
    // follows the role, from the first '#').
    static std::string saltOf(const Span& span);

private:
    RunId m_run;
    std::map<std::string, RecordedCall> m_calls; // by (model, salt)
    size_t m_attempts = 0;
};

} // namespace conclave
