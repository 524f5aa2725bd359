// RunView: the header, the timeline and the summary of a run, a run shown
// live frame by frame, and a screenshot that shows the bars in their status
// colours.
#include <QtTest>

#include "support/KnownRuns.h"

#include "timeline/RunSummaryView.h"
#include "timeline/RunView.h"
#include "timeline/StatusPalette.h"
#include "timeline/TimelineView.h"

#include <QLabel>
#include <QTabWidget>

using namespace conclave;
using conclave::ui::RunView;
using conclave::ui::StatusPalette;

class TestRunView : public QObject {
    Q_OBJECT

private slots:
    void showsTheRun()
    {
        RunView view;
        view.setRun(known_runs::review());
        QCOMPARE(view.timelineModel()->laneCount(), 8);
        QCOMPARE(view.timeline()->model(), view.timelineModel().get());
        QCOMPARE(view.summary()->figure("wall"), QString("9.30 ms"));
        QCOMPARE(RunView::headerText(view.timelineModel()->run()),
                 QString("<b>review</b> · run run-a · ok · seed 7 · <i>What is 2 + 2?</i>"));
    }

    void shortViewsAreCompact();

    void liveExtent_data()
    {
        QTest::addColumn<qint64>("wallUs");
        QTest::addColumn<qint64>("extentUs");
        QTest::newRow("start") << qint64(0) << qint64(100'000);
        QTest::newRow("90 ms") << qint64(90'000) << qint64(100'000);
        QTest::newRow("91 ms") << qint64(91'000) << qint64(200'000);
        QTest::newRow("0.9 s") << qint64(900'000) << qint64(1'000'000);
        QTest::newRow("0.95 s") << qint64(950'000) << qint64(2'000'000);
        QTest::newRow("4 s") << qint64(4'000'000) << qint64(5'000'000);
        QTest::newRow("5 s") << qint64(5'000'000) << qint64(10'000'000);
    }

    void liveExtent()
    {
        QFETCH(qint64, wallUs);
        QFETCH(qint64, extentUs);
        QCOMPARE(RunView::liveExtentUs(wallUs), int64_t(extentUs));
    }

    // Frames of a run still going: the user's range and selected lane stay; setRun ends it.
    void liveFramesKeepWhatTheUserChose()
    {
        RunView view;
        view.resize(1400, 900);
        view.show();
        StoredRun frame = known_runs::review();
        frame.summary.status = RunStatus::Running;
        view.showLive(frame, true);
        QVERIFY(view.isLive());
        QVERIFY(view.timeline()->isFitted());
        QCOMPARE(view.summary()->figure("status"), QString("running"));
        const auto* header = view.findChild<QLabel*>(QString(), Qt::FindDirectChildrenOnly);
        QVERIFY(header && header->text().contains(" · running · "));
        view.timeline()->selectNode(NodeId("b"));
        view.timeline()->setViewRange(1000, 5000);
        frame.summary.wallUs = 12'000;
        view.showLive(frame, false);
        QCOMPARE(view.timelineModel()->endUs(), int64_t(12'000));
        QCOMPARE(view.timeline()->viewStartUs(), int64_t(1000));
        QCOMPARE(view.timeline()->viewEndUs(), int64_t(5000));
        QCOMPARE(view.timeline()->selectedLane(), view.timelineModel()->laneOf(NodeId("b")));
        QCOMPARE(view.summary()->figure("wall"), QString("9.30 ms")); // not asked to follow
        view.showLive(frame, true);
        QCOMPARE(view.summary()->figure("wall"), QString("12.0 ms"));

        view.setRun(known_runs::review());
        QVERIFY(!view.isLive());
        QVERIFY(view.timeline()->isFitted());
        QCOMPARE(view.timeline()->selectedLane(), -1);
        QCOMPARE(view.summary()->figure("status"), QString("ok"));
    }

    void screenshotShowsStatusColours()
    {
        RunView view;
        view.resize(1400, 900);
        view.setRun(known_runs::review());
        view.show();
        const QImage image = view.grab().toImage();
        QCOMPARE(image.size(), QSize(1400, 900));
        int ok = 0, failed = 0, cancelled = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                const QRgb c = image.pixel(x, y);
                ok += c == StatusPalette::color(Status::Ok).rgb();
                failed += c == StatusPalette::color(Status::Failed).rgb();
                cancelled += c == StatusPalette::color(Status::Cancelled).rgb();
            }
        }
        QVERIFY(ok > 1000);
        QVERIFY(failed > 100);
        QVERIFY(cancelled > 100);
    }
};

// The lanes of a short run view are never squeezed: below the height its
// lanes and its summary need together, the two become tabs, and every lane
// of the 8-lane run shows without scrolling; tall again, they stand together.
void TestRunView::shortViewsAreCompact()
{
    RunView view;
    view.resize(1000, 900);
    view.setRun(known_runs::review());
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(!view.isCompact());
    QVERIFY(view.summary()->isVisible());
    QVERIFY(view.timeline()->height() >= 8 * 26);

    view.resize(1000, 330);
    QVERIFY(view.isCompact());
    auto* pages = view.findChild<QTabWidget*>("runPages");
    QVERIFY(pages && pages->isVisible());
    QCOMPARE(pages->count(), 2);
    QCOMPARE(pages->tabText(0), QString("Timeline"));
    QCOMPARE(pages->tabText(1), QString("Summary"));
    QVERIFY(view.timeline()->isVisible());
    QVERIFY(!view.summary()->isVisible());
    QVERIFY2(view.timeline()->height() >= 8 * 26, qPrintable(QString::number(view.timeline()->height())));
    QCOMPARE(view.summary()->figure("wall"), QString("9.30 ms"));

    view.resize(1000, 900);
    QVERIFY(!view.isCompact());
    QVERIFY(!pages->isVisible());
    QVERIFY(view.summary()->isVisible());
    QVERIFY(view.timeline()->isVisible());
    QVERIFY(view.timeline()->height() >= 8 * 26);
}

QTEST_MAIN(TestRunView)
#include "tst_runview.moc"
