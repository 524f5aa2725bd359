#pragma once

#include "conclave/analysis/ExperimentStats.h"

#include <QWidget>

#include <vector>

class QChart;
class QChartView;
class QComboBox;

namespace conclave::ui {

// The accuracy trade-off of an experiment's designs (QtCharts): accuracy
// against mean cost per trial, or against p95 wall time; each design a point
// named after it with its 95 % CI as a vertical bar, the frontier core marked
// (paretoCost / paretoLatency) joined by a line, the baseline a larger square.
// Hovering a point shows its figures.
class ParetoChart : public QWidget {
    Q_OBJECT

public:
    enum class Axis { Cost, Latency };

    explicit ParetoChart(QWidget* parent = nullptr);

    void setSummary(ExperimentSummary summary);
    void setAxis(Axis axis);
    Axis axis() const { return m_axis; }
    QChart* chart() const;
    QComboBox* axisBox() const { return m_axisBox; }
    // The designs on the frontier drawn, in x order.
    const std::vector<int>& frontier() const { return m_frontier; }
    // The hover text of a design.
    QString pointText(int design) const;

private:
    void rebuild();
    double xOf(const DesignSummary& d) const;

    ExperimentSummary m_summary;
    Axis m_axis = Axis::Cost;
    std::vector<int> m_frontier;
    QComboBox* m_axisBox;
    QChartView* m_view;
};

} // namespace conclave::ui
