#include "editor/NodeItem.h"

#include "editor/KindStyle.h"
#include "editor/TeamScene.h"
#include "timeline/TimeFormat.h"

#include "document/TeamDocument.h"

#include "conclave/model/DefaultValues.h"
#include "conclave/model/RouterStrategies.h"

#include <QFontMetricsF>
#include <QGraphicsScene>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QTextLayout>

#include <algorithm>
#include <utility>

namespace conclave::ui {

namespace {

QString number(double value)
{
    return QString::number(value, 'g', 4);
}

constexpr double kFullDisc = 26;        // the icon disc beside the title at Full detail
constexpr double kIconDisc = 40;        // the icon disc alone at Icon detail
constexpr double kCaptionOverhang = 10; // the run caption may be a little wider than the card

QFont textFont(int px)
{
    QFont font;
    font.setPixelSize(px);
    return font;
}

double fullDiscLeft(NodeKind kind)
{
    return kind == NodeKind::Router || kind == NodeKind::Coordinator ? 16 : 12;
}

double fullTextLeft(NodeKind kind)
{
    return fullDiscLeft(kind) + kFullDisc + 8;
}

// Left and right margins of the title alone, clear of each shape's slanted or
// rounded ends where two centred lines' capitals reach (about 9 below the top).
std::pair<double, double> titleInsets(NodeKind kind)
{
    switch (kind) {
    case NodeKind::Input: // a pill
        return {12, 12};
    case NodeKind::Output: // a pill inside a pill
        return {16, 16};
    case NodeKind::Router: // the hexagon's edge is 11 in there
        return {13, 13};
    case NodeKind::Aggregator: // the funnel narrows on the right
        return {10, 16};
    case NodeKind::Coordinator: // the octagon's corner is 7 in there
    case NodeKind::Expert:
        break;
    }
    return {10, 10};
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
    setToolTip(n ? toolTipFor(*n) : QString());
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
    // The card, the state ring, the problems badge on the top-right corner and
    // the run caption below, each at its largest (Title detail).
    return QRectF(-kCaptionOverhang - 2, -kLargeTitlePx, kWidth + 2 * kCaptionOverhang + 14, kHeight + 52);
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
    case NodeKind::Router: {
        // Only what the router's strategy reads: a field left from another strategy says nothing.
        const auto* strategy = c.routerStrategy ? &RouterStrategies::of(*c.routerStrategy) : nullptr;
        if (strategy)
            parts << QString::fromUtf8(strategy->name);
        if (c.topK && (!strategy || strategy->field("top_k")))
            parts << QObject::tr("top %1").arg(*c.topK);
        if (strategy && strategy->callsModel && c.call.model)
            parts << QString::fromStdString(*c.call.model);
        break;
    }
    case NodeKind::Expert:
        parts << QString::fromStdString(c.call.model.value_or("(default model)"));
        if (c.call.params && c.call.params->temperature)
            parts << "t " + number(*c.call.params->temperature);
        break;
    case NodeKind::Coordinator:
        if (c.mode)
            parts << QString::fromUtf8(toString(*c.mode));
        if (c.mode == CoordinatorMode::Adaptive)
            parts << QObject::tr("%1 first").arg(c.initial.value_or(defaults::kInitialMembers));
        if (c.mode == CoordinatorMode::Decompose && c.maxSubtasks)
            parts << QObject::tr("≤ %1 subtasks").arg(*c.maxSubtasks);
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

NodeDetail NodeItem::detailFor(double lod)
{
    // Relative: the painter's transform is the view's scale composed with
    // translations, which can land a set zoom an ulp or two below it.
    constexpr double tolerance = 1e-9;
    if (lod >= kFullDetailLod * (1 - tolerance))
        return NodeDetail::Full;
    if (lod >= kTitleDetailLod * (1 - tolerance))
        return NodeDetail::Title;
    return NodeDetail::Icon;
}

NodeDetail NodeItem::detailFor(const QTransform& worldTransform)
{
    return detailFor(QStyleOptionGraphicsItem::levelOfDetailFromTransform(worldTransform));
}

int NodeItem::titlePx(double lod)
{
    if (detailFor(lod) == NodeDetail::Full)
        return kTitlePx;
    const double keepsItsSize = kTitlePx * kFullDetailLod / lod;
    return int(std::clamp(std::lround(keepsItsSize), long(kTitlePx), long(kLargeTitlePx)));
}

QFont NodeItem::titleFont(double lod)
{
    QFont font = textFont(titlePx(lod));
    font.setBold(true);
    return font;
}

double NodeItem::titleWidth(NodeKind kind, NodeDetail detail)
{
    switch (detail) {
    case NodeDetail::Full:
        return kWidth - fullTextLeft(kind) - (kind == NodeKind::Router ? 16 : 10);
    case NodeDetail::Title: {
        const auto [left, right] = titleInsets(kind);
        return kWidth - left - right;
    }
    case NodeDetail::Icon:
        break;
    }
    return 0;
}

QStringList NodeItem::titleLines(const QString& title, NodeKind kind, double lod)
{
    const NodeDetail detail = detailFor(lod);
    if (detail == NodeDetail::Icon || title.isEmpty())
        return {};
    const QFont font = titleFont(lod);
    const QFontMetricsF metrics(font);
    const double width = titleWidth(kind, detail);
    const QString oneLine = metrics.elidedText(title, Qt::ElideRight, width);
    if (detail == NodeDetail::Full || oneLine == title)
        return {oneLine};
    // Two lines, broken where the text allows (between words), the second elided.
    QTextLayout layout(title, font);
    QTextOption option;
    option.setWrapMode(QTextOption::WordWrap);
    layout.setTextOption(option);
    layout.beginLayout();
    QTextLine first = layout.createLine();
    first.setLineWidth(width);
    layout.endLayout();
    const QString head = title.left(first.textLength()).trimmed();
    const QString rest = title.mid(first.textLength()).trimmed();
    if (head.isEmpty() || rest.isEmpty() || metrics.horizontalAdvance(head) > width)
        return {oneLine}; // one word wider than the card
    return {head, metrics.elidedText(rest, Qt::ElideRight, width)};
}

QString NodeItem::toolTipFor(const Node& node)
{
    const QString id = QString::fromStdString(node.id.str());
    const QString idAndKind = id + " (" + QString::fromUtf8(toString(node.kind)) + ")";
    const QString name = QString::fromStdString(node.displayName());
    return name == id ? idAndKind : name + "\n" + idAndKind;
}

void NodeItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*)
{
    const Node* n = m_document->node(m_id);
    if (!n)
        return;
    const QPalette palette = scene()->palette();
    const QColor kindColour = KindStyle::colour(n->kind);
    const QRectF body(0, 0, kWidth, kHeight);
    const QPainterPath outline = KindStyle::shape(n->kind, body);
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    const double lod = QStyleOptionGraphicsItem::levelOfDetailFromTransform(p->worldTransform());
    const NodeDetail detail = detailFor(lod);

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

    if (detail == NodeDetail::Icon) {
        // Too far out for any text: the kind's glyph, large, says what the node is.
        const QRectF disc(kWidth / 2 - kIconDisc / 2, kHeight / 2 - kIconDisc / 2, kIconDisc, kIconDisc);
        p->setPen(Qt::NoPen);
        p->setBrush(kindColour);
        p->drawEllipse(disc);
        const double inset = kIconDisc * 0.23;
        KindStyle::paintGlyph(*p, n->kind, disc.adjusted(inset, inset, -inset, -inset), Qt::white);
    } else {
        paintTitle(p, *n, lod);
    }
    paintBadge(p, lod);
    paintCaption(p, lod);
}

void NodeItem::paintTitle(QPainter* p, const Node& node, double lod) const
{
    const NodeDetail detail = detailFor(lod);
    const QPalette palette = scene()->palette();
    const QString name = QString::fromStdString(node.displayName());
    const QStringList lines = titleLines(name, node.kind, lod);
    const QFont font = titleFont(lod);
    const QFontMetricsF metrics(font);
    const double width = titleWidth(node.kind, detail);
    if (detail == NodeDetail::Title) {
        // The title alone, centred on the card.
        const double left = titleInsets(node.kind).first;
        const double top = (kHeight - (lines.size() - 1) * metrics.lineSpacing() - metrics.height()) / 2;
        p->setFont(font);
        p->setPen(palette.color(QPalette::Text));
        for (int i = 0; i < lines.size(); ++i)
            p->drawText(QRectF(left, top + i * metrics.lineSpacing(), width, metrics.height()), Qt::AlignCenter,
                        lines[i]);
        return;
    }
    // Icon disc, title and subtitle.
    const double left = fullDiscLeft(node.kind);
    const QRectF discRect(left, (kHeight - kFullDisc) / 2, kFullDisc, kFullDisc);
    p->setPen(Qt::NoPen);
    p->setBrush(KindStyle::colour(node.kind));
    p->drawEllipse(discRect);
    KindStyle::paintGlyph(*p, node.kind, discRect.adjusted(6, 6, -6, -6), Qt::white);

    const double textLeft = fullTextLeft(node.kind);
    p->setPen(palette.color(QPalette::Text));
    p->setFont(font);
    p->drawText(QRectF(textLeft, 8, width, kHeight / 2 - 6), Qt::AlignLeft | Qt::AlignBottom, lines.value(0));
    const QFont subFont = textFont(kSubtitlePx);
    p->setFont(subFont);
    QColor muted = palette.color(QPalette::Text);
    muted.setAlphaF(0.65);
    p->setPen(muted);
    const QString sub = QFontMetricsF(subFont).elidedText(subtitle(node), Qt::ElideRight, width);
    p->drawText(QRectF(textLeft, kHeight / 2 + 1, width, kHeight / 2 - 8), Qt::AlignLeft | Qt::AlignTop, sub);
}

void NodeItem::paintBadge(QPainter* p, double lod) const
{
    const NodeDetail detail = detailFor(lod);
    const auto problems = m_document->problemsOf(m_id);
    if (problems.empty())
        return;
    bool error = false;
    for (const auto* problem : problems)
        error = error || problem->isError();
    // Sized by its count's text, which grows with the title; the colour alone
    // still tells error from warning when the count would be unreadable.
    const int px = detail == NodeDetail::Full ? kSubtitlePx : titlePx(lod);
    QFont font = textFont(px);
    font.setBold(true);
    const QString count = QString::number(problems.size());
    const double height = px * 1.8;
    const double width = std::max(height * 1.1, QFontMetricsF(font).horizontalAdvance(count) + px);
    const QRectF badge(kWidth - 3 - width / 2, -height / 2, width, height);
    p->setPen(QPen(scene()->palette().color(QPalette::Base), 2.0 * px / kSubtitlePx));
    p->setBrush(error ? QColor(0xdc, 0x26, 0x26) : QColor(0xea, 0xb3, 0x08));
    p->drawRoundedRect(badge, height / 2, height / 2);
    if (detail == NodeDetail::Icon)
        return;
    p->setFont(font);
    p->setPen(error ? Qt::white : Qt::black);
    p->drawText(badge, Qt::AlignCenter, count);
}

void NodeItem::paintCaption(QPainter* p, double lod) const
{
    const NodeDetail detail = detailFor(lod);
    // The run state's words under the node, as large as the card's smallest
    // text, so they read whenever the card's text does; the ring says the rest.
    if (m_runText.isEmpty() || detail == NodeDetail::Icon)
        return;
    const QFont font = textFont(detail == NodeDetail::Full ? kSubtitlePx : titlePx(lod));
    const QFontMetricsF metrics(font);
    const QRectF rect(-kCaptionOverhang, kHeight + 2, kWidth + 2 * kCaptionOverhang, metrics.height());
    p->setFont(font);
    p->setPen(m_runColour.value_or(scene()->palette().color(QPalette::Text)));
    p->drawText(rect, Qt::AlignCenter, metrics.elidedText(m_runText, Qt::ElideRight, rect.width()));
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
