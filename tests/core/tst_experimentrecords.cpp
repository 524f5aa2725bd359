// trialAgentsToJson / trialAgentsFromJson: a trial's agents as the store keeps
// them, each call attempt's duration included; rows written before attempts
// were kept, and hand-edited ones, still read.
#include <QtTest>

#include "conclave/store/ExperimentRecords.h"

using namespace conclave;

class TestExperimentRecords : public QObject {
    Q_OBJECT

private slots:
    void roundTrip()
    {
        const std::vector<TrialAgent> agents = {{"plan", true, 0.25, 1200, true, {800, 300}},
                                                {"vote", false, 0, 40, true, {}},
                                                {"spare", false, 0, 0, false, {}}};
        const auto json = trialAgentsToJson(agents);
        QCOMPARE(QString::fromStdString(json),
                 QStringLiteral(
                     R"([{"attempts_us":[800,300],"cost":0.25,"cp":true,"node":"plan","ran":true,"wall_us":1200},)"
                     R"({"cost":0.0,"cp":false,"node":"vote","ran":true,"wall_us":40},)"
                     R"({"cost":0.0,"cp":false,"node":"spare","ran":false,"wall_us":0}])"));
        const auto back = trialAgentsFromJson(json);
        QCOMPARE(int(back.size()), 3);
        QCOMPARE(back[0].node, std::string("plan"));
        QVERIFY(back[0].onCriticalPath);
        QCOMPARE(back[0].costUsd, 0.25);
        QCOMPARE(back[0].wallUs, int64_t(1200));
        QVERIFY(back[0].ran);
        QCOMPARE(back[0].attemptsUs, (std::vector<int64_t>{800, 300}));
        QVERIFY(back[1].attemptsUs.empty());
        QVERIFY(!back[2].ran);
    }

    // A row stored before "attempts_us" existed: everything else reads, and no attempts.
    void oldRowsReadWithoutAttempts()
    {
        const auto back =
            trialAgentsFromJson(R"([{"node": "a", "cp": true, "cost": 0.5, "wall_us": 900, "ran": true}])");
        QCOMPARE(int(back.size()), 1);
        QCOMPARE(back[0].node, std::string("a"));
        QCOMPARE(back[0].wallUs, int64_t(900));
        QVERIFY(back[0].attemptsUs.empty());
    }

    // Fields of the wrong type read as absent; a value in the list that is not a whole number is skipped.
    void wrongTypesReadAsAbsent()
    {
        const auto back = trialAgentsFromJson(
            R"([{"node": "a", "attempts_us": "many"}, {"node": "b", "attempts_us": [1, 2.5, "x", 4]}, 7])");
        QCOMPARE(int(back.size()), 2);
        QVERIFY(back[0].attemptsUs.empty());
        QCOMPARE(back[1].attemptsUs, (std::vector<int64_t>{1, 4}));
        QVERIFY(trialAgentsFromJson("not json").empty());
        QVERIFY(trialAgentsFromJson("{}").empty());
    }
};

QTEST_GUILESS_MAIN(TestExperimentRecords)
#include "tst_experimentrecords.moc"
