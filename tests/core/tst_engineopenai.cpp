// The engine with openai backends, against the fake server on 127.0.0.1:
// a team mixing local-moe and openai experts end to end, retries that honour
// the server's Retry-After, no retries for requests the server refuses, a
// missing key said before the run starts, cancellation mid-stream, and the
// key appearing nowhere in what a run produces.
#include <QtTest>

#include <QDirIterator>
#include <QTemporaryDir>

#include "support/FakeOpenAiServer.h"
#include "support/QtStrings.h"

#undef emit

#include "conclave/engine/RunJson.h"
#include "conclave/engine/RunObserver.h"
#include "conclave/export/RunExport.h"
#include "conclave/io/TeamJson.h"
#include "conclave/session/Engine.h"
#include "conclave/store/RunQueries.h"
#include "conclave/store/RunRecorder.h"
#include "conclave/store/RunStore.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <string>

using namespace conclave;
using json = nlohmann::json;
using namespace std::chrono_literals;

namespace {

const char* const kKeyVariable = "CONCLAVE_TEST_OPENAI_KEY";
const char* const kKey = "sk-engine-test-c0ffee1234567890";

class TokenCounter : public RunObserver {
public:
    void nodeToken(const NodeId&, SpanId, std::string_view, int64_t) override { ++tokens; }
    std::atomic<int> tokens{0};
};

std::vector<Span> attempts(const RunResult& r, const std::string& node)
{
    std::vector<Span> out;
    for (const auto& s : r.spans) {
        if (s.kind == SpanKind::Attempt && s.node.str() == node)
            out.push_back(s);
    }
    return out;
}

} // namespace

class TestEngineOpenAi : public QObject {
    Q_OBJECT

    std::unique_ptr<FakeOpenAiServer> m_server;
    std::unique_ptr<Engine> m_engine;

    // in -> one expert per model on the openai backend "oa" -> concat -> out.
    json team(const std::vector<std::string>& models, int retries = 2)
    {
        json doc = json::object();
        doc["conclave"] = 1;
        doc["name"] = "openai test";
        doc["backends"]["oa"] = json{{"kind", "openai"},
                                     {"base_url", m_server->baseUrl()},
                                     {"api_key_env", kKeyVariable},
                                     {"max_concurrency", 4},
                                     {"prices", {{"fake:chunks=3", {{"input", 1.0}, {"output", 2.0}}}}}};
        doc["defaults"] = json{{"backend", "oa"}, {"timeout_ms", 10000}, {"retries", retries}};
        doc["nodes"] = json::array({json{{"id", "in"}, {"kind", "input"}}});
        doc["edges"] = json::array();
        for (size_t i = 0; i < models.size(); ++i) {
            const auto id = "e" + std::to_string(i);
            doc["nodes"].push_back(json{{"id", id}, {"kind", "expert"}, {"model", models[i]}, {"prompt", "{{input}}"}});
            doc["edges"].push_back(json{{"from", "in"}, {"to", id}});
            doc["edges"].push_back(json{{"from", id}, {"to", "agg"}});
        }
        doc["nodes"].push_back(json{{"id", "agg"}, {"kind", "aggregator"}, {"strategy", "concat"}});
        doc["nodes"].push_back(json{{"id", "out"}, {"kind", "output"}});
        doc["edges"].push_back(json{{"from", "agg"}, {"to", "out"}});
        return doc;
    }

    Team load(const json& doc)
    {
        auto loaded = teamFromJson(doc);
        for (const auto& p : loaded.problems)
            qWarning("%s", p.message.c_str());
        if (!loaded.team)
            qFatal("the test team does not load");
        return *loaded.team;
    }

    RunResult runToEnd(const json& doc, std::vector<RunObserver*> observers = {})
    {
        auto started = m_engine->start(load(doc), "What is 2 + 2?", std::nullopt, std::move(observers));
        if (!started.run)
            qFatal("the run did not start: %s", started.error.c_str());
        return started.run->wait();
    }

private slots:
    void initTestCase()
    {
        qputenv(kKeyVariable, kKey);
        m_server = std::make_unique<FakeOpenAiServer>(QStringList{QStringLiteral("--key"), QString::fromUtf8(kKey)});
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

    void mixedLocalAndOpenAiTeamRunsEndToEnd()
    {
        auto doc = team({"fake:chunks=3"});
        doc["backends"]["local"] = json{{"kind", "local-moe"}, {"seed", 7}, {"time_scale", 0.01}};
        doc["nodes"].push_back(
            json{{"id", "sim"}, {"kind", "expert"}, {"backend", "local"}, {"model", "local/math-13b"}, {"prompt", "{{input}}"}});
        doc["edges"].push_back(json{{"from", "in"}, {"to", "sim"}});
        doc["edges"].push_back(json{{"from", "sim"}, {"to", "agg"}});
        TokenCounter tokens;
        const auto r = runToEnd(doc, {&tokens});
        QVERIFY2(r.status == RunStatus::Ok, std::string(toString(r.status)).c_str());
        const auto& web = r.results.at(NodeId("e0"));
        QVERIFY(web.status == Status::Ok);
        QCOMPARE(q(web.text), QStringLiteral("t0 t1 t2 "));
        QCOMPARE(web.tokensIn, int64_t(11));
        QCOMPARE(web.tokensOut, int64_t(3));
        QCOMPARE(web.costUsd, (11 * 1.0 + 3 * 2.0) / 1e6);
        QVERIFY(r.results.at(NodeId("sim")).status == Status::Ok);
        const auto webAttempts = attempts(r, "e0");
        QCOMPARE(webAttempts.size(), size_t(1));
        QCOMPARE(q(webAttempts[0].model), QStringLiteral("fake:chunks=3"));
        QVERIFY(webAttempts[0].ttftUs >= 0);
        QVERIFY(webAttempts[0].ttftUs <= webAttempts[0].durationUs());
        QCOMPARE(attempts(r, "sim").size(), size_t(1));
        QVERIFY(tokens.tokens >= 4);  // three streamed chunks and the simulator's one
        QVERIFY(r.output.text.find("t0 t1 t2") != std::string::npos);
    }

    // Replaying a call needs its reply (streamed or not), its draw key, and the
    // endpoint's own time apart from the wait for admission (#30).
    void attemptsRecordWhatAReplayNeeds()
    {
        QTemporaryDir dir;
        auto doc = team({"fake:chunks=2;accept=400", "fake:chunks=2;accept=400"});
        doc["backends"]["oa"]["max_concurrency"] = 1;
        doc["backends"]["oa"]["stream"] = false;
        const auto teamValue = load(doc);
        auto opened = RunStore::open(dir.filePath(QStringLiteral("runs.sqlite")).toStdString());
        QVERIFY(opened.store);
        std::string error;
        auto recorder = opened.store->record(teamValue, error);
        QVERIFY2(recorder, error.c_str());
        const auto id = recorder->id();
        auto started = m_engine->start(teamValue, "What is 2 + 2?", std::nullopt, {recorder.get()});
        QVERIFY(started.run);
        const auto r = started.run->wait();
        QVERIFY(r.status == RunStatus::Ok);
        opened.store->flush();
        auto reader = opened.store->reader(error);
        QVERIFY2(reader, error.c_str());
        const auto stored = reader->load(id, true, error);
        QVERIFY2(stored, error.c_str());
        std::vector<Span> calls;
        for (const auto& span : stored->spans) {
            if (span.kind == SpanKind::Attempt)
                calls.push_back(span);
        }
        QCOMPARE(calls.size(), size_t(2));
        std::sort(calls.begin(), calls.end(), [](const Span& a, const Span& b) { return a.waitUs < b.waitUs; });
        QStringList draws;
        for (const auto& call : calls) {
            QCOMPARE(call.inflight, int64_t(1)); // max_concurrency 1: each ran alone
            QVERIFY2(call.serviceUs() >= 400'000, std::to_string(call.serviceUs()).c_str());
            QCOMPARE(q(stored->texts.at(call.id)), QStringLiteral("t0 t1 ")); // nothing streamed, all kept
            draws << q(call.draw);
        }
        // The second waited for the first's answer (the server holds each for 400 ms before reading it).
        QVERIFY2(calls[0].waitUs < 200'000, std::to_string(calls[0].waitUs).c_str());
        QVERIFY2(calls[1].waitUs >= 400'000, std::to_string(calls[1].waitUs).c_str());
        QCOMPARE(calls[1].serviceUs(), calls[1].durationUs() - calls[1].waitUs);
        draws.sort();
        QCOMPARE(draws.join(QLatin1Char(',')), QStringLiteral("expert:0,expert:1"));
    }

    void retriesHonourRetryAfter_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<int>("waitMs");
        QTest::newRow("retry-after-ms") << "fake:status=429;times=2;retry_after_ms=300;chunks=2" << 300;
        QTest::newRow("Retry-After seconds") << "fake:status=503;times=1;retry_after=1;chunks=2" << 1000;
    }
    void retriesHonourRetryAfter()
    {
        QFETCH(QString, model);
        QFETCH(int, waitMs);
        const auto r = runToEnd(team({model.toStdString()}));
        QVERIFY(r.status == RunStatus::Ok);
        const auto spans = attempts(r, "e0");
        const size_t failures = model.contains(QStringLiteral("times=2")) ? 2 : 1;
        QCOMPARE(spans.size(), failures + 1);
        for (size_t i = 0; i < failures; ++i) {
            QVERIFY(spans[i].status == Status::Failed);
            QCOMPARE(q(spans[i].error), QStringLiteral("scripted failure"));
            const double gapMs = double(spans[i + 1].startUs - spans[i].endUs) / 1000.0;
            QVERIFY2(gapMs >= waitMs - 5 && gapMs < waitMs + 1000, std::to_string(gapMs).c_str());
        }
        QVERIFY(spans.back().status == Status::Ok);
        QCOMPARE(m_server->stats()["by_model"].value(model.toStdString(), 0), int(failures + 1));
    }

    void noRetryWhenTheServerRefuses_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("message");
        QTest::newRow("400") << "fake:status=400;etype=invalid_request_error;message=Unsupported parameter: 'max_tokens'"
                             << "Unsupported parameter: 'max_tokens'";
        QTest::newRow("401") << "fake:status=401;message=Invalid authentication" << "Invalid authentication";
        QTest::newRow("quota") << "fake:status=429;code=insufficient_quota;message=You exceeded your current quota"
                               << "You exceeded your current quota";
    }
    void noRetryWhenTheServerRefuses()
    {
        QFETCH(QString, model);
        QFETCH(QString, message);
        const auto r = runToEnd(team({model.toStdString()}, 3));
        QVERIFY(r.status == RunStatus::Failed);
        const auto spans = attempts(r, "e0");
        QCOMPARE(spans.size(), size_t(1));
        QVERIFY(spans[0].status == Status::Failed);
        QCOMPARE(q(spans[0].error), message);
        QCOMPARE(q(r.results.at(NodeId("e0")).error), message);
        QCOMPARE(m_server->stats()["by_model"].value(model.toStdString(), 0), 1);
    }

    void aMissingKeyIsAnErrorBeforeTheRun()
    {
        auto doc = team({"fake:chunks=1"});
        doc["backends"]["oa"]["api_key_env"] = "CONCLAVE_TEST_UNSET_KEY";
        qunsetenv("CONCLAVE_TEST_UNSET_KEY");
        const int before = m_server->stats().value("requests", 0);
        const auto started = m_engine->start(load(doc), "hi");
        QVERIFY(!started.run);
        QCOMPARE(q(started.error), QStringLiteral("backend \"oa\" reads its API key from the environment variable "
                                                  "CONCLAVE_TEST_UNSET_KEY, which is not set"));
        QCOMPARE(m_server->stats().value("requests", 0), before);
    }

    void cancelMidStreamEndsTheSpanCancelled()
    {
        TokenCounter tokens;
        auto started = m_engine->start(load(team({"fake:chunks=200;gap=50"})), "hi", std::nullopt, {&tokens});
        QVERIFY(started.run);
        QTRY_VERIFY_WITH_TIMEOUT(tokens.tokens >= 2, 5000);
        QElapsedTimer clock;
        clock.start();
        started.run->cancel();
        QVERIFY(started.run->waitFor(100ms));
        QVERIFY2(clock.elapsed() < 100, std::to_string(clock.elapsed()).c_str());
        const auto r = started.run->wait();
        QVERIFY(r.status == RunStatus::Cancelled);
        const auto spans = attempts(r, "e0");
        QCOMPARE(spans.size(), size_t(1));
        QVERIFY(spans[0].status == Status::Cancelled);
        QTRY_COMPARE_WITH_TIMEOUT(m_server->stats().value("in_flight", -1), 0, 3000);  // the transfer stopped
    }

    void theKeyAppearsNowhere()
    {
        const std::string key = kKey;
        // The server echoes what it was sent, in an error and in a failed retry.
        auto doc = team({"fake:status=401;echo_key=1;message=bad key", "fake:status=500;echo_key=1;message=oops",
                         "fake:chunks=3"});
        const auto r = runToEnd(doc);
        const auto text = runResultToJson(r, "run-1").dump();
        QVERIFY(text.find("[redacted]") != std::string::npos);  // the echoes were there, and were caught
        QVERIFY(text.find(key) == std::string::npos);
        QVERIFY(text.find(key.substr(0, 16)) == std::string::npos);
        for (const auto& span : r.spans)
            QVERIFY(span.error.find(key) == std::string::npos);
        for (const auto& [node, result] : r.results) {
            QVERIFY(result.error.find(key) == std::string::npos);
            QVERIFY(result.text.find(key) == std::string::npos);
        }
        QVERIFY(teamToJsonText(load(doc)).find(key) == std::string::npos);
    }

    void theKeyIsNotInTheRunStoreNorItsExports()
    {
        const QByteArray key(kKey);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto doc = team({"fake:status=401;echo_key=1;message=bad key", "fake:status=500;echo_key=1;message=oops",
                               "fake:chunks=3"});
        RunId id;
        {
            auto opened = RunStore::open(dir.filePath("runs.sqlite").toStdString());
            QVERIFY2(opened.store, opened.error.c_str());
            std::string error;
            auto recorder = opened.store->record(load(doc), error);
            QVERIFY2(recorder, error.c_str());
            id = recorder->id();
            const auto r = runToEnd(doc, {recorder.get()});
            QVERIFY(r.status != RunStatus::Running);
            QCOMPARE(q(recorder->waitUntilStored()), QString());
            auto reader = opened.store->reader(error);
            QVERIFY2(reader, error.c_str());
            const auto stored = reader->load(id, true, error);
            QVERIFY2(stored, error.c_str());
            QCOMPARE(int(stored->spans.size()), int(r.spans.size()));
            for (const auto format : {ExportFormat::Json, ExportFormat::Chrome, ExportFormat::Otlp, ExportFormat::Csv}) {
                const auto text = exportRun(*stored, format);
                QVERIFY(!text.empty());
                QVERIFY2(text.find(kKey) == std::string::npos, text.c_str());
            }
        }
        // Every byte the store left on disk: the database and any journal beside it.
        int files = 0;
        for (QDirIterator it(dir.path(), QDir::Files); it.hasNext();) {
            QFile file(it.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray bytes = file.readAll();
            QVERIFY2(!bytes.contains(key), qPrintable(file.fileName()));
            QVERIFY2(!bytes.contains(key.left(16)), qPrintable(file.fileName()));
            ++files;
        }
        QVERIFY(files >= 1);
    }
};

QTEST_GUILESS_MAIN(TestEngineOpenAi)
#include "tst_engineopenai.moc"
