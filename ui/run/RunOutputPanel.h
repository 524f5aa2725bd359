#pragma once

#include "conclave/model/StrongId.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPlainTextEdit;

namespace conclave::ui {

class RunController;

// The "Run output" dock: the selected node's part of the current (or last)
// run — status, streamed text as it arrives, answer, confidence, tokens and
// cost. Reads RunController::liveNodes() only.
class RunOutputPanel : public QWidget {
    Q_OBJECT

public:
    explicit RunOutputPanel(RunController* controller, QWidget* parent = nullptr);

    void showNode(const std::optional<NodeId>& node);
    const std::optional<NodeId>& node() const { return m_node; }
    QString text() const;
    // "status", "answer", "confidence", "tokens", "cost": the value shown.
    QString figure(const QString& name) const;

private:
    void refresh();
    void appendText(const NodeId& node);

    RunController* m_controller;
    std::optional<NodeId> m_node;
    QLabel* m_title;
    QLabel* m_status;
    QLabel* m_answer;
    QLabel* m_confidence;
    QLabel* m_tokens;
    QLabel* m_cost;
    QPlainTextEdit* m_text;
};

} // namespace conclave::ui
