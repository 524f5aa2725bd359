#pragma once

#include "conclave/experiment/ExperimentReport.h"

#include <QTabWidget>

namespace conclave {
class RunQueries;
}

namespace conclave::ui {

class ExperimentView;

// The standalone experiment window of `conclave-studio --experiment`: the
// experiment view as its first tab, and every run it drills into opened from
// the store in a closable tab of its own (a RunView for one run, a
// CompareView for two).
class ExperimentWindow : public QTabWidget {
    Q_OBJECT

public:
    // `queries` must outlive the window.
    explicit ExperimentWindow(RunQueries& queries, QWidget* parent = nullptr);

    void setReport(ExperimentReport report);
    ExperimentView* view() const { return m_view; }

    void openRun(const RunId& id);
    void compareRuns(const RunId& a, const RunId& b);

private:
    std::optional<StoredRun> load(const RunId& id);

    RunQueries& m_queries;
    ExperimentView* m_view;
};

} // namespace conclave::ui
