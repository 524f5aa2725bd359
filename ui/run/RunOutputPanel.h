#pragma once

#include "conclave/model/StrongId.h"
#include "conclave/store/StoredRun.h"

#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QPlainTextEdit;

namespace conclave::ui {

class RunController;

// The "Run output" dock: the selected node's part of a run — status,
// streamed text, answer, confidence, tokens and cost. Either the live (or
// last) run's, streamed as it arrives from RunController::liveNodes(), or a
// stored run's (showStoredRun: the run of the current run tab), read from the
// StoredRun: its node results and, for a node that never settled, its
// per-span streamed text. A new live run switches it back to the live one.
class RunOutputPanel : public QWidget {
    Q_OBJECT

public:
    explicit RunOutputPanel(RunController* controller, QWidget* parent = nullptr);

    void showNode(const std::optional<NodeId>& node);
    const std::optional<NodeId>& node() const { return m_node; }
    // Shows this stored run's results (loaded with its text); nullptr: the live or last run's.
    void showStoredRun(std::shared_ptr<const StoredRun> run);
    const StoredRun* storedRun() const { return m_stored.get(); }
    // The title above the figures: "Node out · run 1a2b3c4d" (or "· live run").
    QString title() const;
    // A node's text in a stored run, as the live dock ends up showing it: its
    // result's text, else (it never settled: cut short, interrupted) the text
    // its spans streamed, in span order.
    static std::string storedText(const StoredRun& run, const NodeId& node);
    QString text() const;
    // "status", "answer", "confidence", "tokens", "cost": the value shown.
    QString figure(const QString& name) const;

private:
    void refresh();
    void appendText(const NodeId& node);

    RunController* m_controller;
    std::optional<NodeId> m_node;
    std::shared_ptr<const StoredRun> m_stored;
    QLabel* m_title;
    QLabel* m_status;
    QLabel* m_answer;
    QLabel* m_confidence;
    QLabel* m_tokens;
    QLabel* m_cost;
    QPlainTextEdit* m_text;
};

} // namespace conclave::ui
