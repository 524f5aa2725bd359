// The canvas at every zoom: a node's level of detail (everything, the title
// alone and larger, or only its icon) switches exactly where its smallest text
// would drop under 8 px; titles are elided by the width they have, with the
// whole name in the tool tip; Fit to Window never picks a zoom at which titles
// do not read, and shows a team too large for it from its start.
#include <QtTest>

#include <QScrollBar>

#include "document/TeamDocument.h"
#include "editor/CanvasView.h"
#include "editor/KindStyle.h"
#include "editor/NodeItem.h"
#include "editor/TeamScene.h"

#include <QStandardPaths>

using namespace conclave;
using conclave::ui::CanvasView;
using conclave::ui::NodeDetail;
using conclave::ui::NodeItem;

Q_DECLARE_METATYPE(conclave::ui::NodeDetail)

namespace {

const QString kLongName = QStringLiteral("A specialist with a name far too long for any card to hold");

Node node(const char* id, NodeKind kind, double x, double y, const char* label = nullptr)
{
    Node n;
    n.id = NodeId(id);
    n.kind = kind;
    n.pos = Position{x, y};
    if (label)
        n.config.label = std::string(label);
    return n;
}

Edge edge(const std::string& from, const std::string& to)
{
    Edge e;
    e.from = NodeId(from);
    e.to = NodeId(to);
    return e;
}

// `columns` experts in a row from x = 220, each column `rows` high, after one
// input at the left, level with the middle of the columns.
Team grid(int columns, int rows)
{
    Team team;
    team.name = "grid";
    const double middle = (rows - 1) * 110 / 2.0;
    team.nodes.push_back(node("in", NodeKind::Input, 0, middle));
    for (int c = 0; c < columns; ++c) {
        for (int r = 0; r < rows; ++r) {
            const std::string id = "e" + std::to_string(c) + "_" + std::to_string(r);
            team.nodes.push_back(node(id.c_str(), NodeKind::Expert, 220.0 * (c + 1), 110.0 * r));
            team.edges.push_back(
                edge(c == 0 ? std::string("in") : "e" + std::to_string(c - 1) + "_" + std::to_string(r), id));
        }
    }
    return team;
}

// A team on a shown canvas of a given size.
struct Canvas {
    explicit Canvas(Team team, QSize size = {800, 600})
    {
        document.setTeam(std::move(team), QString());
        view.resize(size);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
    }
    ui::TeamDocument document;
    ui::TeamScene scene{&document};
    CanvasView view{&scene};

    NodeItem* item(const char* id) const { return scene.nodeItem(NodeId(id)); }
    QRectF card(const char* id) const
    {
        return item(id)->mapRectToScene(QRectF(0, 0, NodeItem::kWidth, NodeItem::kHeight));
    }
    QRectF visible() const { return view.mapToScene(view.viewport()->rect()).boundingRect(); }
    // Every top-level item, as Fit to Window frames them.
    QRectF bounds() const
    {
        QRectF b;
        for (auto* i : scene.items()) {
            if (!i->parentItem())
                b |= i->sceneBoundingRect();
        }
        return b;
    }
    QColor pixelAt(const QPointF& scenePos) const
    {
        const QImage image = view.viewport()->grab().toImage();
        return image.pixelColor(view.mapFromScene(scenePos));
    }
};

} // namespace

class TestCanvasLod : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void thresholdsComeFromTheFonts()
    {
        QCOMPARE(NodeItem::titleFont(1.0).pixelSize(), 13);
        QCOMPARE(NodeItem::titleFont(0.4).pixelSize(), 20);
        QVERIFY(NodeItem::titleFont(1.0).bold());
        QVERIFY(NodeItem::titleFont(0.4).bold());
        QCOMPARE(NodeItem::kFullDetailLod, 8.0 / 11.0);
        QCOMPARE(NodeItem::kTitleDetailLod, 0.4);
        QCOMPARE(NodeItem::kSubtitlePx * NodeItem::kFullDetailLod, 8.0);
        QCOMPARE(NodeItem::kLargeTitlePx * NodeItem::kTitleDetailLod, 8.0);
        QCOMPARE(CanvasView::minFitZoom(), NodeItem::kTitleDetailLod);
    }

    void detailFor_data()
    {
        QTest::addColumn<double>("lod");
        QTest::addColumn<NodeDetail>("detail");
        const double below = 1 - 1e-6;
        QTest::newRow("400%") << 4.0 << NodeDetail::Full;
        QTest::newRow("100%") << 1.0 << NodeDetail::Full;
        QTest::newRow("at full") << NodeItem::kFullDetailLod << NodeDetail::Full;
        QTest::newRow("just below full") << NodeItem::kFullDetailLod * below << NodeDetail::Title;
        QTest::newRow("62%") << 0.62 << NodeDetail::Title;
        QTest::newRow("at title") << NodeItem::kTitleDetailLod << NodeDetail::Title;
        QTest::newRow("just below title") << NodeItem::kTitleDetailLod * below << NodeDetail::Icon;
        QTest::newRow("34%") << 0.34 << NodeDetail::Icon;
        QTest::newRow("5%") << 0.05 << NodeDetail::Icon;
    }

    void detailFor()
    {
        QFETCH(double, lod);
        QFETCH(NodeDetail, detail);
        QCOMPARE(NodeItem::detailFor(lod), detail);
        // As the painter sees it: the zoom composed with a scroll and the node's position.
        const QTransform world = QTransform::fromTranslate(4321.7, -987.3) * QTransform::fromScale(lod, lod) *
                                 QTransform::fromTranslate(-123.45, 67.89);
        QCOMPARE(NodeItem::detailFor(world), detail);
    }

    void titlePx_data()
    {
        QTest::addColumn<double>("lod");
        QTest::addColumn<int>("px");
        QTest::newRow("100%") << 1.0 << 13;
        QTest::newRow("at full") << NodeItem::kFullDetailLod << 13;
        // Below Full the title keeps its size on screen (13 x 8/11 = 9.45 px)...
        QTest::newRow("just below full") << NodeItem::kFullDetailLod * (1 - 1e-6) << 13;
        QTest::newRow("62%") << 0.62 << 15; // 9.45 / 0.62 = 15.2
        QTest::newRow("50%") << 0.5 << 19;  // 18.9
        // ...up to 20 units, from where it shrinks to 8 px on screen at 40%.
        QTest::newRow("47%") << 0.47 << 20;
        QTest::newRow("at title") << NodeItem::kTitleDetailLod << 20;
    }

    void titlePx()
    {
        QFETCH(double, lod);
        QFETCH(int, px);
        QCOMPARE(NodeItem::titlePx(lod), px);
        QCOMPARE(NodeItem::titleFont(lod).pixelSize(), px);
        QVERIFY(px * lod >= NodeItem::kMinReadablePx);
    }

    void toolTipNamesTheNodeItsIdAndKind()
    {
        Team team;
        team.nodes = {node("intake", NodeKind::Router, 0, 0, "Single or compound?"),
                      node("in", NodeKind::Input, -220, 0), node("out", NodeKind::Output, 220, 0, "out")};
        QCOMPARE(NodeItem::toolTipFor(team.nodes[0]), QString("Single or compound?\nintake (router)"));
        QCOMPARE(NodeItem::toolTipFor(team.nodes[1]), QString("in (input)"));
        QCOMPARE(NodeItem::toolTipFor(team.nodes[2]), QString("out (output)"));
        Canvas c(std::move(team));
        QCOMPARE(c.item("intake")->toolTip(), QString("Single or compound?\nintake (router)"));
        QCOMPARE(c.item("in")->toolTip(), QString("in (input)"));
    }

    void titleWidths()
    {
        // Full: right of the 26-unit icon disc (12 or 16 from the left, 8 apart), 10 or 16 from the right.
        QCOMPARE(NodeItem::titleWidth(NodeKind::Expert, NodeDetail::Full), 160.0 - 12 - 26 - 8 - 10);
        QCOMPARE(NodeItem::titleWidth(NodeKind::Router, NodeDetail::Full), 160.0 - 16 - 26 - 8 - 16);
        QCOMPARE(NodeItem::titleWidth(NodeKind::Coordinator, NodeDetail::Full), 160.0 - 16 - 26 - 8 - 10);
        // Title: the card's width less its shape's ends.
        QCOMPARE(NodeItem::titleWidth(NodeKind::Expert, NodeDetail::Title), 140.0);
        QCOMPARE(NodeItem::titleWidth(NodeKind::Router, NodeDetail::Title), 134.0);
        QCOMPARE(NodeItem::titleWidth(NodeKind::Output, NodeDetail::Title), 128.0);
        QCOMPARE(NodeItem::titleWidth(NodeKind::Aggregator, NodeDetail::Title), 134.0);
        QCOMPARE(NodeItem::titleWidth(NodeKind::Expert, NodeDetail::Icon), 0.0);
    }

    void longTitlesAreElidedByWidth()
    {
        const double width = NodeItem::titleWidth(NodeKind::Expert, NodeDetail::Full);
        const QFontMetricsF full(NodeItem::titleFont(1.0));
        const QStringList lines = NodeItem::titleLines(kLongName, NodeKind::Expert, 1.0);
        QCOMPARE(lines, QStringList{full.elidedText(kLongName, Qt::ElideRight, width)});
        QVERIFY2(lines[0].endsWith(QChar(0x2026)), qPrintable(lines[0]));
        QVERIFY(lines[0].size() > 4); // by width, not a handful of characters
        QVERIFY(full.horizontalAdvance(lines[0]) <= width);
        QCOMPARE(NodeItem::titleLines("Math", NodeKind::Expert, 1.0), QStringList{"Math"});
        QCOMPARE(NodeItem::titleLines(kLongName, NodeKind::Expert, 0.3), QStringList());
    }

    void theTitleAloneWrapsOntoTwoLines_data()
    {
        QTest::addColumn<double>("lod");
        QTest::newRow("62%") << 0.62;
        QTest::newRow("at title") << NodeItem::kTitleDetailLod;
    }

    void theTitleAloneWrapsOntoTwoLines()
    {
        QFETCH(double, lod);
        const QFontMetricsF large(NodeItem::titleFont(lod));
        QCOMPARE(NodeItem::titleLines("Math", NodeKind::Expert, lod), QStringList{"Math"});
        const double width = NodeItem::titleWidth(NodeKind::Expert, NodeDetail::Title);
        const QStringList lines = NodeItem::titleLines(kLongName, NodeKind::Expert, lod);
        QCOMPARE(lines.size(), 2);
        QVERIFY(kLongName.startsWith(lines[0] + " "));
        QVERIFY(large.horizontalAdvance(lines[0] + " " + kLongName.mid(lines[0].size() + 1).section(' ', 0, 0)) >
                width); // the first line is as full as it can be
        QCOMPARE(lines[1], large.elidedText(kLongName.mid(lines[0].size() + 1), Qt::ElideRight, width));
        QVERIFY2(lines[1].endsWith(QChar(0x2026)), qPrintable(lines[1]));
        for (const QString& line : lines)
            QVERIFY2(large.horizontalAdvance(line) <= width, qPrintable(line));
        // One word wider than the card: one elided line.
        const QString word = QStringLiteral("Supercalifragilisticexpialidocious");
        QCOMPARE(NodeItem::titleLines(word, NodeKind::Expert, lod),
                 QStringList{large.elidedText(word, Qt::ElideRight, width)});
        // Two lines fit the card's height.
        QVERIFY(large.lineSpacing() + large.height() <= NodeItem::kHeight - 4);
    }

    void aTitleAloneBreaksBetweenWords()
    {
        QCOMPARE(NodeItem::titleLines("Single or compound?", NodeKind::Router, 0.62),
                 (QStringList{"Single or", "compound?"}));
        // Full detail: one line beside the icon, elided.
        const QFontMetricsF full(NodeItem::titleFont(1.0));
        QCOMPARE(NodeItem::titleLines("Single or compound?", NodeKind::Router, 1.0),
                 QStringList{full.elidedText("Single or compound?", Qt::ElideRight,
                                             NodeItem::titleWidth(NodeKind::Router, NodeDetail::Full))});
    }

    void farOutOnlyTheIconShows()
    {
        Team team;
        team.nodes = {node("math", NodeKind::Expert, 0, 0, "Math")};
        Canvas c(std::move(team));
        const QColor blue = ui::KindStyle::colour(NodeKind::Expert);
        // The centre of the card: the icon disc's colour only at Icon detail (the glyph's strokes are off-centre).
        const QPointF centre = c.card("math").center();
        for (const double zoom : {1.0, 0.6, 0.41}) {
            c.view.setZoom(zoom);
            c.view.centerOn(centre);
            QVERIFY2(c.pixelAt(centre) != blue, qPrintable(QString::number(zoom)));
        }
        c.view.setZoom(0.3);
        c.view.centerOn(centre);
        QCOMPARE(c.pixelAt(centre + QPointF(14, 0)), blue); // inside the 40-unit disc, clear of the glyph
    }

    void fitCapsASmallTeam()
    {
        Team team;
        team.nodes = {node("in", NodeKind::Input, 0, 0), node("out", NodeKind::Output, 220, 0)};
        team.edges = {edge("in", "out")};
        Canvas c(std::move(team));
        c.view.setZoom(0.1);
        QSignalSpy zoomed(&c.view, &CanvasView::zoomChanged);
        c.view.fitToTeam();
        QCOMPARE(c.view.zoom(), 1.25);
        QCOMPARE(zoomed.size(), 1);
        QCOMPARE(zoomed.at(0).at(0).toDouble(), 1.25);
        QVERIFY(c.visible().contains(c.bounds()));
    }

    // A fitted canvas stays fitted as it resizes (a run tab opening below it), until the user zooms or scrolls.
    void aFittedCanvasRefitsWhenResized()
    {
        Canvas c(grid(4, 2), {1000, 700});
        c.view.fitToTeam();
        const QRectF b = c.bounds();
        const double tall = c.view.zoom();
        c.view.resize(560, 700);
        QApplication::processEvents();
        const double shortZoom = CanvasView::fitZoom(c.view.viewport()->size(), b);
        QVERIFY2(shortZoom < tall, qPrintable(QString::number(shortZoom)));
        QCOMPARE(c.view.zoom(), shortZoom);
        QVERIFY(c.visible().contains(b));

        c.view.zoomBy(1.25); // the user's zoom now
        const double chosen = c.view.zoom();
        c.view.resize(1000, 700);
        QApplication::processEvents();
        QCOMPARE(c.view.zoom(), chosen);
        c.view.resize(560, 700);

        c.view.fitToTeam();
        emit c.view.verticalScrollBar()->actionTriggered(QAbstractSlider::SliderSingleStepAdd); // scrolled
        const double fitted = c.view.zoom();
        c.view.resize(1000, 700);
        QApplication::processEvents();
        QCOMPARE(c.view.zoom(), fitted);
    }

    void fitShowsAMidSizedTeamWhole()
    {
        Canvas c(grid(4, 2));
        c.view.fitToTeam();
        const QRectF b = c.bounds();
        const QSizeF v = c.view.viewport()->size();
        const double expected = std::min(v.width() / (b.width() + 80), v.height() / (b.height() + 80));
        QVERIFY2(expected > NodeItem::kTitleDetailLod && expected < 1.25, qPrintable(QString::number(expected)));
        QCOMPARE(c.view.zoom(), expected);
        QCOMPARE(CanvasView::fitZoom(v, b), expected);
        QVERIFY(c.visible().contains(b));
        QVERIFY(std::abs(c.visible().center().x() - b.center().x()) <= 1 / expected);
    }

    void fitNeverPicksAnUnreadableZoom()
    {
        Canvas c(grid(20, 1));
        c.view.setZoom(2.0);
        c.view.fitToTeam();
        const QRectF b = c.bounds();
        const QSizeF v = c.view.viewport()->size();
        QVERIFY(v.width() / (b.width() + 80) < 0.2); // the whole team would be at under 20%
        QCOMPARE(c.view.zoom(), NodeItem::kTitleDetailLod);
        // The flow's start is in view, titles readable; the far end is not.
        const QRectF visible = c.visible();
        QVERIFY(visible.contains(c.card("in")));
        QVERIFY(visible.contains(c.card("e0_0")));
        QVERIFY(!visible.intersects(c.card("e19_0")));
        QVERIFY(std::abs(visible.left() - (b.left() - CanvasView::kFitMargin)) <= 1 / c.view.zoom());
        QCOMPARE(NodeItem::detailFor(c.item("in")->deviceTransform(c.view.viewportTransform())), NodeDetail::Title);
        QCOMPARE(NodeItem::detailFor(c.item("e19_0")->deviceTransform(c.view.viewportTransform())), NodeDetail::Title);
    }

    void fitCentresATallTeamOnItsStart()
    {
        Canvas c(grid(12, 16));
        c.view.fitToTeam();
        QCOMPARE(c.view.zoom(), NodeItem::kTitleDetailLod);
        const QRectF visible = c.visible();
        QVERIFY(visible.height() < c.bounds().height());
        QVERIFY(visible.contains(c.card("in")));
        // Level with the input, the only node of the leftmost column.
        QVERIFY2(std::abs(visible.center().y() - c.card("in").center().y()) <= 1 / c.view.zoom(),
                 qPrintable(QString::number(visible.center().y())));
        QVERIFY(std::abs(visible.left() - (c.bounds().left() - CanvasView::kFitMargin)) <= 1 / c.view.zoom());
    }

    void zoomingStillGoesBelowTheFitFloor()
    {
        Canvas c(grid(20, 1));
        c.view.fitToTeam();
        c.view.zoomBy(0.5);
        QCOMPARE(c.view.zoom(), 0.2);
        c.view.setZoom(0.01);
        QCOMPARE(c.view.zoom(), 0.05);
        c.view.fitToTeam();
        QCOMPARE(c.view.zoom(), 0.4);
    }

    void anEmptyCanvasFitsAtActualSize()
    {
        Canvas c(Team{});
        c.view.setZoom(0.3);
        c.view.fitToTeam();
        QCOMPARE(c.view.zoom(), 1.0);
    }
};

QTEST_MAIN(TestCanvasLod)
#include "tst_canvaslod.moc"
