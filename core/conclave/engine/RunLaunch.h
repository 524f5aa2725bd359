#pragma once

#include "conclave/engine/CallRunner.h"
#include "conclave/engine/Run.h"

#include <memory>
#include <optional>

namespace conclave {

// A model call prepared under the run's lock, to be started after it is released.
struct Run::PendingLaunch {
    std::shared_ptr<CallRunner> runner;
    std::optional<CallRunner::Launch> launch;
};

} // namespace conclave
