// The what-if's latency changes (LatencyChange, SpeedChanges): what
// `--speed NODE=CHANGE` reads, and what each form does to a call's times.
#include <QtTest>

#include "conclave/whatif/LatencyChange.h"
#include "conclave/whatif/SpeedChanges.h"

using namespace conclave;

class TestLatencyChange : public QObject {
    Q_OBJECT

private slots:
    void eachFormChangesACallKeepingItsShape_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<qint64>("firstToken");
        QTest::addColumn<qint64>("done");
        QTest::addColumn<qint64>("newFirstToken");
        QTest::addColumn<qint64>("newDone");
        QTest::addColumn<QString>("text");
        QTest::newRow("30 % faster") << "-30%" << qint64(200000) << qint64(1000000) << qint64(140000)
                                     << qint64(700000) << "-30%";
        QTest::newRow("instant") << "-100%" << qint64(200000) << qint64(1000000) << qint64(0) << qint64(0) << "-100%";
        QTest::newRow("half") << "x0.5" << qint64(200001) << qint64(1000001) << qint64(100001) << qint64(500001)
                              << "x0.5";
        QTest::newRow("slower") << "x2" << qint64(-1) << qint64(300000) << qint64(-1) << qint64(600000) << "x2";
        QTest::newRow("200 ms off") << "-200ms" << qint64(250000) << qint64(1000000) << qint64(200000)
                                    << qint64(800000) << "-200ms";
        QTest::newRow("not below 0") << "-2s" << qint64(250000) << qint64(1000000) << qint64(0) << qint64(0)
                                     << "-2s";
        QTest::newRow("set") << "=300ms" << qint64(500000) << qint64(1000000) << qint64(150000) << qint64(300000)
                             << "=300ms";
        QTest::newRow("set an instant call") << "=1.5s" << qint64(0) << qint64(0) << qint64(1500000)
                                             << qint64(1500000) << "=1.5s";
        QTest::newRow("a timeout stays one") << "x0.5" << qint64(400000) << qint64(-1) << qint64(400000)
                                             << qint64(-1) << "x0.5";
    }
    void eachFormChangesACallKeepingItsShape()
    {
        QFETCH(QString, change);
        QFETCH(qint64, firstToken);
        QFETCH(qint64, done);
        QFETCH(qint64, newFirstToken);
        QFETCH(qint64, newDone);
        QFETCH(QString, text);
        std::string error;
        const auto parsed = LatencyChange::parse(change.toStdString(), error);
        QVERIFY2(parsed, error.c_str());
        const auto times = parsed->apply({firstToken, done});
        QCOMPARE(qint64(times.firstTokenUs), newFirstToken);
        QCOMPARE(qint64(times.doneUs), newDone);
        QCOMPARE(QString::fromStdString(parsed->text()), text);
        const auto again = LatencyChange::parse(parsed->text(), error);
        QVERIFY(again && again->kind() == parsed->kind() && again->factor() == parsed->factor() &&
                again->us() == parsed->us());
    }

    void fasterIsTheProfilesPercent()
    {
        QCOMPARE(LatencyChange::faster(25).factor(), 0.75);
        QCOMPARE(QString::fromStdString(LatencyChange::faster(25).text()), QString("-25%"));
        QCOMPARE(LatencyChange::faster(100).factor(), 0.0);
        QCOMPARE(LatencyChange::faster(10).apply({-1, 1000000}).doneUs, int64_t(900000));
    }

    void badChangesSayWhatWasExpected_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("error");
        const QString expected = "expected -N%, xF, -Nms or =Nms (e.g. -30%, x0.5, -200ms, =300ms), got ";
        QTest::newRow("a word") << "fast" << expected + "\"fast\"";
        QTest::newRow("empty") << "" << expected + "\"\"";
        QTest::newRow("no unit") << "-200" << expected + "\"-200\"";
        QTest::newRow("a negative factor") << "x-1" << expected + "\"x-1\"";
        QTest::newRow("a slow-down in percent") << "+30%" << expected + "\"+30%\"";
        QTest::newRow("trailing text") << "x0.5s" << expected + "\"x0.5s\"";
        QTest::newRow("a factor too large") << "x1e300" << "a call can be at most 1000 times slower, got \"x1e300\"";
        QTest::newRow("more than instant") << "-120%"
                                           << "a call cannot be more than 100 % faster (instant), got \"-120%\"";
    }
    void badChangesSayWhatWasExpected()
    {
        QFETCH(QString, change);
        QFETCH(QString, error);
        std::string why;
        QVERIFY(!LatencyChange::parse(change.toStdString(), why));
        QCOMPARE(QString::fromStdString(why), error);
    }

    void aNodesChangeAppliesToEveryCallItMakes()
    {
        SpeedChanges changes;
        std::string error;
        QVERIFY(changes.add("mid=-50%", error));
        QVERIFY(changes.add("lead.v2==300ms", error)); // ids may hold dots; "==" sets a time
        QCOMPARE(changes.byNode().size(), size_t(2));
        QCOMPARE(changes.byNode().at(NodeId("lead.v2")).us(), int64_t(300000));
        const auto retime = changes.retiming();
        ModelRequest request;
        request.salt = "mid";
        QCOMPARE(retime(request, {100, 1000}).doneUs, int64_t(500));
        request.salt = "mid#2#1"; // a member's second round, first subtask
        QCOMPARE(retime(request, {100, 1000}).firstTokenUs, int64_t(50));
        request.salt = "lead.v2#plan#1";
        QCOMPARE(retime(request, {-1, 1000}).doneUs, int64_t(300000));
        request.salt = "middle"; // another node: as recorded
        QCOMPARE(retime(request, {100, 1000}).doneUs, int64_t(1000));
        QVERIFY(!SpeedChanges().retiming());
    }

    void badAssignmentsSayWhere_data()
    {
        QTest::addColumn<QString>("assignment");
        QTest::addColumn<QString>("error");
        QTest::newRow("no node") << "-30%" << "expected NODE=CHANGE (e.g. mid=-30%), got \"-30%\"";
        QTest::newRow("an empty node") << "=x0.5" << "expected NODE=CHANGE (e.g. mid=-30%), got \"=x0.5\"";
        QTest::newRow("a bad change") << "mid=fast"
                                      << "mid: expected -N%, xF, -Nms or =Nms (e.g. -30%, x0.5, -200ms, =300ms), got "
                                         "\"fast\"";
        QTest::newRow("twice") << "a=x0.5" << "a: changed twice";
    }
    void badAssignmentsSayWhere()
    {
        QFETCH(QString, assignment);
        QFETCH(QString, error);
        SpeedChanges changes;
        std::string why;
        QVERIFY(changes.add("a=-10%", why));
        QVERIFY(!changes.add(assignment.toStdString(), why));
        QCOMPARE(QString::fromStdString(why), error);
    }
};

QTEST_GUILESS_MAIN(TestLatencyChange)
#include "tst_latencychange.moc"
