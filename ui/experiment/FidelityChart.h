#pragma once

#include "conclave/experiment/FidelityReport.h"

#include <QWidget>

#include <vector>

class QChart;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace conclave::ui {

class ThemedChartView;

// Predicted against measured accuracy on the held-out tasks (QtCharts), one
// point per design and prediction: the simulated predictions one series
// (circles), the replays from the other designs' recorded calls another
// (squares); each point with its measured 95 % CI as a horizontal bar and
// its predicted CI as a vertical one; the diagonal y = x, where a perfect
// prediction lies. Both axes in percent over one common range. Each design's
// name is written beside its simulated point (its replayed one when it has
// none, PointLabels); hovering a point shows its row of the report.
class FidelityChart : public QWidget {
    Q_OBJECT

public:
    explicit FidelityChart(QWidget* parent = nullptr);

    void setReport(const FidelityReport* report);

    QChart* chart() const;
    QScatterSeries* simulatedSeries() const { return m_simulated; }
    QScatterSeries* replayedSeries() const { return m_replayed; }
    QLineSeries* diagonal() const { return m_diagonal; }
    QValueAxis* xAxis() const { return m_x; }
    QValueAxis* yAxis() const { return m_y; }
    const std::vector<QGraphicsSimpleTextItem*>& labels() const { return m_labels; }
    // The hover text of a design's simulated (or replayed) point.
    QString pointText(int design, bool replayed) const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void placeLabels();

    const FidelityReport* m_report = nullptr;
    ThemedChartView* m_view;
    QScatterSeries* m_simulated = nullptr;
    QScatterSeries* m_replayed = nullptr;
    QLineSeries* m_diagonal = nullptr;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    std::vector<int> m_simulatedDesigns; // the design of each point, in series order
    std::vector<int> m_replayedDesigns;
    std::vector<QGraphicsSimpleTextItem*> m_labels;
    std::vector<QPointF> m_labelled; // the point (in values) each label names
};

} // namespace conclave::ui
