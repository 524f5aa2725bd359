// TimelineView: draws the known run with its status colours, the critical
// path and the playhead; clicks select, wheel and rubber band zoom, hover text.
#include <QtTest>

#include "support/KnownRuns.h"
#include "support/QtStrings.h"

#include "timeline/StatusPalette.h"
#include "timeline/TimelineColours.h"
#include "timeline/TimelineView.h"

using namespace conclave;
using conclave::ui::StatusPalette;
using conclave::ui::TimelineModel;
using conclave::ui::TimelineView;
using conclave::ui::TimelineViewport;

namespace {

int countColour(const QImage& image, const QColor& colour)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            n += image.pixelColor(x, y).rgb() == colour.rgb();
    return n;
}

QPoint pointOf(const TimelineView& view, const char* node, int64_t atUs)
{
    const auto& vp = view.viewport();
    const int lane = view.model()->laneOf(NodeId(node));
    return {int(vp.xOf(atUs)), vp.laneTop(lane) + TimelineViewport::kLaneHeight / 2};
}

} // namespace

class TestTimelineView : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TimelineView> makeView()
    {
        auto view = std::make_unique<TimelineView>();
        view->resize(1000, 300);
        view->setModel(std::make_shared<const TimelineModel>(known_runs::review()));
        view->show();
        return view;
    }

private slots:
    void drawsBarsInStatusColours()
    {
        auto view = makeView();
        const QImage image = view->grab().toImage();
        QCOMPARE(image.size(), QSize(1000, 300));
        QVERIFY(countColour(image, StatusPalette::color(Status::Ok)) > 500);
        QVERIFY(countColour(image, StatusPalette::color(Status::Failed)) > 100);    // a's first attempt
        QVERIFY(countColour(image, StatusPalette::color(Status::Cancelled)) > 100); // b
        QVERIFY(countColour(image, StatusPalette::criticalPath().darker(115)) > 50);
        QCOMPARE(countColour(image, StatusPalette::playhead()), 0);
    }

    void thePlayheadIsDrawnAndRunningBarsShowIt()
    {
        auto view = makeView();
        view->setPlayhead(4050);
        QCOMPARE(view->playhead(), int64_t(4050));
        const QImage image = view->grab().toImage();
        QVERIFY(countColour(image, StatusPalette::playhead()) > 100);
        QVERIFY(countColour(image, StatusPalette::color(Status::Running)) > 100);
    }

    void clickingABarEmitsItsNode()
    {
        auto view = makeView();
        QSignalSpy clicked(view.get(), &TimelineView::spanClicked);
        QTest::mouseClick(view.get(), Qt::LeftButton, {}, pointOf(*view, "panel", 6000));
        QCOMPARE(clicked.size(), 1);
        QCOMPARE(q(clicked[0][0].value<NodeId>().str()), QString("panel"));
        QTest::mouseClick(view.get(), Qt::LeftButton, {}, pointOf(*view, "spare", 6000));
        QCOMPARE(clicked.size(), 1); // an empty lane
    }

    void hoverTextDescribesTheBar()
    {
        auto view = makeView();
        const int bar = view->barAt(pointOf(*view, "a", 3000));
        QVERIFY(bar >= 0);
        const QString text = view->tooltipText(bar);
        QVERIFY2(text.contains("<b>Expert A</b> (a)"), qPrintable(text));
        QVERIFY2(text.contains("model: local/tiny-1b"), qPrintable(text));
        QVERIFY2(text.contains("start: 100 µs"), qPrintable(text));
        QVERIFY2(text.contains("duration: 5.00 ms"), qPrintable(text));
        QVERIFY2(text.contains("time to first token: 2.40 ms"), qPrintable(text));
        QVERIFY2(text.contains("attempts: 2"), qPrintable(text));
        QVERIFY2(text.contains("tokens: 100 in, 50 out"), qPrintable(text));
        QVERIFY2(text.contains("cost: $0.0100"), qPrintable(text));
        QVERIFY2(text.contains("status: done"), qPrintable(text));
        const QString b = view->tooltipText(view->barAt(pointOf(*view, "b", 1000)));
        QVERIFY2(b.contains("status: cancelled"), qPrintable(b));
        const QString panel = view->tooltipText(view->barAt(pointOf(*view, "panel", 1000)));
        QVERIFY2(panel.contains("critical path"), qPrintable(panel));
    }

    void hoverTextShowsTheNotes()
    {
        // An adaptive meeting's rounds note their decisions; a node's own span may note one too.
        auto run = known_runs::review();
        run.spans[7].note = "ask m1: 1 of 2 agree, confidence 0.40 < 0.70"; // round 1
        run.spans[10].note = "stop: 2 of 3 agree (consensus 0.60)";         // round 2
        run.spans[13].note = "skipped_model: agreement (a, b)";             // join
        auto view = std::make_unique<TimelineView>();
        view->resize(1000, 300);
        view->setModel(std::make_shared<const TimelineModel>(std::move(run)));
        view->show();
        const QString panel = view->tooltipText(view->barAt(pointOf(*view, "panel", 1000)));
        QVERIFY2(panel.endsWith("<br>round 1: ask m1: 1 of 2 agree, confidence 0.40 &lt; 0.70"
                                "<br>round 2: stop: 2 of 3 agree (consensus 0.60)"),
                 qPrintable(panel));
        QVERIFY2(!panel.contains("note:"), qPrintable(panel));
        const QString join = view->tooltipText(view->barAt(pointOf(*view, "join", 9150)));
        QVERIFY2(join.endsWith("<br>note: skipped_model: agreement (a, b)"), qPrintable(join));
        // No note, no line.
        const QString a = view->tooltipText(view->barAt(pointOf(*view, "a", 3000)));
        QVERIFY2(!a.contains("note") && !a.contains("round 1:"), qPrintable(a));
    }

    void wheelZoomsAtTheCursorAndDoubleClickFits()
    {
        auto view = makeView();
        const int64_t start = view->viewStartUs(), end = view->viewEndUs();
        QSignalSpy ranges(view.get(), &TimelineView::viewRangeChanged);
        const QPoint at = pointOf(*view, "a", 4000);
        const int64_t before = view->viewport().usAt(at.x());
        QWheelEvent wheel(at, view->mapToGlobal(at), {}, QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(view.get(), &wheel);
        QCOMPARE(ranges.size(), 1);
        QVERIFY(view->viewEndUs() - view->viewStartUs() < (end - start) * 2 / 3);
        QVERIFY(std::abs(view->viewport().usAt(at.x()) - before) <= 20);
        QTest::mouseDClick(view.get(), Qt::LeftButton, {}, at);
        QCOMPARE(view->viewStartUs(), start);
        QCOMPARE(view->viewEndUs(), end);
    }

    void rubberBandZoomsToTheRange()
    {
        auto view = makeView();
        const QPoint from = pointOf(*view, "a", 2000), to = pointOf(*view, "a", 4000);
        QTest::mousePress(view.get(), Qt::RightButton, {}, from);
        QMouseEvent move(QEvent::MouseMove, QPointF(to), view->mapToGlobal(QPointF(to)), Qt::NoButton, Qt::RightButton,
                         Qt::NoModifier);
        QApplication::sendEvent(view.get(), &move);
        QTest::mouseRelease(view.get(), Qt::RightButton, {}, to);
        QVERIFY(std::abs(view->viewStartUs() - 2000) <= 20);
        QVERIFY(std::abs(view->viewEndUs() - 4000) <= 20);
    }

    void dragPans()
    {
        auto view = makeView();
        view->setViewRange(2000, 4000);
        const QPoint from = pointOf(*view, "a", 3000);
        QTest::mousePress(view.get(), Qt::LeftButton, {}, from);
        const QPoint to = from - QPoint(100, 0);
        QMouseEvent move(QEvent::MouseMove, QPointF(to), view->mapToGlobal(QPointF(to)), Qt::NoButton, Qt::LeftButton,
                         Qt::NoModifier);
        QApplication::sendEvent(view.get(), &move);
        QTest::mouseRelease(view.get(), Qt::LeftButton, {}, to);
        QVERIFY(view->viewStartUs() > 2000);
    }

    void selectNodeHighlightsItsLane()
    {
        auto view = makeView();
        view->selectNode(NodeId("m1"));
        const QImage image = view->grab().toImage();
        QVERIFY(countColour(image, ui::TimelineColours::of(QApplication::palette()).selected) > 500);
        view->selectNode(NodeId("nobody"));
        QCOMPARE(countColour(view->grab().toImage(), ui::TimelineColours::of(QApplication::palette()).selected), 0);
    }

    // The lanes follow the theme: on a dark palette they are its base colour, not a light grey.
    void lanesFollowTheTheme()
    {
        auto view = makeView();
        QPalette dark = view->palette();
        dark.setColor(QPalette::Base, QColor(0x1e, 0x22, 0x28));
        dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
        view->setPalette(dark);
        const auto colours = ui::TimelineColours::of(dark);
        QCOMPARE(colours.lane.name(), QString("#1e2228"));
        const QImage image = view->grab().toImage();
        const int below = view->model()->laneCount() * TimelineViewport::kLaneHeight + 4; // under the last lane
        QVERIFY(below < image.height());
        QCOMPARE(image.pixelColor(image.width() - 3, below).name(), colours.lane.name());
        QCOMPARE(countColour(image, QColor(0xfa, 0xfa, 0xfa)), 0); // the light theme's lanes
    }
};

QTEST_MAIN(TestTimelineView)
#include "tst_timelineview.moc"
