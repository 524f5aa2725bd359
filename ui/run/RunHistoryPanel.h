#pragma once

#include "conclave/store/RunQueries.h"
#include "conclave/store/StoredRun.h"

#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTimer;
class QTreeWidget;

namespace conclave::ui {

class RunController;

// The "Run history" dock: the stored runs matching its team, status and text
// filters (the text in the run id, team, input or answer), newest first, a
// page at a time; buttons to open, replay, re-run, delete and export a run,
// compare two, and show the latency box plot of a team.
//
// Promises: the filtering is the store's (RunQueries with the filter, a limit
// and an offset), never a scan of every run in memory; a filter change shows
// the first page of its matches; scrolling to the bottom or "Load more" adds
// the next page; refresh() reloads as many runs as are shown. It asks for
// everything else through its signals; the window does the work.
class RunHistoryPanel : public QWidget {
    Q_OBJECT

public:
    static constexpr int kPageSize = 100;

    explicit RunHistoryPanel(RunController* controller, QWidget* parent = nullptr);

    // Reloads the team names and the matching runs (at least a page, at most what is shown). False on a store error.
    bool refresh();
    // Adds the next page of matching runs. False on a store error.
    bool loadMore();
    void setPageSize(int runs);
    int pageSize() const { return m_pageSize; }
    // The runs loaded (the matching ones, newest first), and how many match in all.
    const std::vector<RunSummary>& runs() const { return m_runs; }
    int64_t matchCount() const { return m_matches; }
    bool hasMore() const { return int64_t(m_runs.size()) < m_matches; }
    const QString& lastError() const { return m_error; }
    // The filters as a query of the store (no paging).
    RunFilter filter() const;

    void setTeamFilter(const QString& team); // empty: every team
    void setStatusFilter(std::optional<RunStatus> status);
    // What started the runs shown (RunSource); any when unset. Experiment trials show only for Eval.
    void setSourceFilter(std::optional<RunSource> source);
    void setTextFilter(const QString& text);
    std::vector<RunId> visibleRuns() const; // in list order
    std::vector<RunId> selectedRuns() const;
    void selectRuns(const std::vector<RunId>& ids);
    QTreeWidget* list() const { return m_list; }
    QPushButton* loadMoreButton() const { return m_more; }
    QStringList teams() const; // the team filter's choices, "All teams" first

signals:
    void errorOccurred(const QString& message);
    void openRequested(const conclave::RunId& id);
    void replayRequested(const conclave::RunId& id);
    void rerunRequested(const conclave::RunId& id);
    void deleteRequested(const std::vector<conclave::RunId>& ids);
    void exportRequested(const conclave::RunId& id);
    void compareRequested(const conclave::RunId& a, const conclave::RunId& b);
    void latencyRequested(const QString& team);

private:
    // The first page of the current filters' matches.
    bool reload();
    bool load(int offset, int limit, bool append);
    bool fail(const QString& message);
    void setTeams(const std::vector<std::string>& names);
    void addItems(size_t from);
    void updateButtons();
    void updateCount();
    const RunSummary* summaryOf(const RunId& id) const;

    RunController* m_controller;
    std::vector<RunSummary> m_runs;
    int64_t m_matches = 0;
    int m_pageSize = kPageSize;
    QString m_error;
    QComboBox* m_team;
    QComboBox* m_status;
    QComboBox* m_source;
    QLineEdit* m_text;
    QTimer* m_typing;
    QLabel* m_count;
    QPushButton* m_more;
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
