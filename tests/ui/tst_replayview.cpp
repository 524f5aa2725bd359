// ReplayView: scrubbing moves the timeline's playhead and the state table
// shows each agent's state at that instant; the screenshot shows them.
#include <QtTest>

#include "support/KnownRuns.h"

#include "timeline/ReplayView.h"
#include "timeline/StatusPalette.h"
#include "timeline/TimelineView.h"

#include <QTableWidget>

using namespace conclave;
using conclave::ui::ReplayView;
using conclave::ui::StatusPalette;

class TestReplayView : public QObject {
    Q_OBJECT

private slots:
    void scrubShowsTheStatesAtThatInstant()
    {
        ReplayView view;
        view.setRun(known_runs::review());
        view.controller()->seek(4050);
        QCOMPARE(view.timeline()->playhead(), int64_t(4050));
        QStringList states;
        for (int row = 0; row < view.states()->rowCount(); ++row)
            states << view.states()->item(row, 0)->text() + "=" + view.states()->item(row, 1)->text();
        QCOMPARE(states, QStringList({"in=done", "Expert A=running", "b=cancelled", "spare=skipped", "panel=running",
                                      "m1=done", "join=queued", "out=queued"}));
        QCOMPARE(view.states()->item(1, 1)->background().color(), StatusPalette::color(Status::Running));
    }

    void screenshotAtAnInstant()
    {
        ReplayView view;
        view.resize(1400, 700);
        view.setRun(known_runs::review());
        view.controller()->seek(4050);
        view.show();
        const QImage image = view.grab().toImage();
        int playhead = 0, running = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                const QRgb c = image.pixel(x, y);
                playhead += c == StatusPalette::playhead().rgb();
                running += c == StatusPalette::color(Status::Running).rgb();
            }
        }
        QVERIFY(playhead > 100);
        QVERIFY(running > 500);
    }
};

QTEST_MAIN(TestReplayView)
#include "tst_replayview.moc"
