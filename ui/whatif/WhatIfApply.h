#pragma once

#include "conclave/model/Team.h"
#include "conclave/whatif/WhatIfChanges.h"

#include <QCoreApplication>
#include <QString>

namespace conclave::ui {

class TeamDocument;

// What the What-if panel's Apply does: the changes that are team fields (a
// node's `model`, a backend's `max_concurrency`) written into the open team,
// one undo step for all of them; a speed-up is not a team setting and is
// never applied. Only when the run's team is the one open in the editor (the
// same name, with the nodes and backends the changes name).
class WhatIfApply {
    Q_DECLARE_TR_FUNCTIONS(WhatIfApply)

public:
    static inline const char* const kSpeedUpOnly = "a speed-up is not a team setting: pick a model to try it";

    struct Verdict {
        bool enabled = false;
        QString tooltip; // why not, or what it will do
    };
    // `document` may be null (no team open).
    static Verdict check(const TeamDocument* document, const Team& runTeam, const WhatIfChanges& changes);
    // Applies the team fields of `changes`: false, changing nothing, when check() says no.
    static bool apply(TeamDocument& document, const Team& runTeam, const WhatIfChanges& changes);

private:
    // The team fields of `changes` the open team does not have yet, as "a: model m", "local: max_concurrency 2".
    static QStringList pending(const Team& open, const WhatIfChanges& changes);
};

} // namespace conclave::ui
