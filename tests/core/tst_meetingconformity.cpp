// How a meeting member is swayed by the answers it is shown (issue 31): the
// simulator's built-in persuasion lets peers' right answers persuade and wrong
// ones not, so debates came out 7–10 points better than on ground-truth worlds
// whose members take the most common answer, right or wrong. `conformity` is
// fitted from the meeting turns of measured runs (BehaviourFit::conformity)
// and the simulator follows it (docs/simulator.md, docs/calibration.md).
#include <QtTest>

#include "support/ResponderFixture.h"
#include "conclave/bench/GroundTruthWorld.h"
#include "conclave/engine/DeterministicRandom.h"
#include "conclave/engine/ReplyParser.h"
#include "conclave/experiment/BehaviourFit.h"
#include "conclave/experiment/CalibrationSamples.h"
#include "conclave/experiment/ExperimentRunner.h"
#include "conclave/experiment/ModelCalibration.h"
#include "conclave/experiment/StoredTrials.h"
#include "conclave/io/TeamJson.h"
#include "conclave/local/Plurality.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunStore.h"
#include "support/EngineTestKit.h"

#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace conclave;
using namespace testsupport;
using nlohmann::json;

namespace {

// `n` turns: a chance alone spread over 0.2–0.95, the plurality shown right
// 70 % of the time, and the member taking it with chance `c`.
std::vector<BehaviourFit::Turn> turnsConforming(double c, int n, uint64_t seed)
{
    std::vector<BehaviourFit::Turn> turns;
    for (int i = 0; i < n; ++i) {
        const auto key = DeterministicRandom::key({"turn", std::to_string(i)}, seed);
        BehaviourFit::Turn t;
        t.pOwn = 0.2 + 0.75 * DeterministicRandom::unit(key, 1);
        t.pluralityRight = DeterministicRandom::unit(key, 2) < 0.7;
        const bool conforms = DeterministicRandom::unit(key, 3) < c;
        t.correct = conforms ? t.pluralityRight : DeterministicRandom::unit(key, 4) < t.pOwn;
        turns.push_back(t);
    }
    return turns;
}

Candidate said(const std::string& source, const std::string& answer)
{
    return {source, answer, 0.8, "Answer: " + answer, 1};
}

// Three simulated models "a", "b" and "c" of skills 0.8, 0.65 and 0.5, each
// with `conformity`.
json simulated(double conformity)
{
    json models = json::object();
    for (const auto& [name, skill] : std::vector<std::pair<std::string, double>>{{"a", 0.8}, {"b", 0.65}, {"c", 0.5}})
        models[name] = {{"skills", {{"reasoning", skill}, {"facts", skill}}},
                        {"difficulty_weight", 0.5},
                        {"conformity", conformity}};
    return models;
}

// The models in a meeting (`mode`: a debate over two rounds, a round_robin of
// one), or each answering alone into a vote when `mode` is empty (what
// calibration reads their skills from).
Team team(const std::string& mode, const json& models)
{
    const bool debating = !mode.empty();
    std::vector<std::string> names;
    for (const auto& [name, profile] : models.items())
        names.push_back(name);
    json lead = debating ? json{{"id", "lead"}, {"kind", "coordinator"}, {"mode", mode},
                                {"max_rounds", mode == "debate" ? 2 : 1}}
                         : json{{"id", "lead"}, {"kind", "aggregator"}, {"strategy", "majority"}};
    json nodes = json::array({{{"id", "in"}, {"kind", "input"}}, lead, {{"id", "out"}, {"kind", "output"}}});
    json edges = json::array({{{"from", "lead"}, {"to", "out"}}});
    if (debating)
        edges.push_back({{"from", "in"}, {"to", "lead"}});
    for (const auto& name : names) {
        nodes.push_back({{"id", "m-" + name}, {"kind", "expert"}, {"model", name}});
        if (debating) {
            edges.push_back({{"from", "lead"}, {"to", "m-" + name}, {"role", "member"}});
        } else {
            edges.push_back({{"from", "in"}, {"to", "m-" + name}});
            edges.push_back({{"from", "m-" + name}, {"to", "lead"}});
        }
    }
    const json made{{"conclave", 3},
                    {"name", debating ? mode : "vote"},
                    {"backends", {{"local", {{"kind", "local-moe"}, {"models", models}}}}},
                    {"defaults", {{"backend", "local"}}},
                    {"nodes", nodes},
                    {"edges", edges}};
    const auto loaded = teamFromJsonText(made.dump());
    return *loaded.team;
}

// The designs run on `engine` over a bundled task set (or a task file, when
// `taskset` ends in .jsonl) into a fresh store, read back as calibration reads them.
std::optional<CalibrationSamples> measured(Engine& engine, std::vector<std::pair<std::string, Team>> designs,
                                           const std::string& taskset, std::vector<uint64_t> seeds)
{
    QTemporaryDir dir;
    auto opened = RunStore::open(dir.filePath("runs.sqlite").toStdString());
    if (!opened.store)
        return std::nullopt;
    ExperimentSpec spec;
    for (auto& [file, team] : designs)
        spec.designs.push_back(makeDesign(team.name, file, std::move(team)));
    const bool file = taskset.ends_with(".jsonl");
    auto tasks = TaskSet::load(file ? taskset : std::string(CONCLAVE_RESOURCES) + "/tasksets/" + taskset + ".jsonl");
    spec.tasksetName = file ? std::filesystem::path(taskset).filename().string() : taskset;
    if (file)
        spec.tasksetPath = taskset;
    spec.tasks = std::make_shared<const TaskSet>(std::move(*tasks.tasks));
    spec.seeds = std::move(seeds);
    spec.name = "conformity";
    StoredTrials sink(*opened.store, StoredTrials::Keep::Runs);
    ExperimentRunner runner(engine, sink, spec, {});
    const auto outcome = runner.run();
    if (!outcome.error.empty()) {
        qWarning("%s", outcome.error.c_str());
        return std::nullopt;
    }
    std::string error;
    auto reader = opened.store->reader(error);
    auto samples = CalibrationSamples::read(*reader, {runner.id()}, CONCLAVE_RESOURCES, error);
    if (!samples)
        qWarning("%s", error.c_str());
    return samples;
}

} // namespace

class TestMeetingConformity : public QObject, ResponderFixture {
    Q_OBJECT

    enginetest::EngineHarness m_h;

private slots:
    void initTestCase()
    {
        QVERIFY(load());
        QVERIFY(m_h.init());
    }

    void pluralityTiesGoToTheFirstShown()
    {
        QCOMPARE(QString::fromStdString(Plurality::of({"x", "y", "y", "x"})), QStringLiteral("x"));
        QCOMPARE(QString::fromStdString(Plurality::of({"x", "y", "y"})), QStringLiteral("y"));
        QCOMPARE(QString::fromStdString(Plurality::of({})), QString());
    }

    void theFitRecoversConformity_data()
    {
        QTest::addColumn<double>("conformity");
        QTest::addColumn<double>("fitted");
        QTest::newRow("never") << 0.0 << 0.0246;
        QTest::newRow("0.15") << 0.15 << 0.1585;
        QTest::newRow("0.45") << 0.45 << 0.4523;
        QTest::newRow("always") << 1.0 << 1.0;
    }

    void theFitRecoversConformity()
    {
        QFETCH(double, conformity);
        QFETCH(double, fitted);
        const auto fit = BehaviourFit::conformity(turnsConforming(conformity, 3000, 11), 20);
        QVERIFY(fit);
        QCOMPARE(fit->turns, int64_t(3000));
        QVERIFY2(std::abs(fit->share - conformity) < 0.03, std::to_string(fit->share).c_str());
        QCOMPARE(std::round(fit->share * 1e4) / 1e4, fitted);
    }

    void tooFewOrUninformativeTurnsAreNotMeasured()
    {
        QVERIFY(!BehaviourFit::conformity(turnsConforming(0.5, 19, 3), 20));
        // Sure members shown right pluralities: taking them or not ends alike.
        std::vector<BehaviourFit::Turn> alike(50, BehaviourFit::Turn{true, true, 1.0});
        QVERIFY(!BehaviourFit::conformity(alike, 20));
    }

    void theSimulatorTakesThePluralityShown()
    {
        auto always = exact(1);
        always.conformity = 1;
        auto never = exact(0.3);
        never.conformity = 0;
        const auto builtIn = exact(0.3);
        LocalResponder responder({{"always", always}, {"never", never}, {"built-in", builtIn}}, m_gate, m_tasks, 5);
        int took = 0, neverRight = 0, builtInRight = 0;
        const auto& tasks = m_tasks->tasks();
        const int n = 300;
        for (int t = 0; t < n; ++t) {
            const auto& task = tasks[size_t(t)];
            const auto truth = ReplyParser::normalizeAnswer(task.answer);
            auto request = [&](const std::string& model) {
                auto r = ask(model, task.prompt);
                r.purpose = CallPurpose::MemberTurn;
                r.inputs.task = task.prompt;
                // A wrong answer twice, then the right one: the plurality is wrong.
                r.inputs.transcript = {said("m1", "not " + truth), said("m2", "not " + truth), said("m3", truth)};
                return ReplyParser::normalizeAnswer(ReplyParser::parse(responder.respond(r).reply.text).answer);
            };
            took += request("always") == ReplyParser::normalizeAnswer("not " + truth);
            neverRight += request("never") == truth;
            builtInRight += request("built-in") == truth;
        }
        QCOMPARE(took, n);
        // Alone, a skill-0.3 model; the built-in persuasion adds (1 − p)·0.5·(1/3).
        QVERIFY2(neverRight > 60 && neverRight < 125, std::to_string(neverRight).c_str());
        QVERIFY2(builtInRight > neverRight + 15, (std::to_string(builtInRight) + " vs " + std::to_string(neverRight)).c_str());
        QCOMPARE(neverRight, 83);   // about 0.3 × 300
        QCOMPARE(builtInRight, 128); // about (0.3 + 0.7 · 0.5 / 3) × 300
    }

    // Parameter recovery through the store: debates simulated with a known
    // conformity, read back as measured runs are, fitted within 0.08.
    void conformityComesBackFromStoredDebates_data()
    {
        QTest::addColumn<double>("conformity");
        QTest::addColumn<QList<double>>("fitted"); // a, b, c
        QTest::newRow("0") << 0.0 << QList<double>{0.0132, 0, 0};
        QTest::newRow("0.2") << 0.2 << QList<double>{0.2306, 0.1637, 0.233};
        QTest::newRow("0.6") << 0.6 << QList<double>{0.5697, 0.5846, 0.5825};
    }

    void conformityComesBackFromStoredDebates()
    {
        QFETCH(double, conformity);
        QFETCH(QList<double>, fitted);
        const auto samples = measured(m_h.engine(),
                                      {{"vote.team.json", team("", simulated(conformity))},
                                       {"debate.team.json", team("debate", simulated(conformity))}},
                                      "reasoning", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
        QVERIFY(samples);
        // Three members' second turns, where the first round did not agree (74 tasks × 12 seeds).
        QCOMPARE(samples->meetingTurns.size(), size_t(1599));
        const auto fit = ModelCalibration::fit(*samples, {}, {});
        for (const std::string model : {"a", "b", "c"}) {
            const auto& p = fit.models.at(model);
            QVERIFY(p.conformity);
            QCOMPARE(*p.conformity + 1, fitted[model[0] - 'a'] + 1); // + 1: QCOMPARE's fuzzy compare near 0
            QVERIFY2(std::abs(*p.conformity - conformity) < 0.08,
                     (model + ": " + std::to_string(*p.conformity)).c_str());
        }
    }

    // Against ground-truth worlds (not the simulator: logistic curves of their
    // own, members taking the plurality shown with the world's
    // meeting_conformity), the fit follows the world's value within 0.15; it
    // reads each turn through the simulator's curve, which is not the world's
    // (here it leans low, on the bench's designs high: docs/fidelity.md).
    void conformityFollowsTheWorlds_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<double>("world");
        QTest::addColumn<QList<double>>("fitted"); // alpha, beta, gamma
        QTest::addColumn<int>("turns");
        QTest::newRow("lab-a 0.15") << "lab-a" << 0.15 << QList<double>{0.0536, 0.0475, 0.1582} << 768;
        QTest::newRow("lab-a 0.6") << "lab-a" << 0.6 << QList<double>{0.4671, 0.5863, 0.6237} << 768;
        QTest::newRow("lab-b 0.35") << "lab-b" << 0.35 << QList<double>{0.241, 0.2092, 0.2436} << 783;
        QTest::newRow("lab-e 0.5") << "lab-e" << 0.5 << QList<double>{0.3825, 0.3627, 0.5567} << 571;
    }

    void conformityFollowsTheWorlds()
    {
        QFETCH(QString, file);
        QFETCH(double, world);
        QFETCH(QList<double>, fitted);
        QFETCH(int, turns);
        std::ifstream in(std::string(CONCLAVE_RESOURCES) + "/bench/worlds/" + file.toStdString() + ".json");
        auto doc = json::parse(in);
        doc["meeting_conformity"] = world;
        auto loaded = GroundTruthWorld::fromJsonText(doc.dump(), CONCLAVE_RESOURCES);
        QVERIFY(loaded.world);
        std::vector<std::string> errors;
        auto resources = EngineResources::load(CONCLAVE_RESOURCES, errors);
        resources.world = loaded.world;
        Engine engine(std::move(resources), 2);
        // Every bundled task the world has abilities for, in one file; the world
        // answers a prompt the same under every seed, so one seed.
        QTemporaryDir dir;
        const auto all = dir.filePath("all.jsonl").toStdString();
        {
            std::ofstream out(all);
            for (const auto& set : doc.value("task_sets", std::vector<std::string>{"math", "code", "facts", "writing",
                                                                                   "reasoning"})) {
                std::ifstream lines(std::string(CONCLAVE_RESOURCES) + "/tasksets/" + set + ".jsonl");
                out << lines.rdbuf();
            }
        }
        const json models{{"alpha", json::object()}, {"beta", json::object()}, {"gamma", json::object()}};
        const auto samples =
            measured(engine, {{"vote.team.json", team("", models)}, {"debate.team.json", team("debate", models)}},
                     all, {1});
        QVERIFY(samples);
        QCOMPARE(samples->meetingTurns.size(), size_t(turns));
        const auto fit = ModelCalibration::fit(*samples, {}, {});
        int i = 0;
        for (const std::string model : {"alpha", "beta", "gamma"}) {
            const auto& p = fit.models.at(model);
            QVERIFY(p.conformity);
            QVERIFY2(std::abs(*p.conformity - world) < 0.15, (model + ": " + std::to_string(*p.conformity)).c_str());
            QCOMPARE(*p.conformity + 1, fitted[i++] + 1);
        }
    }

    // A round_robin's later speakers are shown the turns of their round spoken
    // before them: with conformity 1 the second takes the first's answer, the
    // third the plurality of the two (a tie: the first's).
    void roundRobinSpeakersAreShownTheirRound()
    {
        const auto samples = measured(
            m_h.engine(), {{"vote.team.json", team("", simulated(1))}, {"rr.team.json", team("round_robin", simulated(1))}}, "reasoning", {1, 2});
        QVERIFY(samples);
        QCOMPARE(samples->meetingTurns.size(), size_t(2 * 74 * 2)); // b and c, every trial
        int shownOne = 0, shownTwo = 0;
        for (const auto& t : samples->meetingTurns) {
            QVERIFY(t.model == "b" || t.model == "c");
            QCOMPARE(t.correct, t.pluralityRight); // it took the plurality shown
            (t.model == "b" ? shownOne : shownTwo) += int(t.shownAlone.size());
        }
        QCOMPARE(shownOne, 74 * 2); // b was shown a alone
        QCOMPARE(shownTwo, 74 * 2); // c was shown a alone and b, who was shown a
        const auto fit = ModelCalibration::fit(*samples, {}, {});
        QCOMPARE(*fit.models.at("b").conformity, 1.0);
        QCOMPARE(*fit.models.at("c").conformity, 1.0);
        QVERIFY(!fit.models.at("a").conformity); // the first speaker is shown nothing
    }
};

QTEST_GUILESS_MAIN(TestMeetingConformity)
#include "tst_meetingconformity.moc"
