#pragma once

#include "conclave/analysis/ReplayOutputs.h"
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
// stored run's: its final results (showStoredRun: the run of the current run
// tab), or what it had produced by an instant (showStoredRunAt: a replay's
// playhead), both as ReplayOutputs reads them from the StoredRun. A new live
// run switches it back to the live one. Every change of what it says of its
// node is also one line for the inspector (runLineChanged).
class RunOutputPanel : public QWidget {
    Q_OBJECT

public:
    explicit RunOutputPanel(RunController* controller, QWidget* parent = nullptr);

    void showNode(const std::optional<NodeId>& node);
    const std::optional<NodeId>& node() const { return m_node; }
    // Shows this stored run's results (loaded with its text); nullptr: the live or last run's.
    void showStoredRun(std::shared_ptr<const StoredRun> run);
    // Shows what this stored run had produced by `atUs` (a replay's playhead):
    // figures "–" until the node finished, the status then, the text of its
    // spans that had ended. The same run again only moves the instant.
    void showStoredRunAt(std::shared_ptr<const StoredRun> run, int64_t atUs);
    const StoredRun* storedRun() const { return m_stored.get(); }
    // The instant shown of a stored run; none for its final results or a live run.
    const std::optional<int64_t>& playhead() const { return m_atUs; }
    // The title above the figures: "Node out · run 1a2b3c4d" (or "· live run",
    // or "· run 1a2b3c4d at 1.20 s").
    QString title() const;
    // A node's text in a stored run, as the live dock ends up showing it
    // (ReplayOutputs::storedText).
    static std::string storedText(const StoredRun& run, const NodeId& node);
    QString text() const;
    // What the text area says while it is empty.
    QString placeholder() const;
    // "status", "answer", "confidence", "tokens", "cost": the value shown.
    QString figure(const QString& name) const;
    // The node's state in one line: "At the playhead (1.20 s): running since
    // 0.50 s", "Run 1a2b3c4d: done · answer 783 · conf 0.91", "Live run: …";
    // empty when the run says nothing of the node.
    QString runLine() const { return m_runLine; }

signals:
    void runLineChanged(const conclave::NodeId& node, const QString& line);

private:
    void setStoredRun(std::shared_ptr<const StoredRun> run);
    void refresh();
    void appendText(const NodeId& node);
    void setRunLine(const QString& line);

    RunController* m_controller;
    std::optional<NodeId> m_node;
    std::shared_ptr<const StoredRun> m_stored;
    ReplayOutputs m_outputs; // of m_stored
    std::optional<int64_t> m_atUs;
    QString m_runLine;
    std::optional<NodeId> m_runLineNode; // the node m_runLine was last said of
    QLabel* m_title;
    QLabel* m_status;
    QLabel* m_answer;
    QLabel* m_confidence;
    QLabel* m_tokens;
    QLabel* m_cost;
    QPlainTextEdit* m_text;
};

} // namespace conclave::ui
