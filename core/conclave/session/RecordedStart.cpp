#include "conclave/session/RecordedStart.h"

#include "conclave/store/RunStore.h"

namespace conclave {

RecordedStart startRecorded(Engine& engine, RunStore* store, const PreparedTeam& team, std::string input,
                            Engine::StartOptions options, RunOrigin origin)
{
    std::unique_ptr<RunRecorder> recorder;
    if (store) {
        std::string error;
        recorder = store->record(team.plan->team(), error, std::move(origin));
        if (!recorder)
            return {nullptr, nullptr, error, true};
    }
    return startRecorded(engine, std::move(recorder), team, std::move(input), std::move(options));
}

RecordedStart startRecorded(Engine& engine, std::unique_ptr<RunRecorder> recorder, const PreparedTeam& team,
                            std::string input, Engine::StartOptions options)
{
    RecordedStart out;
    out.recorder = std::move(recorder);
    if (out.recorder)
        options.observers.insert(options.observers.begin(), out.recorder.get());
    auto started = engine.start(team, std::move(input), std::move(options));
    if (!started.run) {
        out.recorder.reset();
        out.error = std::move(started.error);
        return out;
    }
    out.run = std::move(started.run);
    return out;
}

} // namespace conclave
