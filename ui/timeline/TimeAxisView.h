#pragma once

#include "timeline/TimeScale.h"

#include <QChartView>

#include <cstdint>
#include <vector>

class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace conclave::ui {

class TimelineView;

// The time axis above one or more timelines: a QtCharts QValueAxis whose plot
// area is the timelines' bar area, pixel for pixel, and whose range is their
// view range.
//
// Promises: zooming or panning an attached timeline moves the axis and every
// other attached timeline; setting the axis's range (or wheel-zooming and
// dragging over it) moves the timelines; xOf() — the chart's own mapping —
// equals the bars' x. As the replay's ruler it shows the playhead, and a
// click or drag on it asks to seek. It draws no bars and owns no run data.
class TimeAxisView : public QChartView {
    Q_OBJECT

public:
    static constexpr int kHeight = 34;

    explicit TimeAxisView(QWidget* parent = nullptr);

    // Follows and drives `timeline`. The first one attached gives the plot
    // area; timelines attached together should share a time extent so the
    // same range means the same pixels in each.
    void attach(TimelineView* timeline);
    QValueAxis* axis() const { return m_axis; }
    const TimeScale& scale() const { return m_scale; }
    // The range shown, in µs.
    int64_t startUs() const;
    int64_t endUs() const;
    // Where the chart draws `us`, in this widget's x (QChart::mapToPosition).
    double xOf(int64_t us) const;
    int64_t usAt(double x) const;

    // As a ruler: a click or drag seeks (seekRequested) instead of panning.
    void setSeekable(bool seekable) { m_seekable = seekable; }
    qint64 playhead() const { return m_playheadUs; }

public slots:
    // -1 hides the playhead.
    void setPlayhead(qint64 us);

signals:
    void seekRequested(qint64 us);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void drawBackground(QPainter* painter, const QRectF& rect) override;
    void resizeEvent(QResizeEvent* event) override;
    void moveEvent(QMoveEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    void restyle();
    void follow(TimelineView* from);
    void applyScale(const TimeScale& next, int64_t startUs, int64_t endUs);
    void drive(qreal min, qreal max);
    void layoutPlotArea();
    void placePlayhead();
    // The primary timeline's x offset in this widget.
    int timelineOffset() const;

    QValueAxis* m_axis;
    QValueAxis* m_y;
    QLineSeries* m_playhead;
    QScatterSeries* m_handle; // the playhead's head, on the axis line
    TimeScale m_scale;
    std::vector<TimelineView*> m_timelines;
    qint64 m_playheadUs = -1;
    bool m_following = false;
    bool m_seekable = false;
    bool m_panning = false;
    double m_pressX = 0;
    int64_t m_pressStartUs = 0;
};

} // namespace conclave::ui
