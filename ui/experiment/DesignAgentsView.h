#pragma once

#include "conclave/experiment/ExperimentReport.h"

#include <QWidget>

class QComboBox;
class QPushButton;
class QTableWidget;

namespace conclave::ui {

class LatencyBoxPlot;

// One design's agents, chosen in a combo: each agent's share of the
// critical path and of the cost, its call attempts with their p50/p95
// latency, and its busy time per trial (core's AgentFigures), and the box
// plot of its call latency over the design's trials (LatencyDistribution
// over the trial rows). A trial of the design whose run was stored can be
// opened in the What-if panel (whatIfRequested).
class DesignAgentsView : public QWidget {
    Q_OBJECT

public:
    explicit DesignAgentsView(QWidget* parent = nullptr);

    // `report` must outlive the view's use of it (the experiment view keeps it).
    void setReport(const ExperimentReport* report);
    void setDesign(int design);
    int design() const;
    QComboBox* designBox() const { return m_design; }
    QTableWidget* table() const { return m_table; }
    LatencyBoxPlot* boxPlot() const { return m_boxes; }
    // The design's trials with a stored run, "math-001 · seed 1" (the item's data: the run id).
    QComboBox* trialBox() const { return m_trial; }
    QPushButton* whatIfButton() const { return m_whatIf; }

signals:
    // What-if… on the chosen trial: its run, and which trial of which design it is.
    void whatIfRequested(const conclave::RunId& run, const QString& context);

private:
    void fill(int design);
    void fillTrials(int design);

    const ExperimentReport* m_report = nullptr;
    QComboBox* m_design;
    QTableWidget* m_table;
    LatencyBoxPlot* m_boxes;
    QComboBox* m_trial;
    QPushButton* m_whatIf;
};

} // namespace conclave::ui
