// ChatServer (`conclave serve`) against hostile and departing clients: a run
// cancelled when its client goes away, a hundred disconnects mid-stream,
// drains (idle and under load), a slow client cut off, a wide --host refused
// without keys, and no key in the store or the access log.
#include <QtTest>

#include "support/ChatServerFixture.h"
#include "support/RawHttpClient.h"

#include <mutex>
#include <thread>

using namespace chatservertest;
using testsupport::RawHttpClient;
using namespace testsupport::serveclient;

class TestChatServerHostile : public ChatServerFixture {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(setUp()); }

    void cancelsTheRunOfAClientThatLeaves()
    {
        auto server = serve();
        std::string runId;
        {
            RawHttpClient client(server->port());
            QVERIFY(client.send(request("POST", "/v1/chat/completions", chat("slow", kMath, R"(, "stream": true)"))));
            const auto head = parseReply(client.readUntil("\"role\"", 5s));
            QCOMPARE(head.status, 200);
            runId = head.headers.at("x-conclave-run-id");
        } // closed mid-stream
        QVERIFY(eventually([&] {
            const auto run = stored(runId);
            return run && run->summary.status == RunStatus::Cancelled;
        }));
        QVERIFY(eventually([&] {
            return m_log.str().find("\"run_id\":\"" + runId + "\"") != std::string::npos;
        }));
        QVERIFY(m_log.str().find("\"client\":\"disconnected\"") != std::string::npos);
    }

    void drainsThenCancels()
    {
        auto server = serve();
        RawHttpClient health(server->port()); // opened before the drain closes the listener
        RawHttpClient client(server->port());
        QVERIFY(client.send(request("POST", "/v1/chat/completions", chat("slow", kMath, R"(, "stream": true)"))));
        const auto head = parseReply(client.readUntil("\"role\"", 5s));
        const std::string runId = head.headers.at("x-conclave-run-id");
        int cancelled = -1;
        std::thread drain([&] { cancelled = server->drain(300ms); });
        QVERIFY(eventually([&] { return RawHttpClient(server->port()).connected() == false; }));
        QVERIFY(health.send(request("GET", "/healthz", {})));
        const auto h = parseReply(health.readToClose(5s));
        QCOMPARE(h.status, 503);
        QCOMPARE(h.body, std::string(R"({"status":"draining","teams":3,"running":1,"queued":0})"
                                     "\n"));
        drain.join();
        QCOMPARE(cancelled, 1);
        const auto data = events(parseReply(client.readToClose(5s)).body);
        // role, the tokens sent so far, the error, [DONE]
        QVERIFY(data.size() >= 3);
        QVERIFY(json::parse(data.front())["choices"][0]["delta"].contains("role"));
        for (size_t i = 1; i + 2 < data.size(); ++i)
            QVERIFY(json::parse(data[i])["choices"][0]["delta"].contains("content"));
        QCOMPARE(data.back(), std::string("[DONE]"));
        const auto error = json::parse(data[data.size() - 2])["error"];
        QCOMPARE(error["code"].get<std::string>(), std::string("draining"));
        QCOMPARE(error["message"].get<std::string>(),
                 "the server shut down before the run ended [run " + runId + "]");
        const auto run = stored(runId);
        QVERIFY(run->summary.status == RunStatus::Cancelled);
        QVERIFY(run->summary.endedAtMs > 0);
    }

    // Hostile clients: a hundred that leave mid-stream, then a drain under
    // load. The server answers the others, every run that started is stored
    // ended, and the database passes its integrity check.
    void survivesAHundredDisconnectsMidStream()
    {
        ChatServerOptions options;
        options.maxConcurrency = 128;
        auto server = serve(options, {"one.team.json", "slower.team.json"});
        std::vector<std::string> runIds;
        {
            std::vector<std::unique_ptr<RawHttpClient>> clients;
            for (int i = 0; i < 100; ++i) {
                clients.push_back(std::make_unique<RawHttpClient>(server->port()));
                QVERIFY(clients.back()->send(
                    request("POST", "/v1/chat/completions", chat("slower", kMath, R"(, "stream": true)"))));
            }
            for (auto& client : clients) {
                const auto head = parseReply(client->readUntil("\"role\"", 10s));
                QCOMPARE(head.status, 200);
                runIds.push_back(head.headers.at("x-conclave-run-id"));
            }
        } // all leave mid-stream
        QCOMPARE(call(server->port(), "POST", "/v1/chat/completions", chat("one", kMath)).status, 200);
        int cancelled = 0;
        for (const auto& id : runIds) {
            QVERIFY(eventually([&] {
                const auto run = stored(id);
                return run && run->summary.endedAtMs > 0;
            }));
            const auto status = stored(id)->summary.status;
            if (status != RunStatus::Cancelled)
                qWarning("run %s: %s", id.c_str(), std::string(toString(status)).c_str());
            cancelled += status == RunStatus::Cancelled ? 1 : 0;
        }
        QCOMPARE(cancelled, 100);
        QVERIFY(eventually([&] { return server->metrics().text().find("conclave_requests_in_flight 0\n") !=
                                        std::string::npos; }));
        checkIntegrity();
    }

    void drainsUnderLoad()
    {
        auto server = serve();
        std::vector<std::unique_ptr<RawHttpClient>> clients;
        for (int i = 0; i < 30; ++i) {
            clients.push_back(std::make_unique<RawHttpClient>(server->port()));
            QVERIFY(clients.back()->send(request("POST", "/v1/chat/completions",
                                                 chat(i % 2 ? "slow" : "one", kMath, R"(, "stream": true)"))));
        }
        for (auto& client : clients)
            QVERIFY(client->readUntil("\"role\"", 10s).find("x-conclave-run-id") != std::string::npos);
        const int cancelled = server->drain(50ms);
        QVERIFY(cancelled >= 1 && cancelled <= 15);
        int ended = 0;
        for (auto& client : clients) {
            const auto reply = parseReply(client->readToClose(10s));
            const auto data = events(reply.body);
            QVERIFY(!data.empty());
            QCOMPARE(data.back(), std::string("[DONE]"));
            const auto run = stored(reply.headers.at("x-conclave-run-id"));
            QVERIFY(run);
            QVERIFY(run->summary.endedAtMs > 0);
            QVERIFY(run->summary.status == RunStatus::Ok || run->summary.status == RunStatus::Cancelled);
            ++ended;
        }
        QCOMPARE(ended, 30);
        checkIntegrity();
    }

    void keepsKeysOutOfTheStoreAndTheLog()
    {
        {
            auto server = serve(withKeys(kKey + " name=alice"));
            QCOMPARE(call(server->port(), "POST", "/v1/chat/completions", chat("one", kMath), kKey).status, 200);
            QCOMPARE(call(server->port(), "POST", "/v1/chat/completions", chat("one", kMath), kKey + "x").status,
                     401);
            QCOMPARE(call(server->port(), "POST", "/v1/chat/completions",
                          chat("one", kMath, R"(, "stream": true)"), kKey)
                         .status,
                     200);
        }
        m_store->flush();
        QVERIFY(m_log.str().find("\"key\":\"alice\"") != std::string::npos);
        QCOMPARE(m_log.str().find("sk-test"), std::string::npos);
        for (const char* file : {"runs.sqlite", "runs.sqlite-wal"}) {
            std::ifstream in(path(file), std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            QCOMPARE(bytes.find("sk-test"), std::string::npos);
        }
        std::string error;
        RunFilter filter;
        filter.source = RunSource::Serve;
        const auto runs = m_store->reader(error)->list(filter, error);
        QVERIFY(std::any_of(runs->begin(), runs->end(), [](const RunSummary& r) { return r.keyName == "alice"; }));
    }

    void refusesToListenWideWithoutKeys()
    {
        ChatServerOptions options;
        options.host = "0.0.0.0";
        std::string error;
        QVERIFY(!ChatServer::start(m_harness.engine(), *m_store, teams({"one.team.json"}), options, error));
        QCOMPARE(error, std::string("--host 0.0.0.0 is reachable from other machines: give --api-keys-file FILE or "
                                    "--api-key-env VAR"));
    }

    void cutsOffASlowClient()
    {
        ChatServerOptions options;
        options.headerTimeout = 200ms;
        auto server = serve(options);
        RawHttpClient slowloris(server->port());
        QVERIFY(slowloris.send("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"));
        QCOMPARE(call(server->port(), "POST", "/v1/chat/completions", chat("one", kMath)).status, 200);
        slowloris.readToClose(5s);
        QVERIFY(slowloris.closedByServer());
    }

    void cleanupTestCase() { tearDown(); }
};

QTEST_GUILESS_MAIN(TestChatServerHostile)
#include "tst_chatserverhostile.moc"
