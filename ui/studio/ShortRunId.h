#pragma once

#include "conclave/store/StoredRun.h"

#include <QString>

namespace conclave::ui {

// A run as the studio names it in tab titles and status messages: the first
// eight characters of its id.
inline QString shortRunId(const RunId& id)
{
    return QString::fromStdString(id.str()).left(8);
}

} // namespace conclave::ui
