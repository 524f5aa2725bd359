#pragma once

#include "inspector/NodeForm.h"

class QPlainTextEdit;

namespace conclave::ui {

// A router: strategy, its settings, routes for the keyword strategy, a model for llm.
class RouterForm : public NodeForm {
    Q_OBJECT

public:
    explicit RouterForm(TeamDocument* document, QWidget* parent = nullptr);

private:
    QPlainTextEdit* m_routes;
};

} // namespace conclave::ui
