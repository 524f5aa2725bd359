#pragma once

#include "conclave/engine/Span.h"

#include <QColor>
#include <QString>

namespace conclave::ui {

// The studio's status colours (DESIGN.md, "one visual language"): the same in
// light and dark themes. The timeline, the replay and the charts all use these.
class StatusPalette {
public:
    static QColor color(Status status);
    // A readable word for the status ("done" for ok).
    static QString label(Status status);
    // Highlight for the critical path and the playhead.
    static QColor criticalPath();
    static QColor playhead();
};

} // namespace conclave::ui
