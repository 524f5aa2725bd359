#pragma once

#include <QGraphicsView>

namespace conclave::ui {

class TeamScene;

// The view on the canvas: zoom (wheel, keys, fit), pan (middle-drag,
// space-drag), rubber-band selection, a grid, and drops from the palette and
// of team files.
class CanvasView : public QGraphicsView {
    Q_OBJECT

public:
    // The MIME type of palette drags: "kind:expert" or "template:/path/x.team.json".
    static constexpr const char* kPaletteMime = "application/x-conclave-palette";

    explicit CanvasView(TeamScene* scene, QWidget* parent = nullptr);

    // Fit to Window never zooms in past this, nor out past the zoom at which
    // node titles still read (NodeItem's Title detail); wheel and keys go further.
    static constexpr double kMaxFitZoom = 1.25;
    static double minFitZoom();
    static constexpr double kFitMargin = 40; // scene units kept around the team

    double zoom() const;
    void setZoom(double zoom, const QPointF* anchorScene = nullptr);
    void zoomBy(double factor);
    // The whole team in view, or, when it would not read at that zoom, the
    // team at minFitZoom() from its start: the leftmost nodes, vertically centred.
    void fitToTeam();
    // The zoom fitToTeam picks for a team's bounds in a viewport of that size.
    static double fitZoom(const QSizeF& viewport, const QRectF& teamBounds);
    QRectF teamBounds() const; // every top-level item of the scene
    void centreOn(const QPointF& scenePos);
    QPointF visibleCentre() const;

signals:
    void zoomChanged(double zoom);
    void paletteItemDropped(const QString& item, const QPointF& scenePos);
    void filesDropped(const QStringList& paths);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;
    void drawBackground(QPainter* painter, const QRectF& rect) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void startPan(const QPoint& at);
    QPointF fitCentre(const QRectF& bounds, double zoom) const;

    bool m_fitted = false; // by fitToTeam, and not zoomed or panned since: a resize fits again
    bool m_spaceHeld = false;
    bool m_panning = false;
    QPoint m_panFrom;
};

} // namespace conclave::ui
