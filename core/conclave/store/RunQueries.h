#pragma once

#include "conclave/store/RunSource.h"
#include "conclave/store/ExperimentRecords.h"
#include "conclave/store/SqliteDb.h"
#include "conclave/store/StoredAttempt.h"
#include "conclave/store/StoredRun.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace conclave {

struct RunFilter {
    std::string team;                // exact team name; empty: any
    std::optional<RunStatus> status; // any when unset
    std::string text;                // in the id, team name, input or answer, ASCII case-insensitive; empty: any
    int limit = 0;                   // 0: no limit
    int offset = 0;                  // skip the newest `offset` matches (paging)
    bool includeTrials = false;      // experiments' trial runs too (hidden by default; shown for source Eval)
    std::optional<RunSource> source; // what started the run; any when unset
    std::optional<int64_t> startedSinceMs; // started at or after this Unix time (ms); any when unset
};

// Reads the run store on a connection of its own. Each call reads one
// consistent snapshot (a read transaction), so a run is seen either before or
// after a commit of the writer, never half-way; WAL means the writer is never
// blocked. A run or an experiment whose writer process is gone reads as
// `interrupted` (LiveStatus), though the row still says `running`: reading
// never writes. Not thread-safe: one RunQueries per thread.
class RunQueries {
public:
    static std::unique_ptr<RunQueries> open(const std::filesystem::path& file, std::string& error);
    // `mode` ReadOnly or AtRest for a file this process must not write (Create opens ReadWrite).
    static std::unique_ptr<RunQueries> open(const std::filesystem::path& file, SqliteDb::Mode mode, std::string& error);

    // Newest first. Trials of experiments only when the filter includes them.
    std::optional<std::vector<RunSummary>> list(const RunFilter& filter, std::string& error);
    // How many runs match the filter's team, status and text (its limit and offset aside).
    std::optional<int64_t> count(const RunFilter& filter, std::string& error);
    // The team names of the stored runs, each once, sorted.
    std::optional<std::vector<std::string>> teamNames(std::string& error);
    // A whole run: summary, team, output, spans, node results and (when asked) streamed text.
    std::optional<StoredRun> load(const RunId& id, bool withText, std::string& error);
    // The run an id or a unique prefix of one names.
    std::optional<RunId> resolve(const std::string& idOrPrefix, std::string& error);
    // What the runs `conclave serve` stored for API key `keyName` and that
    // started at or after `sinceMs` (Unix ms) cost, in USD: a per-key budget's
    // spend. An ended run counts its cost; one still running, what its call
    // attempts committed so far cost (its row's total is written at its end).
    std::optional<double> serveSpendSince(const std::string& keyName, int64_t sinceMs, std::string& error);

    // Experiments, newest first, with the trials each has stored; without their
    // specs (specJson empty), which can be large: experiment() reads one whole.
    std::optional<std::vector<ExperimentRecord>> experiments(std::string& error);
    // The experiment an id or a unique prefix of one names, spec included.
    std::optional<ExperimentRecord> experiment(const std::string& idOrPrefix, std::string& error);
    // An experiment's trials in (design, task, seed) order (none for an unknown id).
    std::optional<std::vector<TrialRecord>> trials(const std::string& experimentId, std::string& error);

    // Replay's reads (AttemptQueries.cpp). The call attempts of the trials of
    // `experimentIds` (their runs' and their judges' runs'), with their reply
    // texts, in (experiment, design, task, seed, span) order; an id that names
    // no stored experiment is an error.
    std::optional<std::vector<StoredAttempt>> experimentAttempts(const std::vector<std::string>& experimentIds,
                                                                 std::string& error);
    // One run's call attempts, in span order.
    std::optional<std::vector<StoredAttempt>> runAttempts(const RunId& id, std::string& error);

private:
    explicit RunQueries(SqliteDb db) : m_db(std::move(db)) {}
    bool begin(std::string& error);
    void end();
    // The one reading of span columns: spanColumns("s.") lists them (with a
    // table alias), readSpan reads them from column `first` on.
    static std::string spanColumns(std::string_view alias);
    static Span readSpan(const SqliteStatement& s, int first);

    SqliteDb m_db;
};

} // namespace conclave
