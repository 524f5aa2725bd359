// TimeAxisView: the QtCharts axis over the lanes. Its range follows the
// timeline's zoom and pan exactly (with nice 1-2-5 ticks in s, ms or µs),
// setting its range moves the timeline, its plot area is the bars' area so a
// span's bar starts at the axis's x for its start and the grid continues its
// ticks, one axis drives both runs of a compare, and as a ruler it seeks.
#include <QtTest>

#include "support/KnownRuns.h"

#include "timeline/CompareView.h"
#include "timeline/ReplayView.h"
#include "timeline/StatusPalette.h"
#include "timeline/TimeAxisView.h"
#include "timeline/TimelineColours.h"
#include "timeline/TimelineView.h"

#include <QVBoxLayout>
#include <QValueAxis>

using namespace conclave;
using conclave::ui::StatusPalette;
using conclave::ui::TimeAxisView;
using conclave::ui::TimelineModel;
using conclave::ui::TimelineView;
using conclave::ui::TimelineViewport;

namespace {

// An axis over a timeline, both 1000 px wide: the plot is 850 px from x = 150.
struct Lanes {
    QWidget host;
    TimeAxisView* axis;
    TimelineView* timeline;

    explicit Lanes(StoredRun run)
    {
        auto* layout = new QVBoxLayout(&host);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setSpacing(0);
        axis = new TimeAxisView(&host);
        timeline = new TimelineView(&host);
        layout->addWidget(axis);
        layout->addWidget(timeline, 1);
        axis->attach(timeline);
        timeline->setModel(std::make_shared<const TimelineModel>(std::move(run)));
        host.resize(1000, 300 + TimeAxisView::kHeight);
        host.show();
    }
};

int firstColumnOf(const QImage& image, int y, const QColor& colour, int from)
{
    for (int x = from; x < image.width(); ++x) {
        if (image.pixelColor(x, y).rgb() == colour.rgb())
            return x;
    }
    return -1;
}

} // namespace

class TestTimeAxisView : public QObject {
    Q_OBJECT

private slots:
    void theAxisFollowsAZoom()
    {
        Lanes lanes(known_runs::review());
        QVERIFY(QTest::qWaitForWindowExposed(&lanes.host));
        QCOMPARE(lanes.timeline->viewport().plotWidth(), 850);
        QValueAxis* axis = lanes.axis->axis();

        lanes.timeline->setViewRange(2000, 4000);
        QCOMPARE(axis->min(), 2.0); // ms: a 500 µs step is in ms
        QCOMPARE(axis->max(), 4.0);
        QCOMPARE(axis->tickInterval(), 0.5);
        QCOMPARE(axis->tickAnchor(), 0.0);
        QVERIFY(axis->tickType() == QValueAxis::TicksDynamic);
        QCOMPARE(axis->labelFormat(), QString("%.1f ms"));
        QCOMPARE(lanes.axis->startUs(), int64_t(2000));
        QCOMPARE(lanes.axis->endUs(), int64_t(4000));

        lanes.timeline->zoomAt(575, 2); // about 3000 µs, at the plot's centre
        QCOMPARE(lanes.timeline->viewStartUs(), int64_t(2500));
        QCOMPARE(lanes.timeline->viewEndUs(), int64_t(3500));
        QCOMPARE(axis->min(), 2.5);
        QCOMPARE(axis->max(), 3.5);
        QCOMPARE(axis->tickInterval(), 0.2);

        // The wheel over the axis zooms the timeline at the cursor.
        const QPointF at(575, 10);
        QWheelEvent wheel(at, lanes.axis->mapToGlobal(at), {}, QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(lanes.axis->viewport(), &wheel);
        QCOMPARE(lanes.timeline->viewStartUs(), int64_t(2600));
        QCOMPARE(lanes.timeline->viewEndUs(), int64_t(3400));
        QCOMPARE(axis->min(), 2.6);
        QCOMPARE(axis->max(), 3.4);

        lanes.timeline->fitAll(); // 2% margins: [-186, 9486] µs
        QCOMPARE(axis->min(), -0.186);
        QCOMPARE(axis->max(), 9.486);
        QCOMPARE(axis->tickInterval(), 2.0);
        QCOMPARE(axis->labelFormat(), QString("%.0f ms"));
    }

    void theUnitFollowsTheZoom()
    {
        Lanes lanes(known_runs::review("run-s", 1000)); // 9.3 s
        QVERIFY(QTest::qWaitForWindowExposed(&lanes.host));
        QValueAxis* axis = lanes.axis->axis();
        QCOMPARE(axis->min(), -0.186);
        QCOMPARE(axis->max(), 9.486);
        QCOMPARE(axis->tickInterval(), 2.0);
        QCOMPARE(axis->labelFormat(), QString("%.0f s"));
        lanes.timeline->setViewRange(2'000'000, 2'000'850); // 1 µs per pixel
        QCOMPARE(axis->min(), 2000.0);
        QCOMPARE(axis->max(), 2000.85);
        QCOMPARE(axis->tickInterval(), 0.1);
        QCOMPARE(axis->labelFormat(), QString("%.1f ms"));
        lanes.timeline->setViewRange(2'000'000, 2'000'085);
        QCOMPARE(axis->min(), 2'000'000.0);
        QCOMPARE(axis->max(), 2'000'085.0);
        QCOMPARE(axis->tickInterval(), 10.0);
        QCOMPARE(axis->labelFormat(), QString("%.0f µs"));
    }

    void settingTheAxisRangeMovesTheTimeline()
    {
        Lanes lanes(known_runs::review());
        QVERIFY(QTest::qWaitForWindowExposed(&lanes.host));
        QSignalSpy ranges(lanes.timeline, &TimelineView::viewRangeChanged);
        lanes.axis->axis()->setRange(3.0, 5.0); // ms
        QCOMPARE(ranges.size(), 1);
        QCOMPARE(lanes.timeline->viewStartUs(), int64_t(3000));
        QCOMPARE(lanes.timeline->viewEndUs(), int64_t(5000));
        QVERIFY(!lanes.timeline->isFitted());
        // Far wider than the timeline zooms out to: both take the clamped range.
        lanes.axis->axis()->setRange(-50.0, 100.0);
        QCOMPARE(lanes.timeline->viewStartUs(), int64_t(-1860));
        QCOMPARE(lanes.timeline->viewEndUs(), int64_t(35340));
        QCOMPARE(lanes.axis->axis()->min(), -1.86);
        QCOMPARE(lanes.axis->axis()->max(), 35.34);
    }

    void barsLineUpWithTheAxis()
    {
        Lanes lanes(known_runs::review());
        QVERIFY(QTest::qWaitForWindowExposed(&lanes.host));
        lanes.timeline->setViewRange(0, 8500); // 10 µs per pixel
        const auto& vp = lanes.timeline->viewport();
        // The chart's plot area is the bars' area.
        QCOMPARE(lanes.axis->chart()->plotArea().left(), 150.0);
        QCOMPARE(lanes.axis->chart()->plotArea().width(), 850.0);
        // Expert A's bar starts at 100 µs: x 160 for the chart and for the bars.
        QCOMPARE(lanes.axis->xOf(100), 160.0);
        QCOMPARE(vp.xOf(100), 160.0);
        QCOMPARE(lanes.axis->usAt(160), int64_t(100));
        QCOMPARE(lanes.axis->mapTo(&lanes.host, QPoint(160, 0)).x(),
                 lanes.timeline->mapTo(&lanes.host, QPoint(160, 0)).x());
        // Its body (above its attempts) covers the columns 160 to 659: it ends at 5100 µs, x 660.
        const QImage bars = lanes.timeline->grab().toImage();
        const int y = vp.laneTop(lanes.timeline->model()->laneOf(NodeId("a"))) + 5;
        const QColor body = StatusPalette::color(Status::Ok).lighter(150);
        QCOMPARE(firstColumnOf(bars, y, body, 0), 160);
        QCOMPARE(bars.pixelColor(659, y).rgb(), body.rgb());
        QVERIFY(bars.pixelColor(660, y).rgb() != body.rgb());
        QCOMPARE(lanes.axis->xOf(5100), 660.0);

        // The grid in the lanes continues the axis's ticks (1 ms apart: every 100 px).
        const QImage axis = lanes.axis->grab().toImage();
        const int strip = TimeAxisView::kHeight - 3;
        // One grid colour, the theme's (TimelineColours), in both.
        const QColor axisGrid = ui::TimelineColours::of(lanes.axis->palette()).grid;
        const QColor laneGrid = ui::TimelineColours::of(lanes.timeline->palette()).grid;
        const int spare = vp.laneTop(lanes.timeline->model()->laneOf(NodeId("spare"))) + 2; // a lane with no bars
        for (const int x : {150, 250, 550, 950}) {
            QCOMPARE(axis.pixelColor(x, strip).rgb(), axisGrid.rgb());
            QCOMPARE(bars.pixelColor(x, spare).rgb(), laneGrid.rgb());
        }
        QVERIFY(axis.pixelColor(200, strip).rgb() != axisGrid.rgb());
    }

    void oneAxisDrivesBothRunsOfACompare()
    {
        ui::CompareView view;
        view.resize(1200, 800);
        view.setRuns(known_runs::review(), known_runs::review("run-b", 2));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* axis = view.axis();
        auto* a = view.timelineA();
        auto* b = view.timelineB();
        a->setViewRange(1000, 5000);
        QCOMPARE(axis->startUs(), int64_t(1000));
        QCOMPARE(axis->endUs(), int64_t(5000));
        QCOMPARE(b->viewStartUs(), int64_t(1000));
        QCOMPARE(b->viewEndUs(), int64_t(5000));
        axis->axis()->setRange(2.0, 3.0);
        QCOMPARE(a->viewStartUs(), int64_t(2000));
        QCOMPARE(b->viewStartUs(), int64_t(2000));
        QCOMPARE(a->viewEndUs(), int64_t(3000));
        QCOMPARE(b->viewEndUs(), int64_t(3000));
        // The same time is the same x in the window for the axis and both runs' bars.
        const double x = axis->mapTo(&view, QPointF(axis->xOf(2500), 0)).x();
        QCOMPARE(a->mapTo(&view, QPointF(a->viewport().xOf(2500), 0)).x(), x);
        QCOMPARE(b->mapTo(&view, QPointF(b->viewport().xOf(2500), 0)).x(), x);
    }

    void theReplayRulerSeeks()
    {
        ui::ReplayView view;
        view.resize(1400, 700);
        view.setRun(known_runs::review());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* ruler = view.ruler();
        auto* timeline = view.timeline();
        view.controller()->seek(4050);
        QCOMPARE(ruler->playhead(), qint64(4050));
        const int plot = timeline->viewport().plotWidth();
        timeline->setViewRange(0, 5 * plot); // 5 µs per pixel
        const int x = qRound(ruler->xOf(2000));
        QCOMPARE(ruler->xOf(2000), double(x));
        QTest::mouseClick(ruler->viewport(), Qt::LeftButton, {}, QPoint(x, 10));
        QCOMPARE(view.controller()->position(), int64_t(2000));
        QCOMPARE(timeline->playhead(), int64_t(2000));
        QCOMPARE(ruler->playhead(), qint64(2000));
        // Dragging along it scrubs.
        QMouseEvent move(QEvent::MouseMove, QPointF(x + 100, 10), ruler->viewport()->mapToGlobal(QPointF(x + 100, 10)),
                         Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(ruler->viewport(), &move);
        QCOMPARE(view.controller()->position(), int64_t(2500));
        const QImage image = ruler->grab().toImage();
        int playhead = 0;
        for (int y = 0; y < image.height(); ++y)
            playhead += image.pixelColor(x + 100, y).rgb() == StatusPalette::playhead().rgb();
        QVERIFY(playhead > 5);
    }
};

QTEST_MAIN(TestTimeAxisView)
#include "tst_timeaxisview.moc"
