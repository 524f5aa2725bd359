#pragma once

#include "inspector/NodeForm.h"

class QPlainTextEdit;

namespace conclave::ui {

// The input and output nodes: an id and a label.
class EndpointForm : public NodeForm {
    Q_OBJECT
public:
    EndpointForm(TeamDocument* document, NodeKind kind, QWidget* parent = nullptr);
};

// A router: strategy, its settings, routes for the keyword strategy, a model for llm.
class RouterForm : public NodeForm {
    Q_OBJECT
public:
    explicit RouterForm(TeamDocument* document, QWidget* parent = nullptr);

private:
    QPlainTextEdit* m_routes;
};

// An expert: one model call, and its weight in weighted votes.
class ExpertForm : public NodeForm {
    Q_OBJECT
public:
    explicit ExpertForm(TeamDocument* document, QWidget* parent = nullptr);
};

// A coordinator: the meeting's mode and its limits, a model for decompose.
class CoordinatorForm : public NodeForm {
    Q_OBJECT
public:
    explicit CoordinatorForm(TeamDocument* document, QWidget* parent = nullptr);
};

// An aggregator: strategy, early termination, a model for synthesize.
class AggregatorForm : public NodeForm {
    Q_OBJECT
public:
    explicit AggregatorForm(TeamDocument* document, QWidget* parent = nullptr);
};

} // namespace conclave::ui
