#pragma once

#include "inspector/NodeForm.h"

namespace conclave::ui {

// An expert: one model call, and its weight in weighted votes.
class ExpertForm : public NodeForm {
    Q_OBJECT

public:
    explicit ExpertForm(TeamDocument* document, QWidget* parent = nullptr);
};

} // namespace conclave::ui
