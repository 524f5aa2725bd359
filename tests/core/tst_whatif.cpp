// The what-if (WhatIf, SpeedChanges, WhatIfReport): a stored run re-run on
// the simulated clock from its own calls, some nodes' latencies changed, on
// teams whose walls are known by hand (the test models answer after exact
// latencies), and the timing rules deciding again.
#include <QtTest>

#include "support/EngineTestKit.h"
#include "support/WhatIfTeams.h"

#include "conclave/store/RunQueries.h"
#include "conclave/store/SqliteDb.h"
#include "conclave/whatif/WhatIf.h"

#include <QTemporaryDir>

using namespace conclave;
using namespace enginetest;

namespace {

std::vector<Span> attemptsOf(const std::vector<Span>& spans, const std::string& node)
{
    std::vector<Span> out;
    for (const auto& s : spans)
        if (s.kind == SpanKind::Attempt && s.node == NodeId(node))
            out.push_back(s);
    return out;
}

QString joined(const std::vector<std::string>& lines)
{
    QStringList out;
    for (const auto& l : lines)
        out << QString::fromStdString(l);
    return out.join(" | ");
}

// A profile row's p50 walls at 10, 25, 50 and 100 % faster.
std::array<int64_t, 4> p50s(const SpeedupProfile::Row& row)
{
    return {row.wall[0].p50, row.wall[1].p50, row.wall[2].p50, row.wall[3].p50};
}

int64_t endOf(const RunResult& r, const std::string& node)
{
    int64_t end = 0;
    for (const auto& s : attemptsOf(r.spans, node))
        end = std::max(end, s.endUs);
    return end;
}

} // namespace

class TestWhatIf : public QObject {
    Q_OBJECT

    EngineHarness m_h;
    QTemporaryDir m_dir;
    std::string m_db;
    RunResult m_original;
    RunId m_id;

    // Records `team` on kMath, then projects it with `speeds` ("NODE=CHANGE").
    std::optional<WhatIfReport> project(const TeamBuilder& builder, const QStringList& speeds, std::string& error)
    {
        std::string problems;
        const auto team = builder.build(problems);
        if (!team) {
            error = problems;
            return std::nullopt;
        }
        m_id = m_h.record(m_db, *team, kMath, m_original);
        if (m_id.empty()) {
            error = "not recorded";
            return std::nullopt;
        }
        return projectStored(m_id.str(), speeds, error);
    }
    // Each of `speeds` is NODE=CHANGE, or NAME.max_concurrency=N when it has no '=' before a '.'.
    std::optional<WhatIfReport> projectStored(const std::string& run, const QStringList& speeds, std::string& error)
    {
        WhatIfChanges changes;
        for (const auto& s : speeds)
            if (!(s.contains(".max_concurrency=") ? changes.addBackend(s.toStdString(), error)
                                                  : changes.speeds.add(s.toStdString(), error)))
                return std::nullopt;
        const auto whatIf = load(run, error);
        return whatIf ? whatIf->project(changes, error) : std::nullopt;
    }
    std::optional<WhatIf> load(const std::string& run, std::string& error)
    {
        auto reader = RunQueries::open(m_db, error);
        if (!reader)
            return std::nullopt;
        return WhatIf::load(m_h.engine(), *reader, run, error);
    }
    // Records `team` on kMath and profiles it.
    std::optional<SpeedupProfile> profile(const TeamBuilder& builder, std::string& error)
    {
        std::string problems;
        const auto team = builder.build(problems);
        m_id = team ? m_h.record(m_db, *team, kMath, m_original) : RunId();
        const auto whatIf = m_id.empty() ? std::nullopt : load(m_id.str(), error);
        return whatIf ? whatIf->profile(error) : std::nullopt;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_h.init());
        m_db = m_dir.filePath("runs.sqlite").toStdString();
    }

    void aChainsWallChangesByExactlyTheChange_data()
    {
        QTest::addColumn<QStringList>("speeds");
        QTest::addColumn<qint64>("wall");
        QTest::newRow("no change") << QStringList{} << qint64(1300000);
        QTest::newRow("b twice as fast") << QStringList{"b=x0.5"} << qint64(1150000);
        QTest::newRow("a instant") << QStringList{"a=-100%"} << qint64(300000);
        QTest::newRow("200 ms off each") << QStringList{"a=-200ms", "b=-200ms"} << qint64(900000);
        QTest::newRow("b set to 500 ms") << QStringList{"b==500ms"} << qint64(1500000);
    }
    void aChainsWallChangesByExactlyTheChange()
    {
        QFETCH(QStringList, speeds);
        QFETCH(qint64, wall);
        std::string error;
        const auto report = project(chain(), speeds, error);
        QVERIFY2(report, error.c_str());
        QCOMPARE(report->wallBefore, int64_t(1300000));
        QCOMPARE(m_original.wallUs, int64_t(1300000));
        QCOMPARE(qint64(report->wallAfter), wall);
        QCOMPARE(q(report->answerAfter), q(report->answerBefore));
        QVERIFY(report->decisions().empty());
        QCOMPARE(report->replayedCalls, int64_t(2));
        QCOMPARE(report->simulatedCalls, int64_t(0));
        QCOMPARE(report->costAfter, report->costBefore);
    }

    void theReportSaysWhatChangedAndThatItIsAProjection()
    {
        std::string error;
        const auto report = project(chain(), {"b=x0.5"}, error);
        QVERIFY2(report, error.c_str());
        QCOMPARE(q(report->text()),
                 q("what-if of run " + m_id.str() +
                   " (test), projected on the simulated clock from its own calls\n"
                   "changes: b: x0.5\n"
                   "wall: 1.300 s → 1.150 s (saves 0.150 s, 11.5 %)\n"
                   "critical path: in → a → b → out\n"
                   "decisions changed: none\n"
                   "node ends (before → after):\n"
                   "  b: 1.300 s → 1.150 s\n"
                   "  out: 1.300 s → 1.150 s\n"
                   "calls: 2 replayed from the run\n"
                   "a projection: the run's recorded calls on the simulated clock, not a new measurement\n"));
        const auto j = report->json();
        QCOMPARE(j["saved_ms"].get<double>(), 150.0);
        QCOMPARE(j["wall_ms"]["after"].get<double>(), 1150.0);
        QCOMPARE(j["changes"][0].get<std::string>(), std::string("b: x0.5"));
    }

    // Speeding up the branch that decides the quorum moves it; the slowest
    // branch, cancelled when recorded, goes on as the simulator draws it
    // (its model takes 1 s) and decides the quorum once it comes second.
    void aQuorumIsDecidedAgain()
    {
        std::string error;
        auto report = project(quorum(), {"mid=-50%"}, error);
        QVERIFY2(report, error.c_str());
        QCOMPARE(report->wallBefore, int64_t(300000));
        QCOMPARE(report->wallAfter, int64_t(150000));
        QCOMPARE(endOf(m_original, "mid"), int64_t(300000));
        QCOMPARE(statusOf(m_original, "slow"), QString("cancelled"));
        QCOMPARE(report->cutShortCalls, int64_t(1));
        QCOMPARE(report->cutShortAgain, int64_t(1));
        QCOMPARE(report->simulatedCalls, int64_t(0));
        QVERIFY2(q(report->text()).contains(
                     "\ncalls: 2 replayed from the run, 1 cut short\n1 call was cut short when recorded (cancelled or "
                     "timed out): it goes on with a latency drawn from the simulator's profile, longer than it was "
                     "served, unless cut short again\n"),
                 report->text().c_str());

        report = projectStored(m_id.str(), {"slow=-90%"}, error);
        QVERIFY2(report, error.c_str());
        QCOMPARE(report->wallAfter, int64_t(100000)); // slow: 1 s × 0.1, with fast
        QCOMPARE(report->simulatedCalls, int64_t(1));
        QCOMPARE(report->replayedCalls, int64_t(1)); // fast; mid is cancelled now
        QCOMPARE(report->cutShortAgain, int64_t(1));
        QCOMPARE(report->replayedShare(), 0.5);
        QCOMPARE(joined(report->decisions()),
                 QString("mid: ok → cancelled | slow: cancelled → ok | vote: quorum now reached at 0.100 s by fast, "
                         "slow; mid cancelled (was 0.300 s by fast, mid)"));

        report = projectStored(m_id.str(), {"fast==2000ms"}, error);
        QVERIFY2(report, error.c_str());
        QCOMPARE(report->wallAfter, int64_t(1000000)); // mid at 0.3 s, slow at 1 s; fast cancelled
        QCOMPARE(joined(report->decisions()),
                 QString("fast: ok → cancelled | slow: cancelled → ok | vote: quorum now reached at 1.000 s by mid, "
                         "slow; fast cancelled (was 0.300 s by fast, mid)"));
    }

    // A swapped model's calls are the simulator's, with that model's profile.
    void aSwappedModelIsSimulated()
    {
        std::string error;
        QVERIFY2(project(chain(), {}, error), error.c_str());
        auto whatIf = load(m_id.str(), error);
        QVERIFY2(whatIf, error.c_str());
        WhatIfChanges changes;
        QVERIFY(changes.addModel("b=right-100", error));
        const auto report = whatIf->project(changes, error);
        QVERIFY2(report, error.c_str());
        QCOMPARE(report->wallAfter, int64_t(1100000));
        QCOMPARE(report->replayedCalls, int64_t(1));
        QCOMPARE(report->simulatedCalls, int64_t(1));
        QCOMPARE(q(report->changes.at(0)), QString("b: model right-300 → right-100"));
        QVERIFY2(q(report->text()).contains("\ncalls: 1 replayed from the run, 1 simulated (the run did not make it "
                                            "or cut it short: the simulator answered)\n"),
                 report->text().c_str());
        const auto projected = whatIf->projection(changes, error);
        QVERIFY(projected);
        const auto b = attemptsOf(projected->spans, "b");
        QCOMPARE(b.size(), size_t(1));
        QCOMPARE(q(b[0].note), q("simulated: not in run " + m_id.str()));
        QCOMPARE(q(b[0].model), QString("right-100"));

        WhatIfChanges unknown;
        QVERIFY(unknown.addModel("b=gpt-x", error));
        QVERIFY(!whatIf->project(unknown, error));
        QCOMPARE(q(error), QString("--model b=gpt-x: the simulator has no profile of model \"gpt-x\" (backend "
                                   "\"local\"): give one in --models-file (conclave calibrate writes one from "
                                   "measured runs)"));
        WhatIfChanges input;
        QVERIFY(input.addModel("in=right", error));
        QVERIFY(!whatIf->project(input, error));
        QCOMPARE(q(error), QString("--model in: node \"in\" calls no model"));
        QVERIFY(!changes.addModel("b=right", error));
        QCOMPARE(q(error), QString("b: model changed twice"));
        QVERIFY(!changes.addModel("b=", error));
        QCOMPARE(q(error), QString("expected NODE=MODEL, got \"b=\""));
    }

    // A cascade that escalates once: each member's time adds up; a confident first model swapped in
    // ends it there, and the second is no longer asked.
    void aCascadeThatEscalatesAddsItsMembersTimes_data()
    {
        QTest::addColumn<QStringList>("speeds");
        QTest::addColumn<qint64>("wall");
        QTest::newRow("no change") << QStringList{} << qint64(450000);
        QTest::newRow("first twice as fast") << QStringList{"first=x0.5"} << qint64(375000);
        QTest::newRow("second instant") << QStringList{"second=-100%"} << qint64(150000);
        QTest::newRow("the unasked third") << QStringList{"third=-90%"} << qint64(450000);
    }
    void aCascadeThatEscalatesAddsItsMembersTimes()
    {
        QFETCH(QStringList, speeds);
        QFETCH(qint64, wall);
        std::string error;
        const auto report = project(cascade(), speeds, error);
        QVERIFY2(report, error.c_str());
        QCOMPARE(m_original.wallUs, int64_t(450000));
        QCOMPARE(statusOf(m_original, "third"), QString("skipped"));
        QCOMPARE(qint64(report->wallAfter), wall);
        QVERIFY(report->decisions().empty());
    }
    void aCascadesProfileAndModelSwap()
    {
        std::string error;
        const auto p = profile(cascade(), error);
        QVERIFY2(p, error.c_str());
        QCOMPARE(p->rows.size(), size_t(2)); // the third made no call
        QCOMPARE(q(p->rows[0].node.str()), QString("second"));
        QCOMPARE(p50s(p->rows[0]), (std::array<int64_t, 4>{420000, 375000, 300000, 150000}));
        QCOMPARE(q(p->rows[1].node.str()), QString("first"));
        QCOMPARE(p50s(p->rows[1]), (std::array<int64_t, 4>{435000, 412500, 375000, 300000}));

        auto whatIf = load(m_id.str(), error);
        QVERIFY2(whatIf, error.c_str());
        WhatIfChanges swap;
        QVERIFY(swap.addModel("first=sure-100", error));
        const auto report = whatIf->project(swap, error);
        QVERIFY2(report, error.c_str());
        QCOMPARE(report->wallAfter, int64_t(100000));
        QCOMPARE(report->simulatedCalls, int64_t(1));
        QCOMPARE(report->replayedCalls, int64_t(0));
        QCOMPARE(joined(report->decisions()), QString("first: answer \"78\" → \"783\" | second: ok → skipped"));
    }

    // A call slowed past its node's timeout now times out: the decision flips and is reported.
    void aTimeoutThatNowFiresIsReportedAsChanged()
    {
        TeamBuilder b(1.0);
        b.expert("e", "right-300", json{{"timeout_ms", 500}}).edge("in", "e").output("e");
        std::string error;
        const auto report = project(b, {"e=x2"}, error);
        QVERIFY2(report, error.c_str());
        QCOMPARE(q(std::string(toString(report->statusBefore))), QString("ok"));
        QCOMPARE(report->wallAfter, int64_t(500000)); // the timeout, not the 600 ms the call would take
        const auto decisions = report->decisions();
        QVERIFY(!decisions.empty());
        QCOMPARE(q(decisions.front()), QString("e: ok → timeout"));
    }

    // The causal profile of a chain: each agent saves exactly its own share of its time.
    void aChainsProfileIsEachAgentsOwnTime()
    {
        std::string error;
        const auto p = profile(chain(), error);
        QVERIFY2(p, error.c_str());
        QCOMPARE(p->wall.p50, int64_t(1300000));
        QCOMPARE(p->wall.p95, int64_t(1300000));
        QCOMPARE(p->rows.size(), size_t(2));
        QCOMPARE(q(p->rows[0].node.str()), QString("a"));
        QCOMPARE(p50s(p->rows[0]), (std::array<int64_t, 4>{1200000, 1050000, 800000, 300000}));
        QCOMPARE(q(p->rows[1].node.str()), QString("b"));
        QCOMPARE(p50s(p->rows[1]), (std::array<int64_t, 4>{1270000, 1225000, 1150000, 1000000}));
        QCOMPARE(q(p->headline()), QString("out of 1.300 s, making a 50 % faster saves 0.500 s (38.5 %); b: 0.150 s"));
    }

    // A quorum's profile: the expert that decides it saves at every level; the
    // fastest cannot (the quorum still waits for the second answer), nor the
    // cancelled one until it is fast enough to be the second answer.
    void aQuorumsProfileRanksTheExpertThatDecidesIt()
    {
        std::string error;
        const auto p = profile(quorum(), error);
        QVERIFY2(p, error.c_str());
        QCOMPARE(p->wall.p50, int64_t(300000));
        QCOMPARE(p->rows.size(), size_t(3));
        QCOMPARE(q(p->rows[0].node.str()), QString("mid"));
        QCOMPARE(p50s(p->rows[0]), (std::array<int64_t, 4>{270000, 225000, 150000, 100000}));
        QCOMPARE(p50s(p->rows[1]), (std::array<int64_t, 4>{300000, 300000, 300000, 300000}));
        // The cancelled one goes on as the simulator draws it (1 s): only instant does it decide the quorum,
        // with the fastest, at 0.1 s.
        QCOMPARE(p50s(p->rows[2]), (std::array<int64_t, 4>{300000, 300000, 300000, 100000}));
        QCOMPARE(q(p->rows[1].node.str() + " " + p->rows[2].node.str()), QString("fast slow")); // team order among ties
    }

    // A backend's queue is simulated again from the run's calls: more calls in flight, less waiting.
    void aConcurrencyLimitIsQueuedAgain_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<qint64>("wall");
        QTest::addColumn<QString>("text");
        QTest::newRow("two at once") << "local.max_concurrency=2" << qint64(600000) << "local.max_concurrency: 1 → 2";
        QTest::newRow("all at once") << "local.max_concurrency=3" << qint64(300000) << "local.max_concurrency: 1 → 3";
    }
    void aConcurrencyLimitIsQueuedAgain()
    {
        QFETCH(QString, change);
        QFETCH(qint64, wall);
        QFETCH(QString, text);
        std::string error;
        const auto report = project(queued(), {change}, error);
        QVERIFY2(report, error.c_str());
        QCOMPARE(report->wallBefore, int64_t(900000));
        QCOMPARE(qint64(report->wallAfter), wall);
        QCOMPARE(q(report->changes.at(0)), text);
        QVERIFY(report->decisions().empty());
    }

    void theProfileDoublesEachBackendsLimit()
    {
        std::string error;
        const auto p = profile(queued(), error);
        QVERIFY2(p, error.c_str());
        QCOMPARE(p->backends.size(), size_t(1));
        QCOMPARE(p->backends[0].from, int64_t(1));
        QCOMPARE(p->backends[0].to, int64_t(2));
        QCOMPARE(p->backends[0].wall.p50, int64_t(600000));
        QVERIFY(q(p->text()).contains("\nbackend local: max_concurrency 1 → 2 saves 0.300 s (33.3 %)\n"));
        // Each expert alone twice as fast: the queue still holds the other two.
        for (const auto& row : p->rows)
            QCOMPARE(row.wall[2].p50, int64_t(750000));
    }

    // A run stored before queue waits were recorded: speeds still project, concurrency does not,
    // and its profile leaves the backend out.
    void withoutRecordedWaitsConcurrencyIsRefused()
    {
        std::string error;
        QVERIFY2(project(queued(), {}, error), error.c_str());
        {
            SqliteDb db;
            QVERIFY(!db.open(m_db, SqliteDb::Mode::ReadWrite));
            QVERIFY(!db.exec("UPDATE spans SET wait_us = NULL WHERE run_id = '" + m_id.str() + "'"));
        }
        QVERIFY(!projectStored(m_id.str(), {"local.max_concurrency=3"}, error));
        QCOMPARE(q(error), q("run " + m_id.str() + ": queue waits not recorded: concurrency what-ifs unavailable"));
        // Each call's recorded time holds its wait, so the queue is not simulated again: with no change
        // the run is reproduced; x instant, y and z still take the 0.6 and 0.9 s they took then.
        auto sped = projectStored(m_id.str(), {}, error);
        QVERIFY2(sped, error.c_str());
        QCOMPARE(sped->wallAfter, int64_t(900000));
        sped = projectStored(m_id.str(), {"x=-100%"}, error);
        QVERIFY2(sped, error.c_str());
        QCOMPARE(sped->wallAfter, int64_t(900000));
        sped = projectStored(m_id.str(), {"z=x0.5"}, error);
        QVERIFY2(sped, error.c_str());
        QCOMPARE(sped->wallAfter, int64_t(600000));
        const auto whatIf = load(m_id.str(), error);
        QVERIFY2(whatIf, error.c_str());
        const auto p = whatIf->profile(error);
        QVERIFY2(p, error.c_str());
        QVERIFY(p->backends.empty());
        QCOMPARE(p->rows.size(), size_t(3));
    }

    void badBackendChangesSayWhere_data()
    {
        QTest::addColumn<QString>("assignment");
        QTest::addColumn<QString>("error");
        QTest::newRow("no field") << "local=4" << "expected NAME.max_concurrency=N, got \"local=4\"";
        QTest::newRow("another field") << "local.seed=4" << "local: only max_concurrency can change, got \"seed\"";
        QTest::newRow("zero") << "local.max_concurrency=0"
                              << "local.max_concurrency: expected a whole number from 1 to 1000000, got \"0\"";
        QTest::newRow("a fraction") << "local.max_concurrency=1.5"
                                    << "local.max_concurrency: expected a whole number from 1 to 1000000, got \"1.5\"";
    }
    void badBackendChangesSayWhere()
    {
        QFETCH(QString, assignment);
        QFETCH(QString, error);
        WhatIfChanges changes;
        std::string why;
        QVERIFY(!changes.addBackend(assignment.toStdString(), why));
        QCOMPARE(q(why), error);
    }

    void whatCannotBeProjectedIsSaidSo()
    {
        std::string error;
        QVERIFY(!project(chain(), {"nope=-50%"}, error));
        QCOMPARE(q(error), q("--speed nope: no node \"nope\" in the team of run " + m_id.str()));
        QVERIFY(!projectStored(m_id.str(), {"remote.max_concurrency=2"}, error));
        QCOMPARE(q(error), q("--backend remote: no backend \"remote\" in the team of run " + m_id.str()));
        QVERIFY(!projectStored("ffffffffffff", {}, error));
        QCOMPARE(q(error), QString("no run \"ffffffffffff\""));
    }
};

QTEST_GUILESS_MAIN(TestWhatIf)
#include "tst_whatif.moc"
