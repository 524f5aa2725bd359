#pragma once

#include "timeline/TimelineModel.h"
#include "timeline/TimelineViewport.h"

#include <QWidget>

#include <memory>

class QRubberBand;

namespace conclave::ui {

// A run's timeline: a lane per agent, bars coloured by status, the critical
// path highlighted, time-to-first-token marks and a playhead; its time axis
// is a TimeAxisView attached to it (a QtCharts axis over the lanes). Wheel
// zooms at the cursor, dragging pans, Shift+drag (or a right-button drag)
// zooms to a rubber band, a double click fits the run, hovering shows a bar's
// details and clicking a bar emits spanClicked. Paints only from the model.
class TimelineView : public QWidget {
    Q_OBJECT

public:
    explicit TimelineView(QWidget* parent = nullptr);

    void setModel(std::shared_ptr<const TimelineModel> model);
    // The same run, grown (a live run's next frame): what the user chose stays —
    // the range unless the view fits the run, the scroll, the selected lane.
    void updateModel(std::shared_ptr<const TimelineModel> model);
    const TimelineModel* model() const { return m_model.get(); }
    // Another run drawn ghosted over this one's lanes (TimelineRenderer::State::ghost), as the What-if
    // panel draws its projection; null clears it. The view's extent covers both.
    void setGhost(std::shared_ptr<const TimelineModel> ghost);
    const TimelineModel* ghost() const { return m_ghost.get(); }
    const TimelineViewport& viewport() const { return m_vp; }

    // Shows [startUs, endUs] across the plot.
    void setViewRange(int64_t startUs, int64_t endUs);
    int64_t viewStartUs() const { return m_vp.startUs; }
    int64_t viewEndUs() const { return m_vp.endUs(); }
    void fitAll();
    // Whether the view fits the run (and keeps fitting it on resize) rather than a range the user chose.
    bool isFitted() const { return m_fitted; }
    // The time the view can pan and zoom out to (0: the model's end). Views
    // that share an axis share this, so the same range means the same pixels.
    void setTimeExtent(int64_t us);
    // Zooms by `factor` (> 1 zooms in) keeping the time under x fixed.
    void zoomAt(double x, double factor);

    int64_t playhead() const { return m_playheadUs; }
    // The lane selectNode() highlighted, or -1.
    int selectedLane() const { return m_selectedLane; }
    // The bar under a point of the widget, or -1.
    int barAt(QPoint pos) const;
    // What hovering over a bar shows.
    QString tooltipText(int bar) const;
    QSize sizeHint() const override;

public slots:
    // -1 hides the playhead.
    void setPlayhead(qint64 us);
    // Highlights the node's lane and scrolls it into view (an unknown node clears the selection).
    void selectNode(const conclave::NodeId& node);

signals:
    void spanClicked(const conclave::NodeId& node);
    void viewRangeChanged(qint64 startUs, qint64 endUs);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void setStart(int64_t startUs, double usPerPixel);
    void clampScroll();
    int64_t maxUs() const;

    std::shared_ptr<const TimelineModel> m_model;
    std::shared_ptr<const TimelineModel> m_ghost;
    TimelineViewport m_vp;
    int64_t m_playheadUs = -1;
    int m_selectedLane = -1;
    int m_hoverBar = -1;
    int64_t m_extentUs = 0;
    bool m_fitted = true; // keep fitting on resize until the user zooms

    enum class Drag { None, Pan, Band };
    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    int64_t m_pressStartUs = 0;
    int m_pressScrollY = 0;
    bool m_moved = false;
    QRubberBand* m_band = nullptr;
};

} // namespace conclave::ui
