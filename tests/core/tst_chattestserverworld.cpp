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

// A tiny team on the openai backend "w" at `baseUrl`, with the world's prices:
//   synthesis  in -> e0 (alpha), e1 (beta) -> syn (gamma, synthesize) -> out
//   debate     in -> a debate of alpha, beta and gamma, two rounds -> out
//   decompose  in -> gamma plans and combines, alpha and beta answer the parts -> out
// (a debate's second round shows the members the first: member turns read from the transcript)
json worldTeam(const GroundTruthWorld& world, const std::string& baseUrl, bool stream,
               const std::string& design = "synthesis")
{
    json prices = json::object();
    for (const auto& [name, m] : world.spec().models)
        prices[name] = {{"input", m.pricePerMtok.input}, {"output", m.pricePerMtok.output}};
    json doc = {{"conclave", 1}, {"name", "world team"}};
    doc["backends"]["w"] = {{"kind", "openai"},     {"base_url", baseUrl}, {"api_key_env", kKeyVariable},
                            {"max_concurrency", 8}, {"stream", stream},    {"prices", prices}};
    doc["defaults"] = {{"backend", "w"}, {"timeout_ms", 600000}, {"retries", 0}};
    const auto expert = [](const char* id, const char* model) {
        return json{{"id", id}, {"kind", "expert"}, {"model", model}};
    };
    doc["nodes"] = json::array({json{{"id", "in"}, {"kind", "input"}}, json{{"id", "out"}, {"kind", "output"}}});
    doc["edges"] = json::array();
    const auto edge = [&](const char* from, const char* to, bool member = false) {
        json e = {{"from", from}, {"to", to}};
        if (member)
            e["role"] = "member";
        doc["edges"].push_back(e);
    };
    if (design == "synthesis") {
        doc["nodes"].push_back(expert("e0", "alpha"));
        doc["nodes"].push_back(expert("e1", "beta"));
        doc["nodes"].push_back(
            json{{"id", "syn"}, {"kind", "aggregator"}, {"strategy", "synthesize"}, {"model", "gamma"}});
        edge("in", "e0"), edge("in", "e1"), edge("e0", "syn"), edge("e1", "syn"), edge("syn", "out");
    } else {
        json lead = {{"id", "lead"}, {"kind", "coordinator"}, {"mode", design}};
        if (design == "debate")
            lead["max_rounds"] = 2;
        else
            lead["model"] = "gamma";
        doc["nodes"].push_back(lead);
        doc["nodes"].push_back(expert("m0", "alpha"));
        doc["nodes"].push_back(expert("m1", "beta"));
        edge("in", "lead"), edge("lead", "m0", true), edge("lead", "m1", true), edge("lead", "out");
        if (design == "debate") {
            doc["nodes"].push_back(expert("m2", "gamma"));
            edge("lead", "m2", true);
        }
    }
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
        QTest::addColumn<QString>("design");
        QTest::addColumn<int>("calls"); // model calls, every one served
        QTest::newRow("lab-a, chunked SSE") << "lab-a"
                                            << "chunked" << true << kFrance << "synthesis" << 3;
        QTest::newRow("lab-b, headers late") << "lab-b"
                                             << "late-headers" << true << "Calculate 323 + 460."
                                             << "synthesis" << 3;
        QTest::newRow("lab-c, content-length") << "lab-c"
                                               << "content-length" << true << kFrance << "synthesis" << 3;
        QTest::newRow("lab-e, not streamed") << "lab-e"
                                             << "chunked" << false << "Which element has atomic number 1?"
                                             << "synthesis" << 3;
        QTest::newRow("lab-c, debate") << "lab-c"
                                       << "chunked" << true << "Calculate 838 + 934."
                                       << "debate" << 6;
        QTest::newRow("lab-d, decompose") << "lab-d"
                                          << "chunked" << true << "Calculate 323 + 460. And what is 6 * 7?"
                                          << "decompose" << 3;
    }
    void servedTeamAnswersAsInProcess()
    {
        QFETCH(QString, world);
        QFETCH(QString, shape);
        QFETCH(bool, stream);
        QFETCH(QString, input);
        QFETCH(QString, design);
        QFETCH(int, calls);
        const auto w = bundledWorld(world.toStdString());
        ChatTestServerOptions options;
        options.shape = *serverShapeFromString(shape.toStdString());
        options.responder = w;
        options.responderTimeScale = 0.02;
        std::string error;
        auto server = ChatTestServer::start(options, error);
        QVERIFY2(server, error.c_str());
        const auto team = load(worldTeam(*w, server->baseUrl(), stream, design.toStdString()));

        auto started = m_engine->start(team, input.toStdString());
        QVERIFY2(started.run, started.error.c_str());
        const auto served = started.run->wait();
        const auto local = runInProcess(*m_engine, team, w, input.toStdString());
        QVERIFY(served.status == RunStatus::Ok);
        QVERIFY(local.status == RunStatus::Ok);
        QCOMPARE(served.results.size(), local.results.size());
        int64_t modelCalls = 0;
        for (const auto& [node, a] : served.results) {
            const auto& b = local.results.at(node);
            QCOMPARE(q(a.text), q(b.text));
            QCOMPARE(a.tokensIn, b.tokensIn);
            QCOMPARE(a.tokensOut, b.tokensOut);
            QCOMPARE(a.costUsd, b.costUsd);
        }
        for (const auto& span : served.spans)
            modelCalls += span.kind == SpanKind::Attempt ? 1 : 0;
        QCOMPARE(q(served.output.answer), q(local.output.answer));
        qInfo("%s: %lld calls, answer \"%s\"", qPrintable(design), static_cast<long long>(modelCalls),
              served.output.answer.c_str());
        QCOMPARE(server->stats().requests, modelCalls);
        QCOMPARE(modelCalls, int64_t(calls));
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
        json doc = worldTeam(*w, server->baseUrl(), true);
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
        json doc = worldTeam(*bundledWorld("lab-a"), server->baseUrl(), true);
        doc["nodes"][2]["model"] = "omega"; // e0
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
