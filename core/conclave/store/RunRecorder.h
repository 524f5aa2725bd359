#pragma once

#include "conclave/engine/RunObserver.h"
#include "conclave/store/RunSource.h"
#include "conclave/store/RunStoreWriter.h"
#include "conclave/store/StoredRun.h"

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace conclave {

struct Team;

// Where a stored run comes from: what started it, the experiment it is a
// trial of (empty: none), and the name of the API key that asked for it
// (empty: none; never the key itself). storeText false (`conclave serve
// --store-text none`) stores the run's figures only: no input, output,
// answer, node texts, streamed or replied texts, nor span notes (which may
// quote an answer) — empty strings, or no row at all; statuses, times,
// tokens, costs, models, errors and every span are stored as usual.
struct RunOrigin {
    RunSource source = RunSource::Run;
    std::string experimentId;
    std::string keyName;
    bool storeText = true;
};

// Records one run into the store: an observer that copies each engine event
// into the run's own feed and returns; the writer thread takes the feed's
// contents in batches. It never touches SQLite on an engine thread. Streamed
// text is gathered per span, up to a cap, and queued with the span's end.
// Must outlive the run it observes (as every observer must).
class RunRecorder : public RunObserver {
public:
    RunRecorder(RunId id, const Team& team, std::shared_ptr<RunStoreWriter> writer, size_t textCap,
                RunOrigin origin = {});
    RunRecorder(const RunRecorder&) = delete;
    RunRecorder& operator=(const RunRecorder&) = delete;
    ~RunRecorder() override;

    const RunId& id() const { return m_id; }
    // What has reached the database so far.
    const WriteProgress& progress() const { return m_feed->progress(); }
    // Blocks until every event seen so far is committed; the writer's error, if any.
    std::string waitUntilStored();

    void runStarted(std::string_view runInput, uint64_t seed, ClockKind clock) override;
    void nodeQueued(const NodeId& node, int64_t atUs) override;
    void spanStarted(const Span& span) override;
    void nodeToken(const NodeId& node, SpanId span, std::string_view text, int64_t atUs) override;
    void attemptReplied(const NodeId& node, SpanId span, std::string_view text) override;
    void spanFinished(const Span& span) override;
    void nodeFinished(const NodeId& node, const NodeResult& result, int64_t atUs) override;
    void runFinished(const RunResult& result) override;

private:
    struct Text {
        std::string text;
        bool streamed = false; // a token arrived (the text may still be empty)
        bool truncated = false;
    };

    RunId m_id;
    std::string m_teamName;
    std::string m_teamJson;
    RunOrigin m_origin;
    std::shared_ptr<RunStoreWriter> m_writer;
    std::shared_ptr<WriteFeed> m_feed;
    size_t m_textCap;
    // Touched only from observer calls, which the engine serialises per run.
    // Indexed by span id: the engine numbers a run's spans 1, 2, 3...
    std::vector<Text> m_texts;
};

} // namespace conclave
