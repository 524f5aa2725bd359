// TrialRecordBuilder: which tasks a judge scores (only those without a
// reference answer), a trial's agents from its run (busy time summed over a
// member's rounds, each call attempt apart), and scoring by reference.
#include <QtTest>

#include "conclave/experiment/TrialRecordBuilder.h"
#include "conclave/io/TeamJson.h"

#include <nlohmann/json.hpp>

using namespace conclave;

namespace {

Span span(SpanKind kind, const char* node, int64_t startUs, int64_t endUs, double costUsd = 0)
{
    Span s;
    s.kind = kind;
    s.node = NodeId(node);
    s.startUs = startUs;
    s.endUs = endUs;
    s.costUsd = costUsd;
    s.status = endUs < 0 ? Status::Running : Status::Ok;
    return s;
}

} // namespace

class TestTrialRecordBuilder : public QObject {
    Q_OBJECT

private slots:
    // docs/experiments.md: exact, numeric and choice tasks keep their scorer even when the
    // experiment has a judge; only a task with no reference is judged.
    void judges_data()
    {
        QTest::addColumn<QString>("answer");
        QTest::addColumn<QStringList>("choices");
        QTest::addColumn<bool>("tolerance");
        QTest::addColumn<bool>("judged");
        QTest::newRow("exact answer") << "Paris" << QStringList{} << false << false;
        QTest::newRow("numeric") << "3.14" << QStringList{} << true << false;
        QTest::newRow("choice") << "B" << QStringList{"A", "B"} << false << false;
        QTest::newRow("free text, no answer") << "" << QStringList{} << false << true;
    }

    void judges()
    {
        QFETCH(QString, answer);
        QFETCH(QStringList, choices);
        QFETCH(bool, tolerance);
        QFETCH(bool, judged);
        Task task;
        task.id = "t";
        task.answer = answer.toStdString();
        for (const auto& c : choices)
            task.choices.push_back(c.toStdString());
        if (tolerance)
            task.tolerance = 0.01;
        QCOMPARE(TrialRecordBuilder::judges(task), judged);
    }

    void agentsFromTheRun()
    {
        const auto loaded =
            teamFromJson(nlohmann::json{{"conclave", 1},
                                        {"name", "t"},
                                        {"backends", {{"local", {{"kind", "local-moe"}}}}},
                                        {"nodes",
                                         {{{"id", "in"}, {"kind", "input"}},
                                          {{"id", "talk"}, {"kind", "coordinator"}, {"mode", "round_robin"}},
                                          {{"id", "a"}, {"kind", "expert"}, {"model", "local/tiny-1b"}},
                                          {{"id", "out"}, {"kind", "output"}}}},
                                        {"edges",
                                         {{{"from", "in"}, {"to", "talk"}},
                                          {{"from", "talk"}, {"to", "a"}, {"role", "member"}},
                                          {{"from", "talk"}, {"to", "out"}}}}});
        QVERIFY(loaded.team);
        RunResult run;
        run.status = RunStatus::Ok;
        run.output.answer = "4";
        run.wallUs = 700;
        run.costUsd = 0.75;
        run.spans = {span(SpanKind::Node, "in", 0, 0),
                     span(SpanKind::Node, "talk", 50, 600),
                     span(SpanKind::Node, "a", 100, 300),          // round 1
                     span(SpanKind::Attempt, "a", 100, 150, 0.25), // failed and retried
                     span(SpanKind::Attempt, "a", 160, 300, 0.25),
                     span(SpanKind::Node, "a", 400, 500), // round 2
                     span(SpanKind::Attempt, "a", 400, 500, 0.25),
                     span(SpanKind::Attempt, "a", 550, -1), // never finished: no duration
                     span(SpanKind::Node, "out", 600, 600)};
        run.criticalPath.nodes = {NodeId("in"), NodeId("talk"), NodeId("out")};
        TrialRecord record;
        TrialRecordBuilder::fillFromRun(record, run, *loaded.team);
        QCOMPARE(record.answer, std::string("4"));
        QCOMPARE(int(record.agents.size()), 2); // input and output are not agents
        const auto& talk = record.agents[0];
        QCOMPARE(talk.node, std::string("talk"));
        QVERIFY(talk.onCriticalPath);
        QCOMPARE(talk.wallUs, int64_t(550));
        QVERIFY(talk.attemptsUs.empty()); // it calls no model
        const auto& a = record.agents[1];
        QCOMPARE(a.node, std::string("a"));
        QVERIFY(!a.onCriticalPath);
        QCOMPARE(a.wallUs, int64_t(300)); // busy: 200 + 100 over its two rounds
        QCOMPARE(a.attemptsUs, (std::vector<int64_t>{50, 140, 100}));
        QCOMPARE(a.costUsd, 0.75);
    }

    void scoreByReference()
    {
        Task task;
        task.id = "t";
        task.answer = "Paris";
        TrialRecord record;
        record.answer = "paris";
        TrialRecordBuilder::scoreByReference(record, task);
        QCOMPARE(record.correct, std::optional<bool>(true));
        record.status = RunStatus::Failed;
        TrialRecordBuilder::scoreByReference(record, task);
        QCOMPARE(record.correct, std::optional<bool>(false));
        QCOMPARE(record.scoreDetail, std::string("failed (failed)"));
    }
};

QTEST_GUILESS_MAIN(TestTrialRecordBuilder)
#include "tst_trialrecordbuilder.moc"
