#pragma once

#include "inspector/NodeForm.h"

namespace conclave::ui {

// The input and output nodes: an id and a label.
class EndpointForm : public NodeForm {
    Q_OBJECT

public:
    EndpointForm(TeamDocument* document, NodeKind kind, QWidget* parent = nullptr);
};

} // namespace conclave::ui
