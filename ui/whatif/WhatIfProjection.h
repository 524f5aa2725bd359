#pragma once

#include "timeline/TimelineModel.h"

#include "conclave/whatif/WhatIfChanges.h"
#include "conclave/whatif/WhatIfReport.h"

#include <cstdint>
#include <memory>

namespace conclave::ui {

// One what-if as the studio draws it: core's report (the walls, critical
// paths, decisions and calls replayed, docs/whatif.md) and the projected run
// itself as a timeline on the stored run's lanes, to ghost over it.
struct WhatIfProjection {
    uint64_t request = 0; // the WhatIfController::request() it answers
    WhatIfChanges changes;
    WhatIfReport report;
    std::shared_ptr<const TimelineModel> timeline;
    int64_t computeUs = 0; // how long the projection took on its thread
};

} // namespace conclave::ui
