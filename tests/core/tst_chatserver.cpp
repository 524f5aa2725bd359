// ChatServer (`conclave serve`): every endpoint over real HTTP, every refusal
// with its exact body, a stream's chunks in order, limits, a reload, the
// metrics' counts and pruning. Clients that leave, drains, slow clients and
// keys kept out of the store and the log: tst_chatserverhostile.
#include <QtTest>

#include "support/ChatServerFixture.h"
#include "support/RawHttpClient.h"

#include <mutex>
#include <thread>

using namespace chatservertest;
using testsupport::RawHttpClient;
using namespace testsupport::serveclient;

class TestChatServer : public ChatServerFixture {
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(setUp()); }

    void listsModels()
    {
        auto server = serve();
        const auto r = call(server->port(), "GET", "/v1/models");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.body, std::string(R"({"object":"list","data":[)"
                                     R"({"id":"one","object":"model","created":0,"owned_by":"conclave"},)"
                                     R"({"id":"vote","object":"model","created":0,"owned_by":"conclave"},)"
                                     R"({"id":"slow","object":"model","created":0,"owned_by":"conclave"}]})"
                                     "\n"));
        // A key sees only its teams.
        auto keyed = serve(withKeys(kKey + " name=alice teams=vote"));
        QCOMPARE(call(keyed->port(), "GET", "/v1/models", {}, kKey).body,
                 std::string(R"({"object":"list","data":[)"
                             R"({"id":"vote","object":"model","created":0,"owned_by":"conclave"}]})"
                             "\n"));
    }

    void completesAndStoresTheRun()
    {
        auto server = serve();
        const auto r = call(server->port(), "POST", "/v1/chat/completions",
                            chat("one", kMath, R"(, "seed": 3, "temperature": 0.1, "max_tokens": 9)"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.headers.at("content-type"), std::string("application/json"));
        QCOMPARE(r.headers.at("x-conclave-ignored"), std::string("max_tokens, temperature"));
        const std::string runId = r.headers.at("x-conclave-run-id");
        const auto j = json::parse(r.body);
        QCOMPARE(j["id"].get<std::string>(), "chatcmpl-" + runId);
        QCOMPARE(j["object"].get<std::string>(), std::string("chat.completion"));
        QCOMPARE(j["model"].get<std::string>(), std::string("one"));
        QCOMPARE(j["choices"].size(), size_t(1));
        QCOMPARE(j["choices"][0]["finish_reason"].get<std::string>(), std::string("stop"));
        QCOMPARE(j["choices"][0]["message"]["role"].get<std::string>(), std::string("assistant"));
        const auto run = stored(runId);
        QVERIFY(run);
        QCOMPARE(j["choices"][0]["message"]["content"].get<std::string>(), run->output.text);
        QVERIFY(run->output.text.find("783") != std::string::npos);
        QVERIFY(run->summary.source == RunSource::Serve);
        QCOMPARE(run->summary.input, std::string(kMath));
        QCOMPARE(run->summary.seed, uint64_t(3));
        QCOMPARE(run->summary.keyName, std::string());
        QVERIFY(run->summary.status == RunStatus::Ok);
        QCOMPARE(j["usage"]["prompt_tokens"].get<int64_t>(), run->summary.tokensIn);
        QCOMPARE(j["usage"]["completion_tokens"].get<int64_t>(), run->summary.tokensOut);
        QCOMPARE(j["usage"]["total_tokens"].get<int64_t>(), run->summary.tokensIn + run->summary.tokensOut);
    }

    // onRunStored hears each served run once it is stored, with its access-log figures.
    void reportsEachStoredRun()
    {
        auto server = serve(withKeys(kKey + " name=alice"));
        std::mutex mutex;
        std::vector<ServedRequest> heard;
        server->onRunStored([&](const ServedRequest& request) {
            std::lock_guard lock(mutex);
            heard.push_back(request);
        });
        const auto before = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count();
        const auto r = call(server->port(), "POST", "/v1/chat/completions", chat("one", kMath), kKey);
        QCOMPARE(r.status, 200);
        // Refused before a run: never reported.
        QCOMPARE(call(server->port(), "POST", "/v1/chat/completions", chat("none", kMath), kKey).status, 404);
        QVERIFY(eventually([&] {
            std::lock_guard lock(mutex);
            return !heard.empty();
        }));
        server->drain(std::chrono::milliseconds(0));
        QCOMPARE(heard.size(), size_t(1));
        const auto& served = heard.front();
        QCOMPARE(served.runId, r.headers.at("x-conclave-run-id"));
        QCOMPARE(served.team, std::string("one"));
        QCOMPARE(served.keyName, std::string("alice"));
        QCOMPARE(served.httpStatus, 200);
        QVERIFY(served.runStatus == RunStatus::Ok);
        QVERIFY(!served.stream);
        QVERIFY(served.ms > 0);
        QVERIFY(served.arrivedUnixMs >= before - 1000 && served.arrivedUnixMs <= before + 20000);
        QVERIFY(stored(served.runId)); // stored before it is heard
    }

    void streamsChunksInOrder()
    {
        auto server = serve();
        const auto whole = json::parse(
            call(server->port(), "POST", "/v1/chat/completions", chat("one", kMath, R"(, "seed": 3)")).body);
        const auto r = call(server->port(), "POST", "/v1/chat/completions",
                            chat("one", kMath, R"(, "seed": 3, "stream": true, "stream_options": {"include_usage": true})"));
        QCOMPARE(r.status, 200);
        QCOMPARE(r.headers.at("content-type"), std::string("text/event-stream"));
        const std::string runId = r.headers.at("x-conclave-run-id");
        const auto data = events(r.body);
        QVERIFY(data.size() >= 5);
        const auto first = json::parse(data.front());
        QCOMPARE(first.dump(), json::parse(R"({"id":"chatcmpl-)" + runId +
                                           R"(","object":"chat.completion.chunk","created":)" +
                                           std::to_string(first["created"].get<int64_t>()) +
                                           R"(,"model":"one","choices":[{"index":0,"delta":{"role":"assistant",)"
                                           R"("content":""},"logprobs":null,"finish_reason":null}],"usage":null})")
                                   .dump());
        QCOMPARE(data.back(), std::string("[DONE]"));
        std::string content;
        size_t tokenChunks = 0;
        for (size_t i = 1; i + 3 < data.size(); ++i) {
            const auto c = json::parse(data[i]);
            QVERIFY(c["choices"][0]["finish_reason"].is_null());
            content += c["choices"][0]["delta"]["content"].get<std::string>();
            ++tokenChunks;
        }
        QVERIFY2(tokenChunks > 1, "an expert's tokens stream as they come");
        QCOMPARE(content, whole["choices"][0]["message"]["content"].get<std::string>());
        const auto finish = json::parse(data[data.size() - 3]);
        QCOMPARE(finish["choices"][0]["finish_reason"].get<std::string>(), std::string("stop"));
        QCOMPARE(finish["choices"][0]["delta"].dump(), std::string("{}"));
        const auto usage = json::parse(data[data.size() - 2]);
        QCOMPARE(usage["choices"].dump(), std::string("[]"));
        QCOMPARE(usage["usage"].dump(), whole["usage"].dump());
    }

    void sendsAVoteWhole()
    {
        auto server = serve();
        const auto r = call(server->port(), "POST", "/v1/chat/completions",
                            chat("vote", kMath, R"(, "stream": true)"));
        QCOMPARE(r.status, 200);
        const auto data = events(r.body);
        // role, the whole answer, finish, [DONE]
        QCOMPARE(data.size(), size_t(4));
        const auto run = stored(r.headers.at("x-conclave-run-id"));
        QCOMPARE(json::parse(data[1])["choices"][0]["delta"]["content"].get<std::string>(), run->output.text);
    }

    void refusesWithOpenAiBodies_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("key");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("expected");
        const auto q = [](const std::string& s) { return QString::fromStdString(s); };
        const auto good = q(chat("one", "hi"));
        QTest::newRow("no key") << "POST" << "/v1/chat/completions" << good << "" << 401
                                << q(errorBody("missing API key: send the header \"Authorization: Bearer KEY\"",
                                               "invalid_request_error", "", "invalid_api_key"));
        QTest::newRow("wrong key") << "POST" << "/v1/chat/completions" << good << "sk-wrong-000000000" << 401
                                   << q(errorBody("incorrect API key", "invalid_request_error", "",
                                                  "invalid_api_key"));
        QTest::newRow("models needs a key") << "GET" << "/v1/models" << "" << "" << 401
                                            << q(errorBody("missing API key: send the header \"Authorization: "
                                                           "Bearer KEY\"",
                                                           "invalid_request_error", "", "invalid_api_key"));
        QTest::newRow("team not allowed") << "POST" << "/v1/chat/completions" << q(chat("vote", "hi")) << q(kOtherKey)
                                          << 403
                                          << q(errorBody("the key \"bob\" may not use the team \"vote\"",
                                                         "permission_error", "model", "team_not_allowed"));
        QTest::newRow("unknown model") << "POST" << "/v1/chat/completions" << q(chat("gpt-4o", "hi")) << q(kKey)
                                       << 404
                                       << q(errorBody("the model \"gpt-4o\" does not exist: this server serves "
                                                      "teams (GET /v1/models lists them)",
                                                      "invalid_request_error", "model", "model_not_found"));
        QTest::newRow("truncated") << "POST" << "/v1/chat/completions" << "{\"model\": \"one\", \"messa" << q(kKey)
                                   << 400
                                   << q(errorBody("the body is not valid JSON: parse error at line 1, column 24: "
                                                  "syntax error while parsing object key - invalid string: missing "
                                                  "closing quote; last read: '\"messa'; expected string literal",
                                                  "invalid_request_error", "", ""));
        QTest::newRow("n") << "POST" << "/v1/chat/completions" << q(chat("one", "hi", R"(, "n": 3)")) << q(kKey)
                           << 400
                           << q(errorBody("unsupported: n > 1 (a team gives one answer a request)",
                                          "invalid_request_error", "n", "unsupported"));
        QTest::newRow("no user") << "POST" << "/v1/chat/completions"
                                 << R"({"model": "one", "messages": [{"role": "system", "content": "x"}]})" << q(kKey)
                                 << 400
                                 << q(errorBody("messages: no message has the role \"user\"", "invalid_request_error",
                                                "messages", ""));
        QTest::newRow("method") << "GET" << "/v1/chat/completions" << "" << q(kKey) << 405
                                << q(errorBody("GET /v1/chat/completions: use POST", "invalid_request_error", "",
                                               "method_not_allowed"));
        QTest::newRow("path") << "POST" << "/v1/completions" << good << q(kKey) << 404
                              << q(errorBody("no such endpoint: POST /v1/completions (this server has GET /v1/models, "
                                             "POST /v1/chat/completions, GET /healthz and GET /metrics)",
                                             "invalid_request_error", "", "not_found"));
        QTest::newRow("too large") << "POST" << "/v1/chat/completions"
                                   << "TOO_LARGE" << q(kKey) << 413
                                   << q(errorBody("the request body is larger than 65536 bytes",
                                                  "invalid_request_error", "", "request_too_large"));
    }
    void refusesWithOpenAiBodies()
    {
        QFETCH(QString, method);
        QFETCH(QString, target);
        QFETCH(QString, body);
        QFETCH(QString, key);
        QFETCH(int, status);
        QFETCH(QString, expected);
        auto options = withKeys(kKey + " name=alice\n" + kOtherKey + " name=bob teams=one\n");
        options.maxBodyBytes = 65536;
        auto server = serve(std::move(options));
        Reply r;
        if (body == "TOO_LARGE") { // a 10 MB body: refused on its Content-Length, before it is sent
            RawHttpClient client(server->port());
            QVERIFY(client.send("POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 10485760\r\n"
                                "Authorization: Bearer " + kKey + "\r\n\r\n{"));
            r = parseReply(client.readToClose(5s));
            QVERIFY(server->metrics().text().find("conclave_requests_total{team=\"\",code=\"413\"} 1\n") !=
                    std::string::npos);
            QVERIFY(m_log.str().find("\"status\":413,\"error\":\"the request body is larger than 65536 bytes\"") !=
                    std::string::npos);
        } else {
            r = call(server->port(), method.toStdString(), target.toStdString(), body.toStdString(),
                     key.toStdString());
        }
        QCOMPARE(r.status, status);
        QCOMPARE(r.headers["content-type"], std::string("application/json"));
        QCOMPARE(QString::fromStdString(r.body), expected);
        // The server still answers the others.
        QCOMPARE(call(server->port(), "POST", "/v1/chat/completions", chat("one", "hi"), kKey).status, 200);
    }

    void limitsRequestsAMinute()
    {
        auto server = serve(withKeys(kKey + " name=alice rpm=1"));
        QCOMPARE(call(server->port(), "POST", "/v1/chat/completions", chat("one", "hi"), kKey).status, 200);
        const auto r = call(server->port(), "POST", "/v1/chat/completions", chat("one", "hi"), kKey);
        QCOMPARE(r.status, 429);
        const int retry = std::stoi(r.headers.at("retry-after"));
        QVERIFY(retry >= 59 && retry <= 60);
        QCOMPARE(json::parse(r.body)["error"]["code"].get<std::string>(), std::string("rate_limit_exceeded"));
    }

    void keepsTheDailyBudgetAcrossARestart()
    {
        const std::string keys = kKey + " name=spender budget_usd_per_day=0.0000001";
        {
            auto server = serve(withKeys(keys));
            QCOMPARE(call(server->port(), "POST", "/v1/chat/completions", chat("one", kMath), kKey).status, 200);
            const auto r = call(server->port(), "POST", "/v1/chat/completions", chat("one", kMath), kKey);
            QCOMPARE(r.status, 429);
            QCOMPARE(json::parse(r.body)["error"]["code"].get<std::string>(), std::string("insufficient_quota"));
        }
        auto restarted = serve(withKeys(keys));
        const auto r = call(restarted->port(), "POST", "/v1/chat/completions", chat("one", kMath), kKey);
        QCOMPARE(r.status, 429);
        QVERIFY(r.body.find("has a budget of $0.00000010 a day (UTC); spent $") != std::string::npos);
    }

    void queuesThenRefusesWhenFull()
    {
        ChatServerOptions options;
        options.maxConcurrency = 1;
        options.maxQueue = 1;
        auto server = serve(options);
        RawHttpClient slow(server->port());
        QVERIFY(slow.send(request("POST", "/v1/chat/completions", chat("slow", kMath))));
        QVERIFY(eventually([&] { return server->metrics().text().find("conclave_requests_in_flight 1\n") !=
                                        std::string::npos; }));
        RawHttpClient queued(server->port());
        QVERIFY(queued.send(request("POST", "/v1/chat/completions", chat("one", kMath))));
        QVERIFY(eventually([&] { return server->metrics().text().find("conclave_queue_length 1\n") !=
                                        std::string::npos; }));
        const auto full = call(server->port(), "POST", "/v1/chat/completions", chat("one", kMath));
        QCOMPARE(full.status, 503);
        QCOMPARE(full.headers.at("retry-after"), std::string("1"));
        QCOMPARE(full.body, errorBody("the server is busy: 1 runs going and 1 requests waiting", "server_error", "",
                                      "server_busy"));
        QCOMPARE(parseReply(slow.readToClose(20s)).status, 200);
        QCOMPARE(parseReply(queued.readToClose(20s)).status, 200);
    }

    void reloadsTeams()
    {
        auto server = serve();
        server->setTeams(teams({"one.team.json=renamed:transcript"}));
        QCOMPARE(json::parse(call(server->port(), "GET", "/v1/models").body)["data"].size(), size_t(1));
        const auto r = call(server->port(), "POST", "/v1/chat/completions",
                            R"({"model": "renamed", "messages": [{"role": "system", "content": "S"},)"
                            R"({"role": "user", "content": "U"}]})");
        QCOMPARE(r.status, 200);
        QCOMPARE(stored(r.headers.at("x-conclave-run-id"))->summary.input, std::string("System: S\n\nUser: U"));
        QCOMPARE(call(server->port(), "POST", "/v1/chat/completions", chat("one", "hi")).status, 404);
    }

    void countsInMetrics()
    {
        auto server = serve(withKeys(kKey + " name=alice"));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(call(server->port(), "POST", "/v1/chat/completions", chat("one", kMath), kKey).status, 200);
        QCOMPARE(call(server->port(), "POST", "/v1/chat/completions", chat("one", kMath), "sk-nope-00000000").status,
                 401);
        // A run is counted on the server's worker after its answer went out: the last may come a moment later.
        Reply metrics;
        QVERIFY(eventually([&] {
            metrics = call(server->port(), "GET", "/metrics");
            return metrics.body.find("conclave_requests_total{team=\"one\",code=\"200\"} 3\n") != std::string::npos;
        }));
        QCOMPARE(metrics.headers.at("content-type"), std::string("text/plain; version=0.0.4; charset=utf-8"));
        QVERIFY(metrics.body.find("conclave_requests_total{team=\"\",code=\"401\"} 1\n") != std::string::npos);
        QVERIFY(metrics.body.find("conclave_run_seconds_count{team=\"one\"} 3\n") != std::string::npos);
        QVERIFY(metrics.body.find("conclave_ttft_seconds_count{team=\"one\"} 3\n") != std::string::npos);
        QVERIFY(metrics.body.find("conclave_requests_in_flight 0\n") != std::string::npos);
    }

    void keepsTheNewestRunsAndCanLeaveTextOut()
    {
        const auto count = [&] {
            std::string error;
            m_store->flush();
            RunFilter filter;
            filter.source = RunSource::Serve;
            filter.team = "test";
            return m_store->reader(error)->count(filter, error).value_or(-1);
        };
        {
            auto server = serve();
            QCOMPARE(call(server->port(), "POST", "/v1/chat/completions", chat("one", kMath)).status, 200);
        }
        QVERIFY(count() >= 1);
        ChatServerOptions options;
        options.keepRuns = 3;
        options.storeText = false;
        auto server = serve(options);
        std::string last;
        for (int i = 0; i < 6; ++i) {
            const auto r = call(server->port(), "POST", "/v1/chat/completions", chat("one", kMath));
            QCOMPARE(r.status, 200);
            QVERIFY(json::parse(r.body)["choices"][0]["message"]["content"].get<std::string>().find("783") !=
                    std::string::npos);
            last = r.headers.at("x-conclave-run-id");
        }
        eventually([&] { return count() == 3; });
        QCOMPARE(count(), int64_t(3));
        const auto run = stored(last);
        QVERIFY(run);
        QCOMPARE(run->summary.input, std::string());
        QCOMPARE(run->output.text, std::string());
        QVERIFY(run->summary.tokensOut > 0);
    }

    void cleanupTestCase() { tearDown(); }
};

QTEST_GUILESS_MAIN(TestChatServer)
#include "tst_chatserver.moc"
