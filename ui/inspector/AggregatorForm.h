#pragma once

#include "inspector/NodeForm.h"

namespace conclave::ui {

// An aggregator: strategy, early termination, a model for synthesize.
class AggregatorForm : public NodeForm {
    Q_OBJECT

public:
    explicit AggregatorForm(TeamDocument* document, QWidget* parent = nullptr);
};

} // namespace conclave::ui
