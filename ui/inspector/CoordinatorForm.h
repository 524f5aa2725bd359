#pragma once

#include "inspector/NodeForm.h"

namespace conclave::ui {

// A coordinator: the meeting's mode and its limits, a model for decompose.
class CoordinatorForm : public NodeForm {
    Q_OBJECT

public:
    explicit CoordinatorForm(TeamDocument* document, QWidget* parent = nullptr);
};

} // namespace conclave::ui
