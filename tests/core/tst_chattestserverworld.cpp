// ChatTestServer answering from a ground-truth world: a tiny team run by the
// engine through its openai backend against the server gets, node by node,
// the replies, tokens and costs the same world gives in process (through
// LocalMoeBackend), in every streaming shape; the server times a call by the
// world, slower with the requests in flight at the server.
#include <QtTest>

#include "support/QtStrings.h"

#undef emit

#include "conclave/bench/ChatTestServer.h"
#include "conclave/bench/GroundTruthWorld.h"
#include "conclave/engine/PromptBuilder.h"
#include "conclave/engine/Run.h"
#include "conclave/engine/ThreadPool.h"
#include "conclave/engine/VirtualClock.h"
#include "conclave/io/TeamJson.h"
#include "conclave/local/LocalMoeBackend.h"
#include "conclave/session/Engine.h"
#include "conclave/session/PreparedTeam.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

using namespace conclave;
using json = nlohmann::json;
using namespace std::chrono_literals;

namespace {

const char* const kKeyVariable = "CONCLAVE_TEST_WORLD_KEY";
const std::filesystem::path kResources = CONCLAVE_RESOURCES;
const char* const kFrance = "What is the capital city of France?";

std::shared_ptr<const GroundTruthWorld> bundledWorld(const std::string& name)
{
    auto loaded = GroundTruthWorld::load(kResources / "bench" / "worlds" / (name + ".json"), kResources);
    if (!loaded.world)
        qFatal("world %s does not load", name.c_str());
    return loaded.world;
}

// in -> e0 (alpha), e1 (beta) -> syn (gamma, synthesize) -> out, on the openai
// backend "w" at `baseUrl`, with the world's prices.
json synthesisTeam(const GroundTruthWorld& world, const std::string& baseUrl, bool stream)
{
    json prices = json::object();
    for (const auto& [name, m] : world.spec().models)
        prices[name] = {{"input", m.pricePerMtok.input}, {"output", m.pricePerMtok.output}};
    json doc = {{"conclave", 1}, {"name", "world team"}};
    doc["backends"]["w"] = {{"kind", "openai"},     {"base_url", baseUrl}, {"api_key_env", kKeyVariable},
                            {"max_concurrency", 8}, {"stream", stream},    {"prices", prices}};
    doc["defaults"] = {{"backend", "w"}, {"timeout_ms", 600000}, {"retries", 0}};
    doc["nodes"] =
        json::array({json{{"id", "in"}, {"kind", "input"}},
                     json{{"id", "e0"}, {"kind", "expert"}, {"model", "alpha"}, {"prompt", "{{input}}"}},
                     json{{"id", "e1"}, {"kind", "expert"}, {"model", "beta"}, {"prompt", "{{input}}"}},
                     json{{"id", "syn"}, {"kind", "aggregator"}, {"strategy", "synthesize"}, {"model", "gamma"}},
                     json{{"id", "out"}, {"kind", "output"}}});
    doc["edges"] = json::array({json{{"from", "in"}, {"to", "e0"}}, json{{"from", "in"}, {"to", "e1"}},
                                json{{"from", "e0"}, {"to", "syn"}}, json{{"from", "e1"}, {"to", "syn"}},
                                json{{"from", "syn"}, {"to", "out"}}});
    return doc;
}

Team load(const json& doc)
{
    auto loaded = teamFromJson(doc);
    if (!loaded.team)
        qFatal("the test team does not load: %s", loaded.problems.front().message.c_str());
    return *loaded.team;
}

// The team run in process: its backend "w" is the world on a LocalMoeBackend, on the virtual clock.
RunResult runInProcess(Engine& engine, const Team& team, std::shared_ptr<const GroundTruthWorld> world,
                       const std::string& input)
{
    const auto prepared = engine.prepare(team);
    if (!prepared.team)
        qFatal("the team does not prepare: %s", prepared.error.c_str());
    ThreadPool pool(2);
    auto clock = std::make_shared<VirtualClock>(pool);
    std::map<BackendName, std::shared_ptr<ModelBackend>> backends;
    backends.emplace(BackendName("w"), std::make_shared<LocalMoeBackend>(std::move(world), clock, 1.0));
    RunOptions options;
    options.input = input;
    auto run = std::make_shared<Run>(prepared.team->plan, std::move(options), std::move(backends), GateScorer{}, clock);
    run->start();
    if (!run->waitFor(60s))
        qFatal("the in-process run did not finish");
    return run->wait();
}

} // namespace

class TestChatTestServerWorld : public QObject {
    Q_OBJECT

    std::unique_ptr<Engine> m_engine;

private slots:
    void initTestCase()
    {
        qputenv(kKeyVariable, "sk-world-test");
        std::vector<std::string> errors;
        m_engine = std::make_unique<Engine>(EngineResources::load(CONCLAVE_RESOURCES, errors));
        QVERIFY(errors.empty());
    }
    void cleanupTestCase() { m_engine.reset(); }

    void servedTeamAnswersAsInProcess_data()
    {
        QTest::addColumn<QString>("world");
        QTest::addColumn<QString>("shape");
        QTest::addColumn<bool>("stream");
        QTest::addColumn<QString>("input");
        QTest::newRow("lab-a, chunked SSE") << "lab-a"
                                            << "chunked" << true << kFrance;
        QTest::newRow("lab-b, headers late") << "lab-b"
                                             << "late-headers" << true << "Calculate 323 + 460.";
        QTest::newRow("lab-c, content-length") << "lab-c"
                                               << "content-length" << true << kFrance;
        QTest::newRow("lab-e, not streamed") << "lab-e"
                                             << "chunked" << false << "Which element has atomic number 1?";
    }
    void servedTeamAnswersAsInProcess()
    {
        QFETCH(QString, world);
        QFETCH(QString, shape);
        QFETCH(bool, stream);
        QFETCH(QString, input);
        const auto w = bundledWorld(world.toStdString());
        ChatTestServerOptions options;
        options.shape = *serverShapeFromString(shape.toStdString());
        options.responder = w;
        options.responderTimeScale = 0.02;
        std::string error;
        auto server = ChatTestServer::start(options, error);
        QVERIFY2(server, error.c_str());
        const auto team = load(synthesisTeam(*w, server->baseUrl(), stream));

        auto started = m_engine->start(team, input.toStdString());
        QVERIFY2(started.run, started.error.c_str());
        const auto served = started.run->wait();
        const auto local = runInProcess(*m_engine, team, w, input.toStdString());
        QVERIFY(served.status == RunStatus::Ok);
        QVERIFY(local.status == RunStatus::Ok);
        for (const char* node : {"e0", "e1", "syn"}) {
            const auto& a = served.results.at(NodeId(node));
            const auto& b = local.results.at(NodeId(node));
            QCOMPARE(q(a.text), q(b.text));
            QCOMPARE(a.tokensIn, b.tokensIn);
            QCOMPARE(a.tokensOut, b.tokensOut);
            QCOMPARE(a.costUsd, b.costUsd);
            QVERIFY(a.text.find("\nAnswer: ") != std::string::npos);
        }
        QCOMPARE(q(served.output.answer), q(local.output.answer));
        QCOMPARE(server->stats().requests, int64_t(3));
    }

    void servedCallsSlowWithTheServersLoad()
    {
        // Three identical calls (the same draws): the k-th to arrive takes
        // the world's time × (1 + load_slope · (k − 1)) × the time scale.
        const auto w = bundledWorld("lab-b"); // alpha: load_slope 0.15
        const double scale = 0.25;
        ChatTestServerOptions options;
        options.responder = w;
        options.responderTimeScale = scale;
        std::string error;
        auto server = ChatTestServer::start(options, error);
        QVERIFY2(server, error.c_str());
        json doc = synthesisTeam(*w, server->baseUrl(), true);
        doc["nodes"] = json::array({json{{"id", "in"}, {"kind", "input"}}, json{{"id", "out"}, {"kind", "output"}},
                                    json{{"id", "agg"}, {"kind", "aggregator"}, {"strategy", "concat"}}});
        doc["edges"] = json::array({json{{"from", "agg"}, {"to", "out"}}});
        for (const char* id : {"a", "b", "c"}) {
            doc["nodes"].push_back(json{{"id", id}, {"kind", "expert"}, {"model", "alpha"}, {"prompt", "{{input}}"}});
            doc["edges"].push_back(json{{"from", "in"}, {"to", id}});
            doc["edges"].push_back(json{{"from", id}, {"to", "agg"}});
        }
        auto started = m_engine->start(load(doc), kFrance);
        QVERIFY2(started.run, started.error.c_str());
        QVERIFY(started.run->wait().status == RunStatus::Ok);

        ModelRequest request;
        request.model = "alpha";
        request.system = std::string(PromptBuilder::answerFormat());
        request.prompt = kFrance;
        const auto call = w->respond(request);
        auto answered = server->stats().answered;
        QCOMPARE(answered.size(), size_t(3));
        std::sort(answered.begin(), answered.end(), [](const auto& x, const auto& y) { return x.arrived < y.arrived; });
        for (size_t k = 0; k < answered.size(); ++k) {
            const double ms =
                std::chrono::duration<double, std::milli>(answered[k].ended - answered[k].arrived).count();
            const double expected = call.totalMs * (1 + 0.15 * double(k)) * scale;
            qInfo("arrival %zu: %.1f ms at the server, %.1f ms due", k + 1, ms, expected);
            QVERIFY2(ms >= expected - 1.5 && ms <= expected + 100, std::to_string(ms).c_str());
        }
    }

    void anUnknownModelIsRefused()
    {
        ChatTestServerOptions options;
        options.responder = bundledWorld("lab-a");
        std::string error;
        auto server = ChatTestServer::start(options, error);
        QVERIFY2(server, error.c_str());
        json doc = synthesisTeam(*bundledWorld("lab-a"), server->baseUrl(), true);
        doc["nodes"][1]["model"] = "omega";
        auto started = m_engine->start(load(doc), kFrance);
        QVERIFY2(started.run, started.error.c_str());
        const auto r = started.run->wait();
        const auto& e0 = r.results.at(NodeId("e0"));
        QVERIFY(e0.status != Status::Ok);
        QVERIFY2(e0.error.find("unknown model \"omega\" in world \"lab-a\"") != std::string::npos, e0.error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestChatTestServerWorld)
#include "tst_chattestserverworld.moc"
