#pragma once

#include "conclave/session/Engine.h"
#include "conclave/store/RunRecorder.h"

#include <memory>
#include <string>

namespace conclave {

class RunStore;

// A run started together with the recorder that stores it: the one way the
// CLI, the studio and experiments compose engine, recorder and start.
struct RecordedStart {
    std::unique_ptr<RunRecorder> recorder; // stores the run; must outlive it (null when not stored)
    std::shared_ptr<Run> run;
    std::string error;       // why it did not start, when run is null
    bool storeFailed = false; // the error is the store's: the recorder could not be made
};

// Makes the recorder first, so it hears the run's first event, and puts it
// before `options.observers`. With no store the run is not stored. `origin`
// says what started it (a trial of an experiment names the experiment; see RunStore::record).
RecordedStart startRecorded(Engine& engine, RunStore* store, const PreparedTeam& team, std::string input,
                            Engine::StartOptions options, RunOrigin origin = {});
// The same with a recorder already made (null: the run is not stored).
RecordedStart startRecorded(Engine& engine, std::unique_ptr<RunRecorder> recorder, const PreparedTeam& team,
                            std::string input, Engine::StartOptions options);

} // namespace conclave
