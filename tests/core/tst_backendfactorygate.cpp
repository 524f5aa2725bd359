// The gate BackendFactory makes for a team whose models are an openai
// backend's (issue 32): with a models_file on the backend, its skills decide a
// moe_gate router's route and an adaptive meeting's order; without one the
// team has no gate (first target, edge order), as before. The calls go to the
// fake server on 127.0.0.1; the file is read from the team's folder.
#include <QtTest>

#include <QTemporaryDir>

#include "support/FakeOpenAiServer.h"

#undef emit

#include "conclave/engine/ThreadPool.h"
#include "conclave/engine/VirtualClock.h"
#include "conclave/http/HttpHub.h"
#include "conclave/io/FileIo.h"
#include "conclave/io/TeamJson.h"
#include "conclave/session/BackendFactory.h"
#include "conclave/session/Engine.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

using namespace conclave;
using json = nlohmann::json;

namespace {

// Three models the fake server answers with different words, so no meeting settles early.
const std::string kA = "fake:text=alpha";
const std::string kB = "fake:text=beta";
const std::string kC = "fake:text=gamma"; // named by no models file

const char* const kMathPrompt = "Calculate 323 + 460.";
const char* const kWritingPrompt = "Write a short poem about the autumn sea.";

// A: strong at math, weak at writing; B the other way round. Other domains: 0.5.
const char* const kModelsFile = R"({"models": {
  "fake:text=alpha": {"skills": {"math": 0.9, "writing": 0.2}},
  "fake:text=beta":  {"skills": {"math": 0.2, "writing": 0.9}}}})";

QStringList asText(const std::vector<std::string>& ids)
{
    QStringList out;
    for (const auto& id : ids)
        out << QString::fromStdString(id);
    return out;
}

} // namespace

class TestBackendFactoryGate : public QObject {
    Q_OBJECT

    std::unique_ptr<FakeOpenAiServer> m_server;
    std::unique_ptr<Engine> m_engine;
    QTemporaryDir m_dir;

    json backend(bool withModelsFile) const
    {
        json b{{"kind", "openai"}, {"base_url", m_server->baseUrl()}, {"stream", false}};
        if (withModelsFile)
            b["models_file"] = "skills.json";
        return b;
    }

    json document(bool withModelsFile) const
    {
        json doc = json::object();
        doc["conclave"] = 3;
        doc["name"] = "endpoint gate";
        doc["backends"]["oa"] = backend(withModelsFile);
        doc["defaults"] = json{{"backend", "oa"}, {"timeout_ms", 10000}, {"retries", 0}};
        doc["nodes"] = json::array({json{{"id", "in"}, {"kind", "input"}}});
        doc["edges"] = json::array();
        return doc;
    }

    // in -> gate (moe_gate, top_k 1) -> ec (C) | eb (B) | ea (A) -> first -> out.
    json routed(bool withModelsFile) const
    {
        auto doc = document(withModelsFile);
        doc["nodes"].push_back(json{{"id", "gate"}, {"kind", "router"}, {"strategy", "moe_gate"}, {"top_k", 1}});
        for (const auto& [id, model] :
             std::vector<std::pair<std::string, std::string>>{{"ec", kC}, {"eb", kB}, {"ea", kA}}) {
            doc["nodes"].push_back(json{{"id", id}, {"kind", "expert"}, {"model", model}, {"prompt", "{{input}}"}});
            doc["edges"].push_back(json{{"from", "gate"}, {"to", id}, {"when", id}});
            doc["edges"].push_back(json{{"from", id}, {"to", "merge"}});
        }
        doc["nodes"].push_back(json{{"id", "merge"}, {"kind", "aggregator"}, {"strategy", "first"}});
        doc["nodes"].push_back(json{{"id", "out"}, {"kind", "output"}});
        doc["edges"].push_back(json{{"from", "in"}, {"to", "gate"}});
        doc["edges"].push_back(json{{"from", "merge"}, {"to", "out"}});
        return doc;
    }

    // in -> meet (adaptive, one member a round, never settled) -> out; members c (C), a (A), b (B) in edge order.
    json meeting(bool withModelsFile) const
    {
        auto doc = document(withModelsFile);
        doc["nodes"].push_back(json{{"id", "meet"},
                                    {"kind", "coordinator"},
                                    {"mode", "adaptive"},
                                    {"initial", 1},
                                    {"threshold", 0.99},
                                    {"max_rounds", 5}});
        for (const auto& [id, model] :
             std::vector<std::pair<std::string, std::string>>{{"c", kC}, {"a", kA}, {"b", kB}}) {
            doc["nodes"].push_back(json{{"id", id}, {"kind", "expert"}, {"model", model}, {"prompt", "{{task}}"}});
            doc["edges"].push_back(json{{"from", "meet"}, {"to", id}, {"role", "member"}});
        }
        doc["nodes"].push_back(json{{"id", "out"}, {"kind", "output"}});
        doc["edges"].push_back(json{{"from", "in"}, {"to", "meet"}});
        doc["edges"].push_back(json{{"from", "meet"}, {"to", "out"}});
        return doc;
    }

    std::shared_ptr<const PreparedTeam> prepare(const json& doc)
    {
        auto loaded = teamFromJson(doc);
        if (!loaded.team) {
            QTest::qFail("the test team does not load", __FILE__, __LINE__);
            return nullptr;
        }
        auto prepared = m_engine->prepare(*loaded.team, m_dir.path().toStdString());
        if (!prepared.team)
            QTest::qFail(("the team does not prepare: " + prepared.error).c_str(), __FILE__, __LINE__);
        return prepared.team;
    }

    RunResult run(const json& doc, const std::string& input)
    {
        const auto prepared = prepare(doc);
        if (!prepared)
            return {};
        auto started = m_engine->start(*prepared, input, Engine::StartOptions{});
        if (!started.run) {
            QTest::qFail(("the run did not start: " + started.error).c_str(), __FILE__, __LINE__);
            return {};
        }
        return started.run->wait();
    }

    // The experts that ran, in the order their node spans opened.
    static std::vector<std::string> ran(const RunResult& r)
    {
        std::vector<std::string> out;
        for (const auto& s : r.spans) {
            if (s.kind != SpanKind::Node || s.status != Status::Ok)
                continue;
            const auto& id = s.node.str();
            if (id == "a" || id == "b" || id == "c" || id == "ea" || id == "eb" || id == "ec")
                out.push_back(id);
        }
        return out;
    }

    // The gate a run of `doc` would get, made as Engine::start makes it.
    GateScorer gateOf(const json& doc)
    {
        const auto prepared = prepare(doc);
        if (!prepared)
            return {};
        ThreadPool pool(1);
        HttpHub hub;
        auto made = BackendFactory(m_engine->resources(), hub, std::make_shared<VirtualClock>(pool))
                        .make(*prepared, kMathPrompt, std::nullopt);
        return made.gate;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(!writeFileAtomically(m_dir.filePath(QStringLiteral("skills.json")).toStdString(), kModelsFile));
        m_server = std::make_unique<FakeOpenAiServer>();
        QVERIFY2(m_server->ok(), "the fake server did not start (python3?)");
        std::vector<std::string> errors;
        m_engine = std::make_unique<Engine>(EngineResources::load(CONCLAVE_RESOURCES, errors));
        QVERIFY(errors.empty());
    }

    void cleanupTestCase()
    {
        m_engine.reset();
        m_server.reset();
    }

    // The scores are the resources' gate weights times the file's skills, 0.5 where it says nothing.
    void theGateScoresTheFilesSkills()
    {
        const auto gate = gateOf(routed(true));
        QVERIFY(gate);
        const auto& g = *m_engine->resources().gate;
        const auto weights = g.weigh(kMathPrompt);
        double a = 0, b = 0, unknown = 0;
        for (size_t d = 0; d < weights.size(); ++d) {
            const auto& domain = g.domains()[d];
            a += weights[d] * (domain == "math" ? 0.9 : domain == "writing" ? 0.2 : 0.5);
            b += weights[d] * (domain == "math" ? 0.2 : domain == "writing" ? 0.9 : 0.5);
            unknown += weights[d] * 0.5;
        }
        // A catalog model the file does not name is not the catalog's: 0.5 a domain, as any unknown model.
        const auto scores = gate(kMathPrompt, {kA, kB, kC, "local/math-13b"});
        QCOMPARE(scores, (std::vector<double>{a, b, unknown, unknown}));
        QVERIFY(scores[0] > 0.8); // the prompt is math
    }

    void withoutAModelsFileThereIsNoGate() { QVERIFY(!gateOf(routed(false))); }

    // Beside a local backend: the openai file speaks for the models it names, a
    // catalog model among them too (the catalog's profile under the file's); the
    // local backend's profiles score every other model, as without the file.
    void aMixedTeamTakesTheFileFirst()
    {
        QVERIFY(!writeFileAtomically(m_dir.filePath(QStringLiteral("mixed.json")).toStdString(),
                                     R"({"models": {"local/math-13b": {"skills": {"math": 0.11}},
                                         "fake:text=alpha": {"skills": {"math": 0.9}}}})"));
        auto doc = routed(true);
        doc["backends"]["oa"]["models_file"] = "mixed.json";
        doc["backends"]["local"] = json{{"kind", "local-moe"}};
        const auto gate = gateOf(doc);
        QVERIFY(gate);
        const auto& resources = m_engine->resources();
        const auto& g = *resources.gate;
        const auto weights = g.weigh(kMathPrompt);
        const auto score = [&](std::map<std::string, double> skills) {
            double sum = 0;
            for (size_t d = 0; d < weights.size(); ++d)
                sum += weights[d] * (skills.count(g.domains()[d]) ? skills.at(g.domains()[d]) : 0.5);
            return sum;
        };
        auto math = *resources.localModels.at("local/math-13b").skills;
        math["math"] = 0.11;
        const auto code = *resources.localModels.at("local/code-13b").skills;
        QCOMPARE(gate(kMathPrompt, {"local/math-13b", "local/code-13b", kA, kC}),
                 (std::vector<double>{score(math), score(code), score({{"math", 0.9}}), score({})}));
    }

    void moeGateRoutesBySkill_data()
    {
        QTest::addColumn<bool>("withModelsFile");
        QTest::addColumn<QString>("prompt");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("math: A") << true << kMathPrompt << QStringList{"ea"};
        QTest::newRow("writing: B") << true << kWritingPrompt << QStringList{"eb"};
        QTest::newRow("no file, math: the first target") << false << kMathPrompt << QStringList{"ec"};
        QTest::newRow("no file, writing: the first target") << false << kWritingPrompt << QStringList{"ec"};
    }

    void moeGateRoutesBySkill()
    {
        QFETCH(bool, withModelsFile);
        QFETCH(QString, prompt);
        QFETCH(QStringList, expected);
        const auto r = run(routed(withModelsFile), prompt.toStdString());
        QCOMPARE(QString::fromStdString(std::string(toString(r.status))), QStringLiteral("ok"));
        QCOMPARE(asText(ran(r)), expected);
        for (const char* id : {"ea", "eb", "ec"}) {
            if (expected.front() != id)
                QVERIFY(r.results.at(NodeId(id)).status == Status::Skipped);
        }
    }

    void adaptiveRanksMembersBySkill_data()
    {
        QTest::addColumn<bool>("withModelsFile");
        QTest::addColumn<QString>("prompt");
        QTest::addColumn<QStringList>("expected");
        // C is in no file: 0.5 everywhere, between A and B.
        QTest::newRow("math: A, C, B") << true << kMathPrompt << QStringList{"a", "c", "b"};
        QTest::newRow("writing: B, C, A") << true << kWritingPrompt << QStringList{"b", "c", "a"};
        QTest::newRow("no file: edge order") << false << kMathPrompt << QStringList{"c", "a", "b"};
    }

    void adaptiveRanksMembersBySkill()
    {
        QFETCH(bool, withModelsFile);
        QFETCH(QString, prompt);
        QFETCH(QStringList, expected);
        const auto r = run(meeting(withModelsFile), prompt.toStdString());
        QCOMPARE(asText(ran(r)), expected);
    }
};

QTEST_GUILESS_MAIN(TestBackendFactoryGate)
#include "tst_backendfactorygate.moc"
