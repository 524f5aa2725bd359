#pragma once

#include "editor/PortItem.h"

#include "conclave/model/Node.h"

#include <QColor>
#include <QFont>
#include <QGraphicsItem>
#include <QStringList>

#include <optional>

namespace conclave::ui {

class TeamDocument;

// How much of a node is drawn at a zoom: everything, the title alone (larger),
// or only the kind's icon. Colour, shape and the run state ring always show.
enum class NodeDetail { Full, Title, Icon };

// Draws one node of the document. Holds only its id and the document; every
// paint reads the node from there. Run views may add a state ring (runState).
class NodeItem : public QGraphicsItem {
public:
    static constexpr double kWidth = 160;
    static constexpr double kHeight = 56;

    // Text sizes in scene units, i.e. pixels at 100% on any screen's DPI (a
    // point size would grow or shrink against the 160x56 card with the DPI).
    static constexpr int kTitlePx = 13;      // Full: the bold title
    static constexpr int kSubtitlePx = 11;   // Full: the subtitle, the run caption, the problem count
    static constexpr int kLargeTitlePx = 20; // Title: the largest title alone (two lines fill the card)
    // No text is drawn smaller than this on screen; a level of detail is kept
    // while its smallest text stays at least this size.
    static constexpr double kMinReadablePx = 8;
    static constexpr double kFullDetailLod = kMinReadablePx / kSubtitlePx;    // 0.727: below it, no subtitle
    static constexpr double kTitleDetailLod = kMinReadablePx / kLargeTitlePx; // 0.4: below it, icons only
    // The detail at a level of detail (the zoom, for an unrotated view). A zoom
    // set to exactly a threshold (as Fit to Window does) keeps that level even
    // when the painter's transform carries it a rounding error below.
    static NodeDetail detailFor(double lod);
    static NodeDetail detailFor(const QTransform& worldTransform);
    // The title's size in scene units: kTitlePx at Full; at Title it keeps the
    // size on screen it had at the last Full zoom, growing towards kLargeTitlePx
    // as the zoom falls, and then shrinks with the zoom down to kMinReadablePx.
    // The run caption and the problem count follow it below Full.
    static int titlePx(double lod);
    static QFont titleFont(double lod);
    // The title's width on the card at a detail (Icon: none).
    static double titleWidth(NodeKind kind, NodeDetail detail);
    // The title as drawn: elided to titleWidth; at Title detail wrapped onto at
    // most two lines, the second elided. Empty at Icon detail.
    static QStringList titleLines(const QString& title, NodeKind kind, double lod);
    // "Single or compound?\nintake (router)"; just "in (input)" when the name is the id.
    static QString toolTipFor(const Node& node);

    NodeItem(const TeamDocument* document, NodeId id);

    const NodeId& nodeId() const { return m_id; }
    void setNodeId(NodeId id) { m_id = std::move(id); }
    // Re-reads kind and ports from the document.
    void refresh();
    PortItem* port(PortItem::Role role) const;
    QPointF portScenePos(PortItem::Role role) const;
    // A coloured ring and text for a run state, for the run views (issue 7); nullopt hides it.
    void setRunState(std::optional<QColor> colour, const QString& text = {});
    const std::optional<QColor>& runColour() const { return m_runColour; }
    const QString& runText() const { return m_runText; }

    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    static constexpr int Type = UserType + 1;
    int type() const override { return Type; }

    // "local/math-13b · t 0.2", "moe_gate · top 2": the key settings under the title.
    static QString subtitle(const Node& node);

protected:
    QVariant itemChange(GraphicsItemChange change, const QVariant& value) override;
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event) override;

private:
    void placePorts();
    void paintTitle(QPainter* p, const Node& node, double lod) const;
    void paintBadge(QPainter* p, double lod) const;
    void paintCaption(QPainter* p, double lod) const;

    const TeamDocument* m_document;
    NodeId m_id;
    PortItem* m_in = nullptr;
    PortItem* m_out = nullptr;
    PortItem* m_members = nullptr;
    std::optional<QColor> m_runColour;
    QString m_runText;
};

} // namespace conclave::ui
