#pragma once

#include "conclave/engine/AdmissionQueue.h"
#include "conclave/engine/ModelBackend.h"
#include "conclave/engine/RunClock.h"
#include "conclave/replay/CallRetiming.h"
#include "conclave/replay/CutShortCall.h"
#include "conclave/replay/RecordingSource.h"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace conclave {

// A backend that answers from recordings (docs/replay.md). A call finds its
// recorded calls in the source; among them the one from a run with the same
// seed, else one chosen by hash(seed, model, input, draw). The n-th attempt
// of a call on a model replays that call's n-th recorded attempt: a recorded
// failure fails it (retryable when the recording retried it), a recorded
// timeout or cancellation never answers (the replaying run's own timeout
// decides). Each reply comes after the recorded service time, its first
// token after the recorded time to first token, both counted from the call's
// admission: at most `maxConcurrency` calls are served at once, the rest wait
// in order, as at an endpoint. Replies carry the recorded cost and the note
// "replayed: run R span S". A call with no recording fails at once with a
// message naming it, or goes to `onMissing` (a simulator) when given; a
// recorded call that was cut short goes on as `continueCutShort` says, when given.
// One per run, on the run's clock; made with make_shared, as LocalMoeBackend.
class RecordedBackend : public ModelBackend, public std::enable_shared_from_this<RecordedBackend> {
public:
    struct Settings {
        std::string name;           // the backend's name in the team, for messages
        uint64_t seed = 0;          // the run's seed
        int64_t maxConcurrency = 0; // calls served at once; 0: no limit
        CallRetiming retime;        // changes each answered call's recorded times (what-ifs); unset: none
        // A what-if's: a call cut short when recorded goes on as the simulator says (retimed as the
        // rest), noted "simulated: cut short …"; unset: it hangs as recorded.
        CutShortContinuation continueCutShort;
        // A call with no recording that `onMissing` answers is noted "simulated: not in run R" (the
        // single-run mode's source must be one run's: RunRecordings).
        std::string simulatedNote;
        // Recorded µs per µs of this run's clock: every recorded time is divided by it (1: as recorded).
        double recordedScale = 1.0;
    };

    RecordedBackend(std::shared_ptr<const RecordingSource> source, std::shared_ptr<RunClock> clock, Settings settings,
                    std::shared_ptr<ModelBackend> onMissing = nullptr);
    ~RecordedBackend() override;

    CallId start(ModelRequest request, CallCallbacks callbacks) override;
    void cancel(CallId call) override;
    // What the simulator it falls back on charges; 0 without one (replies carry their recorded cost).
    double costOf(std::string_view model, int64_t tokensIn, int64_t tokensOut) const override;
    // A replayed call's note before it answers (a recorded timeout never does).
    std::string pendingNote(CallId call) const override;

    // The recorded call a run with `seed` replays for `request`, among `calls`
    // (the source's matches): the first of those recorded under the same seed
    // when there is one, else one chosen by hash(seed, model, input, draw).
    static const RecordedCall* choose(const std::vector<const RecordedCall*>& calls, uint64_t seed,
                                      const ModelRequest& request);

private:
    enum class Phase { Queued, TokenPending, Delivering, DonePending, Hanging };
    struct Call {
        CallCallbacks callbacks;
        ModelReply reply;       // what it answers (unless it hangs)
        bool token = false;     // a first token comes before the reply (or the hang)
        std::string firstChunk; // its text
        int64_t startUs = 0;
        int64_t tokenAfterUs = 0; // from admission
        int64_t doneAfterUs = 0;  // from admission; -1: never (a recorded timeout)
        int64_t admittedUs = -1;  // -1: not admitted (waiting, or not queued at all)
        Phase phase = Phase::Queued;
        bool takesSlot = true; // false for a missing call's failure
        bool cancelled = false;
        TimerId timer = 0;
    };

    void admitLocked(CallId id, Call& call, int64_t nowUs);
    // Frees its slot and admits the next waiting call; lock held.
    void releaseLocked(const Call& call, int64_t nowUs);
    void onTokenTime(CallId id);
    void onDoneTime(CallId id);
    void postCancelled(CallId id);
    std::string missing(const ModelRequest& request, const std::string& why) const;

    std::shared_ptr<const RecordingSource> m_source;
    std::shared_ptr<RunClock> m_clock;
    Settings m_settings;
    std::shared_ptr<ModelBackend> m_onMissing;
    mutable std::mutex m_mutex; // guards the five below
    std::unordered_map<CallId, Call> m_calls;
    std::unordered_map<CallId, CallId> m_delegated; // our id -> the simulator's, for calls it answers
    std::map<std::string, int> m_attemptsMade;      // per (model, draw): attempts started so far
    AdmissionQueue m_queue; // max_concurrency
    CallId m_next = 1;
};

} // namespace conclave
