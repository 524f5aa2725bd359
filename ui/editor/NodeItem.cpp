#include "editor/NodeItem.h"

#include "editor/KindStyle.h"
#include "editor/TeamScene.h"
#include "timeline/TimeFormat.h"

#include "document/TeamDocument.h"

#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace conclave::ui {

namespace {

QString number(double value)
{
    return QString::number(value, 'g', 4);
}

} // namespace

NodeItem::NodeItem(const TeamDocument* document, NodeId id) : m_document(document), m_id(std::move(id))
{
    setFlags(ItemIsSelectable | ItemIsMovable | ItemSendsGeometryChanges);
    setAcceptHoverEvents(true);
    setZValue(1);
    refresh();
}

void NodeItem::refresh()
{
    const Node* n = m_document->node(m_id);
    const NodeKind kind = n ? n->kind : NodeKind::Expert;
    const auto ensure = [this](PortItem*& port, PortItem::Role role, bool wanted) {
        if (wanted && !port)
            port = new PortItem(role, this);
        if (!wanted && port) {
            delete port;
            port = nullptr;
        }
    };
    ensure(m_in, PortItem::Role::In, kind != NodeKind::Input);
    ensure(m_out, PortItem::Role::Out, kind != NodeKind::Output);
    ensure(m_members, PortItem::Role::Members, kind == NodeKind::Coordinator);
    placePorts();
    setToolTip(n ? QString::fromStdString(n->id.str()) + " (" + QString::fromUtf8(toString(kind)) + ")" : QString());
    update();
}

void NodeItem::placePorts()
{
    if (m_in)
        m_in->setPos(0, kHeight / 2);
    if (m_out)
        m_out->setPos(kWidth, kHeight / 2);
    if (m_members)
        m_members->setPos(kWidth / 2, kHeight);
}

PortItem* NodeItem::port(PortItem::Role role) const
{
    switch (role) {
    case PortItem::Role::In:
        return m_in;
    case PortItem::Role::Out:
        return m_out;
    case PortItem::Role::Members:
        return m_members;
    }
    return nullptr;
}

QPointF NodeItem::portScenePos(PortItem::Role role) const
{
    switch (role) {
    case PortItem::Role::In:
        return mapToScene(0, kHeight / 2);
    case PortItem::Role::Out:
        return mapToScene(kWidth, kHeight / 2);
    case PortItem::Role::Members:
        return mapToScene(kWidth / 2, kHeight);
    }
    return scenePos();
}

void NodeItem::setRunState(std::optional<QColor> colour, const QString& text)
{
    m_runColour = colour;
    m_runText = text;
    update();
}

QRectF NodeItem::boundingRect() const
{
    return QRectF(-8, -12, kWidth + 20, kHeight + 24);
}

QPainterPath NodeItem::shape() const
{
    const Node* n = m_document->node(m_id);
    return KindStyle::shape(n ? n->kind : NodeKind::Expert, QRectF(0, 0, kWidth, kHeight));
}

QString NodeItem::subtitle(const Node& node)
{
    const auto& c = node.config;
    QStringList parts;
    switch (node.kind) {
    case NodeKind::Input:
        return QObject::tr("the run's input");
    case NodeKind::Output:
        return QObject::tr("the final answer");
    case NodeKind::Router:
        if (c.routerStrategy)
            parts << QString::fromUtf8(toString(*c.routerStrategy));
        if (c.topK)
            parts << QObject::tr("top %1").arg(*c.topK);
        if (c.routerStrategy == RouterStrategy::Llm && c.call.model)
            parts << QString::fromStdString(*c.call.model);
        break;
    case NodeKind::Expert:
        parts << QString::fromStdString(c.call.model.value_or("(default model)"));
        if (c.call.params && c.call.params->temperature)
            parts << "t " + number(*c.call.params->temperature);
        break;
    case NodeKind::Coordinator:
        if (c.mode)
            parts << QString::fromUtf8(toString(*c.mode));
        if (c.maxRounds)
            parts << TimeFormat::count(int64_t(*c.maxRounds), QObject::tr("round"), QObject::tr("rounds"));
        break;
    case NodeKind::Aggregator:
        if (c.aggregatorStrategy)
            parts << QString::fromUtf8(toString(*c.aggregatorStrategy));
        if (c.quorum)
            parts << QObject::tr("quorum %1").arg(*c.quorum);
        break;
    }
    return parts.join(QStringLiteral(" · "));
}

void NodeItem::paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget*)
{
    const Node* n = m_document->node(m_id);
    if (!n)
        return;
    const QPalette palette = scene()->palette();
    const QColor kindColour = KindStyle::colour(n->kind);
    const QRectF body(0, 0, kWidth, kHeight);
    const QPainterPath outline = KindStyle::shape(n->kind, body);
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    const double lod = option->levelOfDetailFromTransform(p->worldTransform());

    p->setRenderHint(QPainter::Antialiasing);
    // Body: the card colour with a tint of the kind.
    QColor card = palette.color(QPalette::Base);
    QColor tint = kindColour;
    tint.setAlphaF(dark ? 0.22 : 0.12);
    p->setPen(Qt::NoPen);
    p->setBrush(card);
    p->drawPath(outline);
    p->setBrush(tint);
    p->drawPath(outline);
    if (m_runColour) {
        p->setPen(QPen(*m_runColour, 5));
        p->setBrush(Qt::NoBrush);
        p->drawPath(outline);
    }
    QPen border(isSelected() ? palette.color(QPalette::Highlight) : kindColour, isSelected() ? 3 : 1.8);
    p->setPen(border);
    p->setBrush(Qt::NoBrush);
    p->drawPath(outline);
    if (n->kind == NodeKind::Output) // a double border: the end of the line
        p->drawPath(KindStyle::shape(n->kind, body.adjusted(4, 4, -4, -4)));

    if (lod < 0.35) // far out: colour and shape say enough
        return;

    // Icon disc.
    const double disc = 26;
    const double left = n->kind == NodeKind::Router || n->kind == NodeKind::Coordinator ? 16 : 12;
    const QRectF discRect(left, (kHeight - disc) / 2, disc, disc);
    p->setPen(Qt::NoPen);
    p->setBrush(kindColour);
    p->drawEllipse(discRect);
    KindStyle::paintGlyph(*p, n->kind, discRect.adjusted(6, 6, -6, -6), Qt::white);

    // Title and subtitle.
    const double textLeft = discRect.right() + 8;
    const double textWidth = kWidth - textLeft - (n->kind == NodeKind::Router ? 16 : 10);
    QFont titleFont = p->font();
    titleFont.setPointSizeF(9.5);
    titleFont.setBold(true);
    QFont subFont = p->font();
    subFont.setPointSizeF(8);
    p->setPen(palette.color(QPalette::Text));
    p->setFont(titleFont);
    const QString title =
        QFontMetricsF(titleFont).elidedText(QString::fromStdString(n->displayName()), Qt::ElideRight, textWidth);
    p->drawText(QRectF(textLeft, 8, textWidth, kHeight / 2 - 6), Qt::AlignLeft | Qt::AlignBottom, title);
    p->setFont(subFont);
    QColor muted = palette.color(QPalette::Text);
    muted.setAlphaF(0.65);
    p->setPen(muted);
    const QString sub = QFontMetricsF(subFont).elidedText(subtitle(*n), Qt::ElideRight, textWidth);
    p->drawText(QRectF(textLeft, kHeight / 2 + 1, textWidth, kHeight / 2 - 8), Qt::AlignLeft | Qt::AlignTop, sub);

    // Problems badge.
    const auto problems = m_document->problemsOf(m_id);
    if (!problems.empty()) {
        bool error = false;
        for (const auto* problem : problems)
            error = error || problem->isError();
        const QRectF badge(kWidth - 14, -10, 22, 20);
        p->setPen(QPen(palette.color(QPalette::Base), 2));
        p->setBrush(error ? QColor(0xdc, 0x26, 0x26) : QColor(0xea, 0xb3, 0x08));
        p->drawRoundedRect(badge, 10, 10);
        QFont badgeFont = subFont;
        badgeFont.setBold(true);
        p->setFont(badgeFont);
        p->setPen(error ? Qt::white : Qt::black);
        p->drawText(badge, Qt::AlignCenter, QString::number(problems.size()));
    }
    if (!m_runText.isEmpty()) {
        p->setFont(subFont);
        p->setPen(m_runColour.value_or(palette.color(QPalette::Text)));
        p->drawText(QRectF(0, kHeight + 2, kWidth, 14), Qt::AlignCenter, m_runText);
    }
}

QVariant NodeItem::itemChange(GraphicsItemChange change, const QVariant& value)
{
    auto* s = dynamic_cast<TeamScene*>(scene());
    if (change == ItemPositionChange && s && s->snapToGrid() && s->isDragging()) {
        const QPointF p = value.toPointF();
        const double g = TeamScene::kGrid;
        return QPointF(std::round(p.x() / g) * g, std::round(p.y() / g) * g);
    }
    if (change == ItemPositionHasChanged && s)
        s->nodeItemMoved(this);
    return QGraphicsItem::itemChange(change, value);
}

void NodeItem::mouseDoubleClickEvent(QGraphicsSceneMouseEvent* event)
{
    if (auto* s = dynamic_cast<TeamScene*>(scene()))
        emit s->nodeActivated(m_id);
    QGraphicsItem::mouseDoubleClickEvent(event);
}

} // namespace conclave::ui
