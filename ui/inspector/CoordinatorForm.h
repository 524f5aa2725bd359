#pragma once

#include "inspector/NodeForm.h"

namespace conclave::ui {

// A coordinator: the meeting's mode and its limits (the initial members of
// an adaptive meeting and the max subtasks of a decompose plan, each shown in
// its mode only), a model for decompose.
class CoordinatorForm : public NodeForm {
    Q_OBJECT

public:
    explicit CoordinatorForm(TeamDocument* document, QWidget* parent = nullptr);
};

} // namespace conclave::ui
