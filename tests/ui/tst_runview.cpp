// RunView: the header, the timeline and the summary of a run, and a
// screenshot that shows the bars in their status colours.
#include <QtTest>

#include "support/KnownRuns.h"

#include "timeline/RunSummaryView.h"
#include "timeline/RunView.h"
#include "timeline/StatusPalette.h"
#include "timeline/TimelineView.h"

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
