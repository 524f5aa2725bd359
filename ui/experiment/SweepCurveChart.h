#pragma once

#include "conclave/experiment/SweepCurve.h"

#include <QPointF>
#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

class QAbstractSeries;
class QAreaSeries;
class QChart;
class QGraphicsSimpleTextItem;
class QLabel;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace conclave::ui {

class ThemedChartView;

// A sweep's quality–cost curve (core's SweepCurve, QtCharts): held-out quality
// against mean cost per trial, each series a line through its variants in
// order of cost inside its 95 % CI band, its non-decreasing hull dashed, the
// single models as squares with their CIs as vertical bars; each point named
// beside it (a variant by its value, a single model by its model,
// PointLabels). Above the chart what the figures are over (SweepCurveText::
// basis, the simulator named when it answered); below it each series'
// figures (SweepCurveText::figures) and the curve's notes. Without figures
// (no single-model design) only the basis, the series and the notes are shown.
// Every number and every text is core's; hovering a point shows its row.
class SweepCurveChart : public QWidget {
    Q_OBJECT

public:
    explicit SweepCurveChart(QWidget* parent = nullptr);

    void setCurve(std::optional<SweepCurve> curve);
    const std::optional<SweepCurve>& curve() const { return m_curve; }

    QChart* chart() const;
    ThemedChartView* chartView() const { return m_view; }
    QLabel* basisLabel() const { return m_basis; }
    QLabel* figuresLabel() const { return m_figures; }
    QLabel* notesLabel() const { return m_notes; }
    // Per series: its line (variants in order of cost), its CI band, its hull and its points.
    const std::vector<QLineSeries*>& lines() const { return m_lines; }
    const std::vector<QAreaSeries*>& bands() const { return m_bands; }
    const std::vector<QLineSeries*>& hulls() const { return m_hulls; }
    const std::vector<QScatterSeries*>& variantPoints() const { return m_variantPoints; }
    // The single models, one point each in reference order.
    QScatterSeries* references() const { return m_references; }
    // The names beside the points: every variant of every series, then every single model.
    const std::vector<QGraphicsSimpleTextItem*>& labels() const { return m_labels; }

    // The hover text of a series' variant, of a single model.
    QString variantText(int series, int variant) const;
    QString referenceText(int reference) const;
    // The text under the chart: per series its name and figures, one a line.
    QString figuresText() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void clear();
    void addSeries(int s, double& yLo, double& xHi);
    void addReferences(double& yLo, double& xHi);
    void placeLabels();

    std::optional<SweepCurve> m_curve;
    QLabel* m_basis;
    ThemedChartView* m_view;
    QLabel* m_figures;
    QLabel* m_notes;
    QValueAxis* m_x;
    QValueAxis* m_y;
    std::vector<QLineSeries*> m_lines;
    std::vector<QAreaSeries*> m_bands;
    std::vector<QLineSeries*> m_hulls;
    std::vector<QScatterSeries*> m_variantPoints;
    std::vector<std::vector<int>> m_variantOrder; // per series: the variant of each point, in order of cost
    QScatterSeries* m_references = nullptr;
    std::vector<QGraphicsSimpleTextItem*> m_labels;
    std::vector<std::pair<QPointF, QAbstractSeries*>> m_labelled; // the point (in values) each label names
};

} // namespace conclave::ui
