// CompareView: both timelines on one time axis (zooming one moves the other),
// the table of deltas, each run's critical path, and a screenshot that is not blank.
#include <QtTest>

#include "support/KnownRuns.h"

#include "timeline/CompareView.h"
#include "timeline/TimelineColours.h"
#include "timeline/StatusPalette.h"
#include "timeline/TimelineView.h"

#include <QTableView>

using namespace conclave;
using conclave::ui::CompareView;
using conclave::ui::StatusPalette;

class TestCompareView : public QObject {
    Q_OBJECT

private slots:
    void sharedAxis()
    {
        CompareView view;
        view.resize(1200, 800);
        view.setRuns(known_runs::review(), known_runs::review("run-b", 2));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* a = view.timelineA();
        auto* b = view.timelineB();
        QCOMPARE(a->viewStartUs(), b->viewStartUs());
        QCOMPARE(a->viewEndUs(), b->viewEndUs());
        QVERIFY(a->viewEndUs() >= 18600);
        a->setViewRange(1000, 5000);
        QCOMPARE(b->viewStartUs(), a->viewStartUs());
        QCOMPARE(b->viewEndUs(), a->viewEndUs());
        b->zoomAt(600, 2);
        QCOMPARE(a->viewStartUs(), b->viewStartUs());
        QCOMPARE(a->viewEndUs(), b->viewEndUs());
    }

    void tableAndCriticalPaths()
    {
        CompareView view;
        view.setRuns(known_runs::review(), known_runs::review("run-b", 2));
        QCOMPARE(view.table()->model()->rowCount(), 8);
        QCOMPARE(view.criticalPathText(0), QString("in → panel → join → out"));
        QCOMPARE(view.criticalPathText(1), QString("in → panel → join → out"));
    }

    void clickingAnAgentSelectsItInBoth()
    {
        CompareView view;
        view.resize(1200, 800);
        view.setRuns(known_runs::review(), known_runs::review("run-b", 2));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* a = view.timelineA();
        const auto& vp = a->viewport();
        const QPoint at(int(vp.xOf(6000)), vp.laneTop(4) + 10); // panel
        QSignalSpy clicked(a, &conclave::ui::TimelineView::spanClicked);
        QTest::mouseClick(a, Qt::LeftButton, {}, at);
        QCOMPARE(clicked.size(), 1);
        const QImage image = view.timelineB()->grab().toImage();
        int selected = 0;
        for (int y = 0; y < image.height(); ++y)
            selected += image.pixelColor(5, y).rgb() == ui::TimelineColours::of(QApplication::palette()).selected.rgb();
        QVERIFY(selected > 10);
    }

    void screenshotIsNotBlank()
    {
        CompareView view;
        view.resize(1200, 800);
        view.setRuns(known_runs::review(), known_runs::review("run-b", 2));
        view.show();
        const QImage image = view.grab().toImage();
        int ok = 0, cancelled = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                const QRgb c = image.pixel(x, y);
                ok += c == StatusPalette::color(Status::Ok).rgb();
                cancelled += c == StatusPalette::color(Status::Cancelled).rgb();
            }
        }
        QVERIFY(ok > 1000);
        QVERIFY(cancelled > 200);
    }
};

QTEST_MAIN(TestCompareView)
#include "tst_compareview.moc"
