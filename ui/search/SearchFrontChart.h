#pragma once

#include "conclave/search/DesignSearch.h"
#include "conclave/search/SearchObjectives.h"

#include <nlohmann/json.hpp>

#include <QString>
#include <QWidget>

#include <cstddef>
#include <optional>
#include <vector>

class QChart;
class QChartView;
class QGraphicsSimpleTextItem;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;

namespace conclave::ui {

// A design search's front (QtCharts): each design's accuracy against its mean
// cost per trial (a log axis), its 95 % CI a vertical bar, its colour its third objective
// (p95 wall, calls…) in kBins bands from the front's lowest to its highest
// value, each band's range named in the legend (the colour scale, the
// objective named in the caption); the bases as drawn
// are squares. Each point is labelled "#ID" beside it (PointLabels); past
// kMaxLabels points, only those no other is both cheaper and more accurate,
// at most kMaxLabels of them.
//
// Promises: drawing a front reuses the chart's series (points are replaced,
// never series re-made but for CI bars beyond the most drawn so far), so a
// live front redraws in a few milliseconds; hovering a point shows its text.
class SearchFrontChart : public QWidget {
    Q_OBJECT

public:
    static constexpr int kBins = 4;
    static constexpr size_t kPooledBars = 32;
    static constexpr size_t kMaxLabels = 12; // more points: only the accuracy-cost frontier is labelled

    struct Dot {
        int candidate = 0;
        QString label; // "#12"
        QString text;  // the hover text
        double accuracy = 0;
        std::optional<std::pair<double, double>> ci;
        double costUsd = 0;
        double third = 0; // the colour objective's value
        bool base = false;
    };

    explicit SearchFrontChart(QWidget* parent = nullptr);

    // A running search's front on the search part (its progress), its hover text naming `objectives`' figures.
    static std::vector<Dot> dotsOf(const std::vector<DesignSearch::FrontPoint>& front,
                                   const std::vector<Objective>& objectives, std::optional<Objective> colour);
    // A search's report (SearchReport::toJson): the bases as drawn and the front, as measured on test.
    static std::vector<Dot> dotsOf(const nlohmann::ordered_json& report, std::optional<Objective> colour);

    // The colour objective (none: one colour); `caption` says what is drawn ("front on the search part…").
    void setDots(std::vector<Dot> dots, std::optional<Objective> colour, const QString& caption);
    const std::vector<Dot>& dots() const { return m_dots; }
    QChart* chart() const;
    QLabel* caption() const { return m_caption; }
    // The legend's band names, lowest first (empty bands left out).
    QStringList bandNames() const;
    // The names drawn beside the points.
    const std::vector<QGraphicsSimpleTextItem*>& labels() const { return m_labels; }

private:
    void placeLabels();
    double xOf(const Dot& dot) const;
    QLineSeries* bar(size_t index);

    std::vector<Dot> m_dots;
    QLabel* m_caption;
    QChartView* m_view;
    QLogValueAxis* m_x; // costs span decades: a cheap design and the frontier model differ 100-fold
    QValueAxis* m_y;
    std::vector<QScatterSeries*> m_bands; // kBins, lowest first
    QScatterSeries* m_bases;
    std::vector<QLineSeries*> m_bars; // pooled
    std::vector<QGraphicsSimpleTextItem*> m_labels;
    std::vector<QPointF> m_labelAt; // in chart values, per label
    double m_xFloor = 1e-6;         // the cost axis's low end
};

} // namespace conclave::ui
