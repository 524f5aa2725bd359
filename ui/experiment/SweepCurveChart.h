#pragma once

#include "conclave/experiment/SweepCurve.h"

#include <QPointF>
#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

class QAbstractSeries;
class QBoxLayout;
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
// PointLabels). Above the chart (beside it in a short, wide pane) what the
// figures are over (SweepCurveText::basis, the simulator named when it
// answered), each series' figures (SweepCurveText::figures) and the notes. Without figures
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
    // The names beside the points: every variant of every series, then every single model. Variants on one
    // point are named once ("0.5, 0.6"), and so are those drawn within a few pixels of each other (the
    // others' names hidden).
    const std::vector<QGraphicsSimpleTextItem*>& labels() const { return m_labels; }

    // The hover text of a series' variant, of a single model.
    QString variantText(int series, int variant) const;
    QString referenceText(int reference) const;
    // The text under the chart: per series its name and figures, one a line.
    QString figuresText() const;
    // The texts beside the chart (a short, wide pane) rather than above it.
    bool textsBeside() const;

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    void arrange();
    void clear();
    void addSeries(int s, double& yLo, double& xHi);
    void addReferences(double& yLo, double& xHi);
    void placeLabels();

    static constexpr int kTextsWidth = 260;

    std::optional<SweepCurve> m_curve;
    QBoxLayout* m_layout;
    QWidget* m_texts;
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
    struct Named {
        QPointF at;              // the point it names, in values
        QAbstractSeries* series; // a series' variant points, or the single models
        QString text;            // its own text, before near names of its series join it
    };
    std::vector<Named> m_labelled; // per label
};

} // namespace conclave::ui
