#pragma once

#include "conclave/analysis/ExperimentStats.h"

#include <QWidget>

#include <vector>

class QChart;
class QChartView;
class QComboBox;
class QGraphicsSimpleTextItem;
class QScatterSeries;

namespace conclave::ui {

// The accuracy trade-off of an experiment's designs (QtCharts): accuracy
// against mean cost per trial, or against p95 wall time; each design a point
// named after it with its 95 % CI as a vertical bar, the frontier core marked
// (paretoCost / paretoLatency) joined by a line, the baseline a larger square.
// Hovering a point shows its figures. Each point's name is placed beside it
// where it covers no other name nor point (above, below, right or left, in
// that order of preference), again whenever the plot area changes.
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
    // The names drawn beside the points, in design order (of the designs with trials).
    const std::vector<QGraphicsSimpleTextItem*>& labels() const { return m_labels; }

private:
    void rebuild();
    void placeLabels();
    double xOf(const DesignSummary& d) const;

    ExperimentSummary m_summary;
    Axis m_axis = Axis::Cost;
    std::vector<int> m_frontier;
    std::vector<QGraphicsSimpleTextItem*> m_labels;
    std::vector<QScatterSeries*> m_points; // the series each label names
    QComboBox* m_axisBox;
    QChartView* m_view;
};

} // namespace conclave::ui
