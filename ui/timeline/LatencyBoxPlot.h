#pragma once

#include "conclave/analysis/LatencyDistribution.h"

#include "timeline/ThemedChartView.h"

#include <QWidget>

#include <vector>

class QChart;
class QChartView;

namespace conclave::ui {

// A team's per-agent latency distribution over its last N runs (or an
// experiment design's trials), one box per agent (QBoxPlotSeries), as
// LatencyDistribution computes it.
class LatencyBoxPlot : public QWidget {
    Q_OBJECT

public:
    explicit LatencyBoxPlot(QWidget* parent = nullptr);

    void setRuns(const std::vector<StoredRun>& runs, const QString& title = {});
    // Boxes core computed elsewhere (an experiment design's trials: LatencyDistribution over trial rows).
    void setBoxes(std::vector<AgentLatency> boxes, const QString& title);
    const std::vector<AgentLatency>& boxes() const { return m_boxes; }
    QChart* chart() const;
    QChartView* chartView() const { return m_view; }

private:
    std::vector<AgentLatency> m_boxes;
    ThemedChartView* m_view;
};

} // namespace conclave::ui
