#pragma once

#include "conclave/experiment/ExperimentReport.h"

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QSplitter;
class QTabWidget;
class QTableView;

namespace conclave::ui {

class DesignAgentsView;
class DesignsModel;
class ParetoChart;
class SweepCurveChart;
class TaskMatrixView;

// One stored experiment (finished, running or interrupted), as a tab: a
// header (name, status, task set, trials, seeds, "simulated"), the Pareto
// chart beside the sortable designs table, and below them the task matrix
// and the per-agent figures of a chosen design. Everything it shows is
// core's (ExperimentReport, ExperimentStats, TaskMatrix, AgentFigures); it
// opens nothing itself: the matrix's drill-down is re-emitted for the
// window that holds it. Narrower than kCompactWidth (the main window, with
// its docks, at 1280 or 1366 px) the chart becomes the first of the lower
// tabs ("Trade-off") instead of standing beside them, so neither is squeezed.
// A sweep judged on its curve (report.curve) gets the curve chart too, as
// the first of the charts ("Quality–cost curve"), before the Pareto chart.
class ExperimentView : public QWidget {
    Q_OBJECT

public:
    static constexpr int kCompactWidth = 1100;

    explicit ExperimentView(QWidget* parent = nullptr);

    void setReport(ExperimentReport report);
    const ExperimentReport& report() const { return m_report; }

    QLabel* header() const { return m_header; }
    ParetoChart* pareto() const { return m_pareto; }
    SweepCurveChart* curveChart() const { return m_curve; }
    // The charts' tabs beside the lower tabs (wide): the curve's, when the report has one, and the Pareto chart's.
    QTabWidget* chartTabs() const { return m_charts; }
    DesignsModel* designsModel() const { return m_designs; }
    QTableView* designsTable() const { return m_designsTable; }
    TaskMatrixView* matrix() const { return m_matrix; }
    DesignAgentsView* agents() const { return m_agents; }
    QTabWidget* lowerTabs() const { return m_tabs; }
    // The chart is a tab of its own (narrow), or beside the tabs (wide).
    bool isCompact() const { return m_compact; }

    // The header's text: name, id, status, task set, trials stored of planned, seeds, "simulated".
    static QString headerText(const ExperimentReport& report);

signals:
    void openRun(const conclave::RunId& id);
    void compareRuns(const conclave::RunId& a, const conclave::RunId& b);
    // The Agents tab's What-if… on one trial's run (`context`: which trial of which design).
    void whatIfRun(const conclave::RunId& id, const QString& context);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void setCompact(bool compact);
    void placeCharts();
    void fitDesignColumn();

    ExperimentReport m_report;
    bool m_compact = false;
    QSplitter* m_lower;
    QLabel* m_header;
    ParetoChart* m_pareto;
    SweepCurveChart* m_curve;
    QTabWidget* m_charts;
    DesignsModel* m_designs;
    QSortFilterProxyModel* m_sorted;
    QTableView* m_designsTable;
    TaskMatrixView* m_matrix;
    DesignAgentsView* m_agents;
    QTabWidget* m_tabs;
};

} // namespace conclave::ui
