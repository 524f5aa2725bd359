#pragma once

#include "inspector/NodeForm.h"

namespace conclave::ui {

// An aggregator: strategy, early termination, a model for synthesize and
// whether it skips that model when its inputs agree.
class AggregatorForm : public NodeForm {
    Q_OBJECT

public:
    explicit AggregatorForm(TeamDocument* document, QWidget* parent = nullptr);

private:
    void addAgreementSkip(QFormLayout* form);
};

} // namespace conclave::ui
