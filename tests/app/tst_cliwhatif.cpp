// `conclave whatif`: a stored run projected from its own calls, as a user
// types it; the rules and exact walls are tested in tests/core/tst_whatif.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "support/CliProcess.h"

class TestCliWhatIf : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_run;

    QString db() const { return m_dir.filePath("runs.sqlite"); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const auto r = testsupport::runConclave(
            {"run", CONCLAVE_RESOURCES "/examples/triage.team.json", "--input", "What is 17 * 23?", "--db", db()});
        QCOMPARE(r.exitCode, 0);
        const auto match = QRegularExpression("^run ([0-9a-f]{12}): ok").match(r.out);
        QVERIFY2(match.hasMatch(), qPrintable(r.out));
        m_run = match.captured(1);
    }

    void withNoChangeTheRunIsReproduced()
    {
        const auto r = testsupport::runConclave({"whatif", m_run, "--db", db()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("\nchanges: none\nwall: 50.225 s → 50.225 s (saves 0.000 s, 0.0 %)\n"), qPrintable(r.out));
        QVERIFY(r.out.contains("\ndecisions changed: none\n"));
        QVERIFY(r.out.endsWith("a projection: the run's recorded calls on the simulated clock, not a new measurement\n"));
    }

    void aSpeedUpOnTheCriticalPathSaves()
    {
        const auto r = testsupport::runConclave({"whatif", m_run, "--db", db(), "--speed", "planner=-50%", "--json"});
        QCOMPARE(r.exitCode, 0);
        const auto report = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(report["run"].toString(), m_run);
        QCOMPARE(report["changes"].toArray().first().toString(), QString("planner: -50%"));
        QCOMPARE(report["wall_ms"].toObject()["before"].toDouble(), 50225.182);
        QCOMPARE(report["wall_ms"].toObject()["after"].toDouble(), 30852.189);
        QCOMPARE(report["saved_ms"].toDouble(), 19372.993);
    }

    void theProfileRanksTheAgents()
    {
        const auto r = testsupport::runConclave({"whatif", m_run, "--db", db(), "--profile"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("\nout of 50.225 s, making planner 50 % faster saves 19.373 s (38.6 %); sub_math: "
                                "5.487 s; intake: 0.066 s\n"),
                 qPrintable(r.out));
        QVERIFY(r.out.contains("\nplanner       3.875 s      9.686 s     19.373 s     38.746 s\n"));
        const auto both = testsupport::runConclave({"whatif", m_run, "--db", db(), "--profile", "--speed", "a=x2"});
        QCOMPARE(both.exitCode, 2);
        QVERIFY2(both.err.startsWith("--speed excludes --profile"), qPrintable(both.err));
    }

    void badInputSaysWhere()
    {
        auto r = testsupport::runConclave({"whatif", m_run, "--db", db(), "--speed", "planner=fast"});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, QString("whatif: --speed planner: expected -N%, xF, -Nms or =Nms (e.g. -30%, x0.5, -200ms, "
                                "=300ms), got \"fast\"\n"));
        r = testsupport::runConclave({"whatif", m_run, "--db", db(), "--backend", "local.max_concurrency=none"});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, QString("whatif: --backend local.max_concurrency: expected a whole number from 1 to 1000000, "
                                "got \"none\"\n"));
        r = testsupport::runConclave({"whatif", m_run, "--db", db(), "--speed", "nope=x0.5"});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, "whatif: --speed nope: no node \"nope\" in the team of run " + m_run + "\n");
    }

    void aSwappedModelIsSimulated()
    {
        auto r = testsupport::runConclave({"whatif", m_run, "--db", db(), "--model", "planner=local/math-13b"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("\nchanges: planner: model local/reasoner-34b → local/math-13b\n"
                                "wall: 50.225 s → 33.887 s (saves 16.338 s, 32.5 %)\n"),
                 qPrintable(r.out));
        QVERIFY(r.out.contains("\ncalls: 2 replayed from the run, 2 simulated (the run did not make them or cut them "
                               "short: the simulator answered)\n"));
        r = testsupport::runConclave({"whatif", m_run, "--db", db(), "--model", "planner=gpt-5"});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, QString("whatif: --model planner=gpt-5: the simulator has no profile of model \"gpt-5\" "
                                "(backend \"local\"): give one in --models-file (conclave calibrate writes one from "
                                "measured runs)\n"));
        r = testsupport::runConclave({"whatif", "--db", db()});
        QCOMPARE(r.exitCode, 2);
        QCOMPARE(r.err, QString("whatif: give a run (RUN_ID), or --experiment ID --design NAME --profile\n"));
    }

    // A design's profile over an experiment's trials: with no change, each trial replays as measured,
    // so the profile's p50 wall is the experiment's own.
    void aDesignsProfileStartsFromTheMeasuredWalls()
    {
        auto r = testsupport::runConclave({"eval", CONCLAVE_RESOURCES "/examples/keyword-vote.team.json", "--taskset",
                                           "mixed-small", "--db", db(), "--json"});
        QCOMPARE(r.exitCode, 0);
        const auto report = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const auto id = report["experiment_id"].toString();
        QVERIFY2(!id.isEmpty(), qPrintable(r.out.left(400)));
        const auto design = report["designs"].toArray().first().toObject();
        const auto name = design["name"].toString();
        r = testsupport::runConclave(
            {"whatif", "--experiment", id, "--design", name, "--profile", "--db", db(), "--json"});
        QCOMPARE(r.exitCode, 0);
        const auto profile = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(profile["trials"].toInt(), 25);
        QCOMPARE(profile["design"].toString(), name);
        // The profile keeps whole µs.
        const auto us = [](const QJsonObject& o, const char* key) { return qRound64(o["wall_ms"].toObject()[key].toDouble() * 1000); };
        QCOMPARE(us(profile, "p50"), us(design, "p50"));
        QCOMPARE(us(profile, "p95"), us(design, "p95"));
        QVERIFY(profile["agents"].toArray().size() >= 2);
        r = testsupport::runConclave({"whatif", "--experiment", id, "--db", db(), "--profile"});
        QCOMPARE(r.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliWhatIf)
#include "tst_cliwhatif.moc"
