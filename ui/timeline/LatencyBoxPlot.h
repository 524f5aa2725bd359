#pragma once

#include "conclave/store/StoredRun.h"

#include <QWidget>

#include <vector>

class QChart;
class QChartView;

namespace conclave {
class RunQueries;
}

namespace conclave::ui {

// A team's per-agent latency distribution over its last N runs, one box per
// agent (QBoxPlotSeries). An agent's latency in a run is its wall time, from
// its first span's start to its last span's end; agents that did not run in a
// run give no sample for it.
class LatencyBoxPlot : public QWidget {
    Q_OBJECT

public:
    struct Box {
        NodeId node;
        int samples = 0;
        // Milliseconds; quartiles by linear interpolation between order statistics.
        double min = 0, q1 = 0, median = 0, q3 = 0, max = 0;
    };

    explicit LatencyBoxPlot(QWidget* parent = nullptr);

    // Agents in the team order of the newest run, then any others.
    static std::vector<Box> distribution(const std::vector<StoredRun>& runs);
    // The quantile p (0..1) of sorted values.
    static double quantile(const std::vector<double>& sorted, double p);
    // The last `n` finished runs of `team`, newest first.
    static std::vector<StoredRun> lastRuns(RunQueries& queries, const std::string& team, int n, std::string& error);

    void setRuns(const std::vector<StoredRun>& runs, const QString& title = {});
    const std::vector<Box>& boxes() const { return m_boxes; }
    QChart* chart() const;
    QChartView* chartView() const { return m_view; }

private:
    std::vector<Box> m_boxes;
    QChartView* m_view;
};

} // namespace conclave::ui
