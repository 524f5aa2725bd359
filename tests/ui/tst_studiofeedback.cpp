// The studio's one channel back to the user: status messages with their
// timeouts, whether dialogs may be shown, the last error.
#include <QtTest>

#include "studio/StatusTimeouts.h"
#include "studio/StudioFeedback.h"

using conclave::ui::StudioFeedback;
namespace StatusTimeouts = conclave::ui::StatusTimeouts;

class TestStudioFeedback : public QObject {
    Q_OBJECT

private slots:
    void startsInteractiveWithNoError()
    {
        StudioFeedback feedback;
        QVERIFY(feedback.isInteractive());
        QCOMPARE(feedback.lastError(), QString());
    }

    // The values the window used before they had names: changing one changes what the user sees.
    void aStatusMessageCarriesItsTimeout_data()
    {
        QTest::addColumn<int>("timeout");
        QTest::addColumn<int>("ms");
        QTest::newRow("until replaced") << StatusTimeouts::kUntilReplaced << 0;
        QTest::newRow("progress") << StatusTimeouts::kProgress << 3000;
        QTest::newRow("edit note") << StatusTimeouts::kEditNote << 4000;
        QTest::newRow("file done") << StatusTimeouts::kFileDone << 5000;
        QTest::newRow("needs input") << StatusTimeouts::kNeedsInput << 6000;
        QTest::newRow("run store done") << StatusTimeouts::kRunStoreDone << 6000;
        QTest::newRow("canvas guide") << StatusTimeouts::kCanvasGuide << 8000;
        QTest::newRow("request failed") << StatusTimeouts::kRequestFailed << 8000;
        QTest::newRow("run refused") << StatusTimeouts::kRunRefused << 10000;
    }

    void aStatusMessageCarriesItsTimeout()
    {
        QFETCH(int, timeout);
        QFETCH(int, ms);
        QCOMPARE(timeout, ms);
        StudioFeedback feedback;
        QSignalSpy spy(&feedback, &StudioFeedback::statusMessage);
        feedback.showStatus("Saved a.team.json", timeout);
        QCOMPARE(spy.size(), 1);
        QCOMPARE(spy.at(0).at(0).toString(), QString("Saved a.team.json"));
        QCOMPARE(spy.at(0).at(1).toInt(), ms);
    }

    void aMessageWithoutATimeoutStaysUntilReplaced()
    {
        StudioFeedback feedback;
        QSignalSpy spy(&feedback, &StudioFeedback::statusMessage);
        feedback.showStatus("Running…");
        QCOMPARE(spy.size(), 1);
        QCOMPARE(spy.at(0).at(1).toInt(), 0);
    }

    void keepsTheLastErrorAndTheInteractiveFlag()
    {
        StudioFeedback feedback;
        feedback.setInteractive(false);
        feedback.setLastError("line 1\nline 2");
        QVERIFY(!feedback.isInteractive());
        QCOMPARE(feedback.lastError(), QString("line 1\nline 2"));
        feedback.setLastError({});
        QCOMPARE(feedback.lastError(), QString());
    }
};

QTEST_MAIN(TestStudioFeedback)
#include "tst_studiofeedback.moc"
