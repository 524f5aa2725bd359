// A design's speed-up profile over an experiment's trials (DesignWhatIf):
// three trials whose walls are known by hand (a keyword router sends each
// task to an expert of 100 ms, 300 ms or 1 s), their p50 and p95 under each
// change computed as Quantile::of does (linear between order statistics).
#include <QtTest>

#include "support/EngineTestKit.h"

#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/StoredTrials.h"
#include "conclave/store/RunQueries.h"
#include "conclave/store/RunStore.h"
#include "conclave/whatif/DesignWhatIf.h"

#include <QTemporaryDir>

#include <fstream>

using namespace conclave;
using namespace enginetest;

namespace {

// in → r (keyword) → f (0.1 s) | m (0.3 s) | s (1 s) → join → out.
Team routed()
{
    TeamBuilder b(1.0);
    b.node("r", "router",
           json{{"strategy", "keyword"},
                {"routes", json{{"fast", json::array({"alpha"})},
                                {"mid", json::array({"beta"})},
                                {"slow", json::array({"gamma"})}}}})
        .edge("in", "r");
    b.expert("f", "right-100").edge("r", "f", "fast");
    b.expert("m", "right-300").edge("r", "m", "mid");
    b.expert("s", "right-1000").edge("r", "s", "slow");
    b.node("join", "aggregator", json{{"strategy", "majority"}}).edge("f", "join").edge("m", "join").edge("s", "join");
    b.output("join");
    std::string problems;
    return *b.build(problems);
}

SpeedupProfile::Wall wall(int64_t p50, int64_t p95)
{
    return {p50, p95};
}

bool same(const std::array<SpeedupProfile::Wall, 4>& a, const std::array<SpeedupProfile::Wall, 4>& b)
{
    for (size_t i = 0; i < 4; ++i)
        if (a[i].p50 != b[i].p50 || a[i].p95 != b[i].p95)
            return false;
    return true;
}

QString text(const std::array<SpeedupProfile::Wall, 4>& walls)
{
    QStringList out;
    for (const auto& w : walls)
        out << QString("%1/%2").arg(w.p50).arg(w.p95);
    return out.join(' ');
}

} // namespace

class TestDesignWhatIf : public QObject {
    Q_OBJECT

    EngineHarness m_h;
    QTemporaryDir m_dir;

    // Runs the routed design on three tasks (one per expert) under one seed into `db`; the experiment's id.
    std::string measure(const std::string& db, StoredTrials::Keep keep)
    {
        const auto tasksFile = m_dir.filePath("three.jsonl").toStdString();
        std::ofstream(tasksFile) << R"({"id": "t-alpha", "domain": "math", "prompt": "alpha: Calculate 1 + 1.", "answer": "2"})"
                                 << "\n"
                                 << R"({"id": "t-beta", "domain": "math", "prompt": "beta: Calculate 2 + 2.", "answer": "4"})"
                                 << "\n"
                                 << R"({"id": "t-gamma", "domain": "math", "prompt": "gamma: Calculate 3 + 3.", "answer": "6"})"
                                 << "\n";
        auto tasks = TaskSet::load(tasksFile);
        if (!tasks.tasks)
            return {};
        ExperimentSpec spec;
        spec.name = "routed";
        spec.designs.push_back(makeDesign("routed", "routed.team.json", routed()));
        spec.tasksetName = "three";
        spec.tasks = std::make_shared<const TaskSet>(std::move(*tasks.tasks));
        spec.seeds = {1};
        auto opened = RunStore::open(db);
        if (!opened.store)
            return {};
        StoredTrials sink(*opened.store, keep);
        ExperimentRunner runner(m_h.engine(), sink, spec, {});
        const auto outcome = runner.run();
        if (!outcome.error.empty())
            qWarning("%s", outcome.error.c_str());
        return runner.id();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_h.init());
        QVERIFY(m_dir.isValid());
    }

    void aThreeTrialProfileHasTheHandComputedQuantiles()
    {
        const auto db = m_dir.filePath("runs.sqlite").toStdString();
        const auto id = measure(db, StoredTrials::Keep::Runs);
        QVERIFY(!id.empty());
        std::string error;
        auto reader = RunQueries::open(db, error);
        QVERIFY2(reader, error.c_str());
        const auto design = DesignWhatIf::load(m_h.engine(), *reader, id, "routed", error);
        QVERIFY2(design, error.c_str());
        QCOMPARE(design->trials(), size_t(3));
        const auto p = design->profile(error);
        QVERIFY2(p, error.c_str());
        QCOMPARE(p->trials, int64_t(3));
        // Walls 0.1, 0.3 and 1 s: p50 0.3 s; p95 = 0.3 + 0.9 × (1 − 0.3) = 0.93 s.
        QCOMPARE(p->wall.p50, int64_t(300000));
        QCOMPARE(p->wall.p95, int64_t(930000));
        QCOMPARE(p->rows.size(), size_t(3));
        // m 10/25/50/100 % faster: {0.1, 0.27, 1}, {0.1, 0.225, 1}, {0.1, 0.15, 1}, {0, 0.1, 1}.
        QCOMPARE(q(p->rows[0].node.str()), QString("m"));
        const std::array<SpeedupProfile::Wall, 4> m{wall(270000, 927000), wall(225000, 922500), wall(150000, 915000),
                                                    wall(100000, 910000)};
        QVERIFY2(same(p->rows[0].wall, m), qPrintable(text(p->rows[0].wall)));
        // f: the p50 and p95 trials are not its own.
        QCOMPARE(q(p->rows[1].node.str()), QString("f"));
        const std::array<SpeedupProfile::Wall, 4> f{wall(300000, 930000), wall(300000, 930000), wall(300000, 930000),
                                                    wall(300000, 930000)};
        QVERIFY2(same(p->rows[1].wall, f), qPrintable(text(p->rows[1].wall)));
        // s: {0.1, 0.3, 0.9}, {…, 0.75}, {…, 0.5}; instant, {0, 0.1, 0.3}: its trial drops below the others.
        QCOMPARE(q(p->rows[2].node.str()), QString("s"));
        const std::array<SpeedupProfile::Wall, 4> s{wall(300000, 840000), wall(300000, 705000), wall(300000, 480000),
                                                    wall(100000, 280000)};
        QVERIFY2(same(p->rows[2].wall, s), qPrintable(text(p->rows[2].wall)));
        QCOMPARE(q(p->headline()),
                 QString("out of 0.300 s p50 over 3 trials, making m 50 % faster saves 0.150 s (50.0 %); f: 0.000 s; "
                         "s: 0.000 s"));
        QVERIFY2(q(p->text()).contains("\nwall: p50 0.300 s, p95 0.930 s\n"
                                       "agent           10 % faster           25 % faster           50 % faster          "
                                       "100 % faster\n"
                                       "m         0.030 s / 0.003 s     0.075 s / 0.007 s     0.150 s / 0.015 s     "
                                       "0.200 s / 0.020 s\n"),
                 p->text().c_str());
        const auto j = p->json();
        QCOMPARE(j["trials"].get<int>(), 3);
        QCOMPARE(j["wall_ms"]["p95"].get<double>(), 930.0);
        QCOMPARE(j["agents"][0]["saved_ms"]["p50"][2].get<double>(), 150.0);
    }

    void aDesignWithoutStoredRunsOrUnknownIsRefused()
    {
        const auto db = m_dir.filePath("rows.sqlite").toStdString();
        const auto id = measure(db, StoredTrials::Keep::Rows);
        QVERIFY(!id.empty());
        std::string error;
        auto reader = RunQueries::open(db, error);
        QVERIFY2(reader, error.c_str());
        QVERIFY(!DesignWhatIf::load(m_h.engine(), *reader, id, "routed", error));
        QCOMPARE(q(error), q("experiment " + id +
                             ", design \"routed\": no trial's run was stored (eval --store summaries keeps only their "
                             "figures): a profile replays their calls"));
        QVERIFY(!DesignWhatIf::load(m_h.engine(), *reader, id, "nope", error));
        QCOMPARE(q(error), q("experiment " + id + " has no design \"nope\" (its designs: routed)"));
    }
};

QTEST_GUILESS_MAIN(TestDesignWhatIf)
#include "tst_designwhatif.moc"
