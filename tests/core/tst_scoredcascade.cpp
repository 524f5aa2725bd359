// A cascade or adaptive coordinator with a scorer, on the simulated clock:
// the engine reads its AnswerScore where it would read stated confidence
// (a scripted scorer through the interface: exact stops, escalations, span
// notes and what each member's answer is scored with); and the session side:
// a `scorer` file loaded when the team is prepared (TeamScorers), with every
// message for a missing or bad file, an unknown member model, and the
// validator's for a scorer on another mode.
#include <QtTest>

#include "support/EngineTestKit.h"

#include "conclave/engine/Run.h"
#include "conclave/engine/ThreadPool.h"
#include "conclave/engine/VirtualClock.h"
#include "conclave/http/HttpHub.h"
#include "conclave/io/FileIo.h"
#include "conclave/routing/ScorerFile.h"
#include "conclave/session/BackendFactory.h"

#include <cmath>
#include <mutex>

using namespace enginetest;

namespace {

// Scores each answer by its model (0 for any other) and records what it was given.
class ScriptedScore : public AnswerScore {
public:
    explicit ScriptedScore(std::map<std::string, double> byModel) : m_byModel(std::move(byModel)) {}

    double score(const ScoredAnswer& a) const override
    {
        std::lock_guard lock(m_mutex);
        QString earlier;
        for (const auto& e : a.earlier)
            earlier += (earlier.isEmpty() ? "" : ",") + q(e);
        m_seen << QStringLiteral("%1 %2 [%3] asked %4 conf %5")
                      .arg(q(std::string(a.model)), q(std::string(a.answer)), earlier)
                      .arg(a.asked)
                      .arg(a.confidence, 0, 'f', 2);
        m_inputs << q(std::string(a.input));
        const auto it = m_byModel.find(std::string(a.model));
        return it == m_byModel.end() ? 0.0 : it->second;
    }

    QStringList seen() const
    {
        std::lock_guard lock(m_mutex);
        return m_seen;
    }
    QStringList inputs() const
    {
        std::lock_guard lock(m_mutex);
        return m_inputs;
    }

private:
    std::map<std::string, double> m_byModel;
    mutable std::mutex m_mutex;
    mutable QStringList m_seen;
    mutable QStringList m_inputs;
};

// The coordinator's rounds (with their notes) and members' turns: "step 1: m1 0..150000 ok | note".
QStringList rounds(const RunResult& r, const std::string& coordinator)
{
    QStringList out;
    for (const auto& s : r.spans) {
        const QString times = QStringLiteral("%1..%2 %3").arg(s.startUs).arg(s.endUs).arg(q(toString(s.status)));
        if (s.node.str() == coordinator && s.kind == SpanKind::Round)
            out << q(s.name) + ' ' + times + " | " + q(s.note);
    }
    return out;
}

// in -> c (`mode`, threshold 0.7) -> out, with members m1.. on these models in edge order.
TeamBuilder coordinated(const std::string& mode, const QStringList& models, json fields = json::object())
{
    TeamBuilder team;
    fields["mode"] = mode;
    fields["threshold"] = 0.7;
    team.node("c", "coordinator", fields).edge("in", "c");
    for (int i = 0; i < models.size(); ++i) {
        const auto id = "m" + std::to_string(i + 1);
        team.expert(id, models[i].toStdString()).member("c", id);
    }
    team.output("c");
    return team;
}

} // namespace

class TestScoredCascade : public QObject {
    Q_OBJECT

    EngineHarness m_h;
    QTemporaryDir m_dir;

    // A run of `builder` on the virtual clock, its coordinator "c" scored by `score` (none: null).
    RunResult runScored(const TeamBuilder& builder, std::shared_ptr<const AnswerScore> score)
    {
        std::string problems;
        const auto team = builder.build(problems);
        if (!team) {
            QTest::qFail(("the team does not load: " + problems).c_str(), __FILE__, __LINE__);
            return {};
        }
        const auto prepared = m_h.engine().prepare(*team);
        if (!prepared.team) {
            QTest::qFail(("the team does not prepare: " + prepared.error).c_str(), __FILE__, __LINE__);
            return {};
        }
        ThreadPool pool(2);
        HttpHub hub;
        auto clock = std::make_shared<VirtualClock>(pool);
        auto made = BackendFactory(m_h.engine().resources(), hub, clock).make(*prepared.team, kMath, 42);
        RunOptions options;
        options.input = kMath;
        options.seed = made.seed;
        if (score)
            options.scorers[NodeId("c")] = std::move(score);
        auto run = std::make_shared<Run>(prepared.team->plan, std::move(options), std::move(made.backends),
                                         GateScorer{}, clock);
        run->start();
        if (!run->waitFor(60s)) {
            QTest::qFail("the run did not finish within a minute", __FILE__, __LINE__);
            run->cancel();
        }
        return run->wait();
    }

    // A scorer file for the kit's models over the shipped gate: no weights, so
    // each model's p is its bias's logistic.
    std::string writeScorer(const std::string& name, const std::map<std::string, double>& pByModel)
    {
        const auto& gate = *m_h.engine().resources().gate;
        ScorerModel model;
        model.buckets = uint32_t(gate.buckets());
        model.domains = gate.domains();
        for (const auto& [m, p] : pByModel) {
            model.models.push_back(m);
            model.answers.push_back(100);
            model.baseRates.push_back(p);
            model.linear.push_back({1, std::log(p / (1 - p)), {}});
        }
        const auto path = m_dir.filePath(QString::fromStdString(name)).toStdString();
        if (const auto failed = writeFileAtomically(path, ScorerFile::toJsonText(model)))
            qFatal("%s", failed->c_str());
        return path;
    }

    QString prepareError(const TeamBuilder& builder)
    {
        std::string problems;
        const auto team = builder.build(problems);
        if (!team)
            return "(does not load) " + q(problems);
        const auto prepared = m_h.engine().prepare(*team, m_dir.path().toStdString());
        return prepared.team ? QString("(prepared)") : q(prepared.error);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_h.init());
        QVERIFY(m_dir.isValid());
    }
    void cleanupTestCase() { m_h.reset(); }

    void withoutAScorerConfidenceDecides()
    {
        // The kit's `wrong` states ~0.78 ≥ 0.7: a cascade stops at it, and notes nothing.
        const auto r = runScored(coordinated("cascade", {"wrong", "right"}), nullptr);
        QCOMPARE(rounds(r, "c"), (QStringList{"step 1: m1 0..150000 ok | "}));
    }

    void aLowScoreEscalatesAndAHighOneStops()
    {
        auto score = std::make_shared<ScriptedScore>(std::map<std::string, double>{{"wrong", 0.41}, {"right", 0.83}});
        const auto r = runScored(coordinated("cascade", {"wrong", "right", "right-300"}), score);
        QCOMPARE(q(toString(r.status)), QString("ok"));
        QCOMPARE(q(r.output.answer), QString("783"));
        QCOMPARE(rounds(r, "c"), (QStringList{
                                     "step 1: m1 0..150000 ok | score 0.41 < 0.70: escalate",
                                     "step 2: m2 150000..300000 ok | score 0.83 \u2265 0.70: stop",
                                 }));
        QCOMPARE(statuses(r, {"m1", "m2", "m3"}), QString("m1=ok m2=ok m3=skipped"));
        const auto seen = score->seen();
        QCOMPARE(seen.size(), 2);
        QVERIFY2(seen[0].startsWith("wrong ") && seen[0].contains(" [] asked 0 conf "), qPrintable(seen[0]));
        QVERIFY2(seen[1].startsWith("right 783 [") && seen[1].contains("] asked 1 conf "), qPrintable(seen[1]));
        QCOMPARE(score->inputs(), (QStringList{kMath, kMath}));
    }

    void aHighScoreStopsAWrongAnswer()
    {
        auto score = std::make_shared<ScriptedScore>(std::map<std::string, double>{{"wrong", 0.9}});
        const auto r = runScored(coordinated("cascade", {"wrong", "right"}), score);
        QCOMPARE(rounds(r, "c"), (QStringList{"step 1: m1 0..150000 ok | score 0.90 \u2265 0.70: stop"}));
        QVERIFY(r.output.answer != "783");
    }

    void theLastMembersAnswerStands()
    {
        auto score = std::make_shared<ScriptedScore>(std::map<std::string, double>{{"right", 0.1}, {"wrong", 0.2}});
        const auto r = runScored(coordinated("cascade", {"wrong", "right"}), score);
        QCOMPARE(rounds(r, "c"), (QStringList{
                                     "step 1: m1 0..150000 ok | score 0.20 < 0.70: escalate",
                                     "step 2: m2 150000..300000 ok | score 0.10 < 0.70: no member left",
                                 }));
        QCOMPARE(q(r.output.answer), QString("783"));
    }

    void adaptiveReadsTheLeadingAnswersScore()
    {
        auto score = std::make_shared<ScriptedScore>(std::map<std::string, double>{{"wrong", 0.2}, {"right", 0.9}});
        const auto r = runScored(coordinated("adaptive", {"wrong", "right", "right-300"}, json{{"initial", 1}}), score);
        QCOMPARE(rounds(r, "c"), (QStringList{
                                     "round 1 0..150000 ok | ask m2: 1 of 1 agree, score 0.20 < 0.70",
                                     "round 2 150000..300000 ok | stop: score 0.90 \u2265 threshold 0.70",
                                 }));
        QCOMPARE(q(r.output.answer), QString("783"));
    }

    void aScorerFileIsLoadedWhenTheTeamIsPrepared()
    {
        writeScorer("both.json", {{"wrong", 0.3}, {"right", 0.8}});
        auto builder = coordinated("cascade", {"wrong", "right"}, json{{"scorer", "both.json"}});
        std::string problems;
        const auto team = builder.build(problems);
        QVERIFY2(team, problems.c_str());
        const auto prepared = m_h.engine().prepare(*team, m_dir.path().toStdString());
        QVERIFY2(prepared.team, prepared.error.c_str());
        QCOMPARE(prepared.team->scorers.size(), size_t(1));
        auto started =
            m_h.engine().start(*prepared.team, kMath, Engine::StartOptions{42, {}, ClockRequest::Virtual, {}, {}});
        QVERIFY2(started.run, started.error.c_str());
        const auto r = started.run->wait();
        QCOMPARE(rounds(r, "c"), (QStringList{
                                     "step 1: m1 0..150000 ok | score 0.30 < 0.70: escalate",
                                     "step 2: m2 150000..300000 ok | score 0.80 \u2265 0.70: stop",
                                 }));
    }

    void prepareMessages_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("scorer");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no such file") << "cascade"
                                      << "missing.json"
                                      << "node \"c\": scorer \"missing.json\": no such file";
        QTest::newRow("not a scorer") << "cascade"
                                      << "router.json"
                                      << "node \"c\": scorer \"router.json\": /kind: expected \"scorer\" (a file "
                                         "conclave train-scorer writes), got \"router\"";
        QTest::newRow("a member model it does not know")
            << "adaptive"
            << "right-only.json"
            << "node \"c\": scorer \"right-only.json\": member \"m1\" answers with wrong, which the scorer was not "
               "trained on (it knows right): re-train it with conclave train-scorer --models";
        QTest::newRow("another mode") << "debate"
                                      << "both.json"
                                      << "the team is invalid: /nodes/1/scorer: a scorer replaces stated confidence "
                                         "in modes cascade and adaptive; this coordinator's mode is debate";
        QTest::newRow("empty") << "cascade"
                               << ""
                               << "the team is invalid: /nodes/1/scorer: expected the path of a scorer file "
                                  "(conclave train-scorer), got an empty string";
    }

    void prepareMessages()
    {
        QFETCH(QString, mode);
        QFETCH(QString, scorer);
        QFETCH(QString, expected);
        writeScorer("both.json", {{"wrong", 0.3}, {"right", 0.8}});
        writeScorer("right-only.json", {{"right", 0.8}});
        writeFileAtomically(m_dir.filePath("router.json").toStdString(), "{\"format\": 1, \"kind\": \"router\"}");
        const auto builder =
            coordinated(mode.toStdString(), {"wrong", "right"}, json{{"scorer", scorer.toStdString()}});
        QCOMPARE(prepareError(builder), expected);
    }

    void aCoordinatorMemberCannotBeScored()
    {
        writeScorer("both.json", {{"wrong", 0.3}, {"right", 0.8}});
        auto builder = coordinated("cascade", {"right"}, json{{"scorer", "both.json"}});
        builder.node("inner", "coordinator", json{{"mode", "cascade"}}).member("c", "inner");
        builder.expert("i1", "right").member("inner", "i1");
        QCOMPARE(prepareError(builder), QString("node \"c\": scorer \"both.json\": member \"inner\" is a coordinator; "
                                                "a scorer scores experts' answers"));
    }
};

QTEST_GUILESS_MAIN(TestScoredCascade)
#include "tst_scoredcascade.moc"
