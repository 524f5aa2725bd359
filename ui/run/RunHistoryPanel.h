#pragma once

#include "conclave/store/StoredRun.h"

#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QLineEdit;
class QPushButton;
class QTreeWidget;

namespace conclave::ui {

// The "Run history" dock: every stored run, newest first, filtered by team,
// status and text (in the run id, team, input and answer); buttons to open,
// replay, re-run, delete and export a run, compare two, and show the latency
// box plot of a team. It only shows what setRuns() gave it and asks for the
// rest through its signals; the window does the work.
class RunHistoryPanel : public QWidget {
    Q_OBJECT

public:
    explicit RunHistoryPanel(QWidget* parent = nullptr);

    void setRuns(std::vector<RunSummary> runs);
    const std::vector<RunSummary>& runs() const { return m_runs; }
    void setTeamFilter(const QString& team); // empty: every team
    void setStatusFilter(std::optional<RunStatus> status);
    void setTextFilter(const QString& text);
    std::vector<RunId> visibleRuns() const; // in list order
    std::vector<RunId> selectedRuns() const;
    void selectRuns(const std::vector<RunId>& ids);
    QTreeWidget* list() const { return m_list; }

signals:
    void refreshRequested();
    void openRequested(const conclave::RunId& id);
    void replayRequested(const conclave::RunId& id);
    void rerunRequested(const conclave::RunId& id);
    void deleteRequested(const std::vector<conclave::RunId>& ids);
    void exportRequested(const conclave::RunId& id);
    void compareRequested(const conclave::RunId& a, const conclave::RunId& b);
    void latencyRequested(const QString& team);

private:
    void applyFilter();
    void updateButtons();
    const RunSummary* summaryOf(const RunId& id) const;

    std::vector<RunSummary> m_runs;
    QComboBox* m_team;
    QComboBox* m_status;
    QLineEdit* m_text;
    QTreeWidget* m_list;
    QPushButton* m_open;
    QPushButton* m_replay;
    QPushButton* m_rerun;
    QPushButton* m_delete;
    QPushButton* m_export;
    QPushButton* m_compare;
    QPushButton* m_latency;
};

} // namespace conclave::ui
