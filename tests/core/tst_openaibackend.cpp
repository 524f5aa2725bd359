// OpenAiBackend against a real HTTP server on 127.0.0.1 (the scriptable fake
// of tests/support): streamed text, time to first token, the error shapes and
// what is retryable, stalls, cut streams, cancellation, and the shared
// concurrency and rate limits. Timing is asserted as ordering, never as an
// upper bound on wall time: a stream the server holds (`hold=K`) until the
// test lets it go shows what happens before the rest arrives, and the only
// elapsed-time checks are lower bounds the server's own waits guarantee.
#include <QtTest>

#include "support/FakeOpenAiServer.h"
#include "support/QtStrings.h"

#include "conclave/http/HttpMultiLoop.h"
#include "conclave/http/OpenAiBackend.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

using namespace conclave;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

const char* const kKey = "sk-test-7f3a9c1e5b2d4068";

// What one call delivered, gathered from the loop's thread.
struct Outcome {
    std::vector<std::string> chunks;
    std::optional<ModelReply> reply;
    double ttftMs = -1;  // from start() to the first token
    double doneMs = -1;
    int dones = 0;
};

class Collector {
public:
    CallCallbacks callbacks()
    {
        m_start = Clock::now();
        return CallCallbacks{[this](std::string_view chunk) {
                                 std::lock_guard lock(m_mutex);
                                 if (m_out.chunks.empty())
                                     m_out.ttftMs = ms();
                                 m_out.chunks.emplace_back(chunk);
                                 m_done.notify_all();
                             },
                             [this](ModelReply reply) {
                                 std::lock_guard lock(m_mutex);
                                 m_out.doneMs = ms();
                                 m_out.reply = std::move(reply);
                                 ++m_out.dones;
                                 m_done.notify_all();
                             }};
    }
    Outcome wait(std::chrono::milliseconds limit = 10s)
    {
        std::unique_lock lock(m_mutex);
        m_done.wait_for(lock, limit, [&] { return m_out.reply.has_value(); });
        return m_out;
    }
    // Until `count` chunks have arrived (or the call ended).
    Outcome waitForChunks(size_t count, std::chrono::milliseconds limit = 10s)
    {
        std::unique_lock lock(m_mutex);
        m_done.wait_for(lock, limit, [&] { return m_out.chunks.size() >= count || m_out.reply.has_value(); });
        return m_out;
    }
    Outcome now()
    {
        std::lock_guard lock(m_mutex);
        return m_out;
    }

private:
    double ms() const { return std::chrono::duration<double, std::milli>(Clock::now() - m_start).count(); }

    std::mutex m_mutex;
    std::condition_variable m_done;
    Outcome m_out;
    Clock::time_point m_start;
};

std::string joined(const std::vector<std::string>& chunks)
{
    std::string all;
    for (const auto& c : chunks)
        all += c;
    return all;
}

ModelRequest request(const std::string& model)
{
    ModelRequest r;
    r.model = model;
    r.system = "You are terse.";
    r.prompt = "Say something.";
    return r;
}

} // namespace

class TestOpenAiBackend : public QObject {
    Q_OBJECT

    std::unique_ptr<FakeOpenAiServer> m_server;
    std::unique_ptr<HttpMultiLoop> m_loop;
    std::vector<std::string> m_warnings;
    std::mutex m_warnMutex;

    std::unique_ptr<OpenAiBackend> backend(std::optional<int64_t> maxConcurrency = 8,
                                           std::optional<int64_t> rpm = std::nullopt, bool stream = true,
                                           int64_t stallMs = 400)
    {
        OpenAiSettings s;
        s.name = "fake";
        s.baseUrl = m_server->baseUrl();
        s.apiKey = kKey;
        s.stream = stream;
        s.stallMs = stallMs;
        s.prices["fake:chunks=4"] = Price{1.0, 2.0};
        return std::make_unique<OpenAiBackend>(s, *m_loop, std::make_shared<EndpointLimits>(maxConcurrency, rpm),
                                               [this](const std::string& w) {
                                                   std::lock_guard lock(m_warnMutex);
                                                   m_warnings.push_back(w);
                                               });
    }

    Outcome run(OpenAiBackend& b, const std::string& model, std::chrono::milliseconds limit = 10s)
    {
        Collector c;
        b.start(request(model), c.callbacks());
        return c.wait(limit);
    }

private slots:
    void initTestCase()
    {
        m_server = std::make_unique<FakeOpenAiServer>(QStringList{QStringLiteral("--key"), QString::fromUtf8(kKey)});
        QVERIFY2(m_server->ok(), "the fake server did not start (python3?)");
        m_loop = std::make_unique<HttpMultiLoop>();
    }
    void cleanupTestCase()
    {
        m_loop.reset();
        m_server.reset();
    }

    void streamedTextIsExact_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("expected");
        QTest::newRow("plain") << "chunks=5" << "t0 t1 t2 t3 t4 ";
        QTest::newRow("crlf") << "chunks=3;crlf=1" << "t0 t1 t2 ";
        QTest::newRow("keep-alive comments") << "chunks=3;ping=1" << "t0 t1 t2 ";
        QTest::newRow("lines split across reads") << "text=Hello|, |wörld|!;bytewise=1;crlf=1" << "Hello, wörld!";
        QTest::newRow("no usage chunk") << "chunks=2;usage=0" << "t0 t1 ";
        QTest::newRow("slow accept") << "chunks=2;accept=300" << "t0 t1 ";
    }
    void streamedTextIsExact()
    {
        QFETCH(QString, script);
        QFETCH(QString, expected);
        auto b = backend();
        const auto out = run(*b, "fake:" + script.toStdString());
        QVERIFY(out.reply);
        QVERIFY2(out.reply->ok, out.reply->error.c_str());
        QCOMPARE(q(joined(out.chunks)), expected);
        QCOMPARE(q(out.reply->text), expected);
        QCOMPARE(out.dones, 1);
        if (!script.contains(QStringLiteral("usage=0"))) {
            QCOMPARE(out.reply->tokensIn, int64_t(11));
            QCOMPARE(out.reply->tokensOut, int64_t(out.chunks.size()));
        } else {
            QVERIFY(out.reply->tokensIn > 0);  // estimated
            QCOMPARE(out.reply->tokensOut, int64_t(2));
        }
    }

    // The first token is handed on as its chunk arrives, not with the whole
    // answer: the server holds the rest back until the test has seen it.
    void timeToFirstTokenFollowsTheFirstChunk()
    {
        auto b = backend();
        Collector c;
        b->start(request("fake:chunks=3;first=300;hold=1"), c.callbacks());
        const auto first = c.waitForChunks(1);
        QCOMPARE(first.chunks, std::vector<std::string>{"t0 "});
        QVERIFY(!first.reply);
        QVERIFY2(first.ttftMs >= 300, std::to_string(first.ttftMs).c_str());  // the server waited 300 ms first
        QCOMPARE(m_server->stats().value("in_flight", -1), 1);                 // and holds the rest
        m_server->release();
        const auto out = c.wait();
        QVERIFY(out.reply);
        QVERIFY2(out.reply->ok, out.reply->error.c_str());
        QCOMPARE(q(joined(out.chunks)), QStringLiteral("t0 t1 t2 "));
        QCOMPARE(out.ttftMs, first.ttftMs);  // later chunks do not move it
        QCOMPARE(out.dones, 1);
    }

    void nonStreamingAnswer()
    {
        auto b = backend(8, std::nullopt, false);
        const auto out = run(*b, "fake:text=one|two");
        QVERIFY(out.reply);
        QVERIFY2(out.reply->ok, out.reply->error.c_str());
        QCOMPARE(q(out.reply->text), QStringLiteral("onetwo"));
        QCOMPARE(out.reply->tokensOut, int64_t(2));
        QCOMPARE(out.chunks.size(), size_t(1));
    }

    void errors_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("error");
        QTest::addColumn<bool>("retryable");
        QTest::addColumn<int>("retryAfterMs");  // -1: none
        QTest::newRow("429 Retry-After") << "status=429;retry_after=2;message=slow down" << "slow down" << true << 2000;
        QTest::newRow("429 retry-after-ms first")
            << "status=429;retry_after=2;retry_after_ms=1500;message=slow down" << "slow down" << true << 1500;
        QTest::newRow("429 capped") << "status=429;retry_after=3600;message=later" << "later" << true << 60000;
        QTest::newRow("429 insufficient_quota")
            << "status=429;code=insufficient_quota;message=You exceeded your current quota"
            << "You exceeded your current quota" << false << -1;
        QTest::newRow("500") << "status=500;message=The server had an error" << "The server had an error" << true << -1;
        QTest::newRow("503 flat (vLLM)") << "status=503;flat=1;message=overloaded" << "overloaded" << true << -1;
        QTest::newRow("408") << "status=408;message=timeout" << "timeout" << true << -1;
        QTest::newRow("409") << "status=409;message=conflict" << "conflict" << true << -1;
        QTest::newRow("400") << "status=400;etype=invalid_request_error;message=max_tokens is too large"
                             << "max_tokens is too large" << false << -1;
        QTest::newRow("400 flat") << "status=400;flat=1;message=bad request" << "bad request" << false << -1;
        QTest::newRow("401") << "status=401;message=Invalid token" << "Invalid token" << false << -1;
        QTest::newRow("403") << "status=403;message=forbidden" << "forbidden" << false << -1;
        QTest::newRow("404") << "status=404;message=The model does not exist" << "The model does not exist" << false
                             << -1;
        QTest::newRow("error inside a 200 stream")
            << "chunks=4;stream_error=2" << "the model crashed mid-stream" << true << -1;
        QTest::newRow("malformed chunk")
            << "chunks=4;malformed=1" << "the server sent a chunk that is not JSON: {\"choices\": [ not json" << true
            << -1;
    }
    void errors()
    {
        QFETCH(QString, script);
        QFETCH(QString, error);
        QFETCH(bool, retryable);
        QFETCH(int, retryAfterMs);
        auto b = backend();
        const auto out = run(*b, "fake:" + script.toStdString());
        QVERIFY(out.reply);
        QVERIFY(!out.reply->ok);
        QVERIFY(!out.reply->cancelled);
        QCOMPARE(q(out.reply->error), error);
        QCOMPARE(out.reply->retryable, retryable);
        QCOMPARE(out.reply->retryAfterMs.value_or(-1), int64_t(retryAfterMs));
        QCOMPARE(out.dones, 1);
    }

    void theKeyIsSentAndNeverEchoed()
    {
        auto b = backend();
        const auto out = run(*b, "fake:status=401;echo_key=1;message=Incorrect API key");
        QVERIFY(out.reply && !out.reply->ok);
        QCOMPARE(q(out.reply->error), QStringLiteral("Incorrect API key (you sent Bearer [redacted])"));
        QVERIFY(out.reply->error.find(kKey) == std::string::npos);

        OpenAiSettings wrong;
        wrong.name = "fake";
        wrong.baseUrl = m_server->baseUrl();
        wrong.apiKey = "sk-wrong-000";
        OpenAiBackend w(wrong, *m_loop, nullptr);
        const auto denied = run(w, "fake:chunks=1");
        QVERIFY(denied.reply && !denied.reply->ok && !denied.reply->retryable);
        QCOMPARE(q(denied.reply->error), QStringLiteral("Incorrect API key provided: Bearer [redacted]"));
    }

    // The server sends two chunks and then nothing until the test lets it go:
    // only the stall window can end the call, and not before it has passed.
    void aStallIsDetectedWithinItsWindow()
    {
        auto b = backend(8, std::nullopt, true, 400);
        const auto out = run(*b, "fake:chunks=4;hold=2");
        QVERIFY(out.reply && !out.reply->ok);
        QVERIFY2(out.reply->error.starts_with("the stream stalled: the server sent nothing for 400 ms"),
                 out.reply->error.c_str());
        QVERIFY(out.reply->retryable);
        QCOMPARE(q(out.reply->text), QStringLiteral("t0 t1 "));  // what arrived is kept
        QCOMPARE(out.dones, 1);
        QVERIFY2(out.doneMs >= 400, std::to_string(out.doneMs).c_str());
        QCOMPARE(m_server->stats().value("in_flight", -1), 1);  // ended while the server still held it
        m_server->release();
        QTRY_COMPARE_WITH_TIMEOUT(m_server->stats().value("in_flight", -1), 0, 10000);
    }

    void aStreamCutShortIsAnErrorKeepingItsText()
    {
        auto b = backend();
        const auto out = run(*b, "fake:chunks=4;close=2");
        QVERIFY(out.reply && !out.reply->ok);
        QVERIFY2(out.reply->error.starts_with("the stream was cut short"), out.reply->error.c_str());
        QVERIFY(out.reply->retryable);
        QCOMPARE(q(out.reply->text), QStringLiteral("t0 t1 "));
        QCOMPARE(out.reply->tokensOut, int64_t(2));
    }

    void connectionRefusedIsRetryable()
    {
        OpenAiSettings s;
        s.name = "nowhere";
        s.baseUrl = std::string("http:") + "//127.0.0.1:1/v1";
        OpenAiBackend b(s, *m_loop, nullptr);
        const auto out = run(b, "any");
        QVERIFY(out.reply && !out.reply->ok);
        QVERIFY(out.reply->retryable);
        QVERIFY(!out.reply->error.empty());
    }

    // A cancel does not wait for the server: the call ends, cancelled, while
    // the server still holds the rest of the stream; the connection is closed
    // (the server's next writes fail); onDone comes exactly once.
    void cancelMidStreamEndsWithoutTheServer()
    {
        m_server->reset();
        auto b = backend();
        Collector c;
        const auto id = b->start(request("fake:chunks=50;hold=1"), c.callbacks());
        QCOMPARE(c.waitForChunks(1).chunks.size(), size_t(1));
        b->cancel(id);
        const auto out = c.wait();
        QVERIFY(out.reply);
        QVERIFY(out.reply->cancelled);
        QCOMPARE(q(joined(out.chunks)), QStringLiteral("t0 "));
        QCOMPARE(m_server->stats().value("in_flight", -1), 1);  // still holding: the cancel did not wait for it
        m_server->release();
        QTRY_COMPARE_WITH_TIMEOUT(m_server->stats().value("dropped", -1), 1, 10000);  // the server saw it go
        QCOMPARE(m_server->stats().value("in_flight", -1), 0);
        // The loop has since run a whole call, so nothing it held for the cancelled one is still to come.
        const auto later = run(*b, "fake:chunks=1");
        QVERIFY(later.reply && later.reply->ok);
        QCOMPARE(c.now().dones, 1);
    }

    void cancelBeforeItStartsAndAfterItEnded()
    {
        auto b = backend(1);
        Collector first, second;
        b->start(request("fake:chunks=3;gap=100"), first.callbacks());
        const auto queued = b->start(request("fake:chunks=3"), second.callbacks());
        b->cancel(queued);  // still waiting for the one slot
        QVERIFY(second.wait(2s).reply->cancelled);
        const auto done = first.wait();
        QVERIFY(done.reply->ok);
        b->cancel(1234567);  // unknown: nothing happens
        QCOMPARE(first.now().dones, 1);
    }

    // The server holds every stream it gets until the test lets them go: each
    // round exactly fifty arrive and wait there, and the next fifty only come
    // once those have ended.
    void twoHundredStreamsNeverMoreThanFiftyAtOnce()
    {
        m_server->reset();
        auto b = backend(50);
        constexpr int kCalls = 200;
        constexpr int kLimit = 50;
        std::vector<std::unique_ptr<Collector>> calls;
        for (int i = 0; i < kCalls; ++i) {
            calls.push_back(std::make_unique<Collector>());
            b->start(request("fake:chunks=4;hold=1"), calls.back()->callbacks());
        }
        for (int round = 1; round <= kCalls / kLimit; ++round) {
            QTRY_VERIFY_WITH_TIMEOUT(m_server->stats().value("requests", 0) == round * kLimit &&
                                         m_server->stats().value("in_flight", 0) == kLimit,
                                     30000);
            m_server->release();
        }
        int ok = 0;
        for (auto& c : calls) {
            const auto out = c->wait(60s);
            QVERIFY(out.reply);
            QVERIFY2(out.reply->ok, out.reply->error.c_str());
            QCOMPARE(q(out.reply->text), QStringLiteral("t0 t1 t2 t3 "));
            ok += out.reply->ok ? 1 : 0;
        }
        QCOMPARE(ok, kCalls);
        const auto stats = m_server->stats();
        QCOMPARE(stats.value("requests", 0), kCalls);
        QCOMPARE(stats.value("max_in_flight", 0), kLimit);
        QCOMPARE(stats.value("dropped", -1), 0);
    }

    void requestsPerMinuteSpacesStarts()
    {
        // 1200 a minute: 20 a second, a burst of at most 20.
        auto b = backend(100, 1200);
        std::vector<std::unique_ptr<Collector>> calls;
        const auto start = Clock::now();
        for (int i = 0; i < 30; ++i) {
            calls.push_back(std::make_unique<Collector>());
            b->start(request("fake:chunks=1"), calls.back()->callbacks());
        }
        for (auto& c : calls)
            QVERIFY(c->wait(20s).reply->ok);
        const auto took = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        QVERIFY2(took >= 450, std::to_string(took).c_str());  // 10 beyond the burst at 50 ms each
    }

    void tlsIsVerifiedAndCaFileTrusts()
    {
        const QString tls = QStringLiteral(CONCLAVE_TEST_DATA "/tls/");
        FakeOpenAiServer secure({QStringLiteral("--tls"), tls + QStringLiteral("cert.pem"), tls + QStringLiteral("key.pem")});
        QVERIFY(secure.ok());
        OpenAiSettings s;
        s.name = "secure";
        s.baseUrl = std::string("https:") + "//127.0.0.1:" + std::to_string(secure.port()) + "/v1";
        {
            OpenAiBackend untrusted(s, *m_loop, nullptr);
            const auto out = run(untrusted, "fake:chunks=2");
            QVERIFY(out.reply && !out.reply->ok);
            QVERIFY(!out.reply->retryable);  // a certificate does not get better by asking again
            QVERIFY2(out.reply->error.find("certificate") != std::string::npos, out.reply->error.c_str());
        }
        s.caFile = (tls + QStringLiteral("cert.pem")).toStdString();
        {
            OpenAiBackend trusted(s, *m_loop, nullptr);
            const auto out = run(trusted, "fake:chunks=2");
            QVERIFY(out.reply);
            QVERIFY2(out.reply->ok, out.reply->error.c_str());
            QCOMPARE(q(out.reply->text), QStringLiteral("t0 t1 "));
        }
        s.caFile = "/nonexistent/ca.pem";
        OpenAiBackend missing(s, *m_loop, nullptr);
        const auto out = run(missing, "fake:chunks=2");
        QVERIFY(out.reply && !out.reply->ok && !out.reply->retryable);
    }

    void pricesAndOneWarningPerUnpricedModel()
    {
        auto b = backend();
        QCOMPARE(b->costOf("fake:chunks=4", 1000000, 500000), 2.0);
        m_warnings.clear();
        QCOMPARE(b->costOf("unpriced", 1000, 1000), 0.0);
        QCOMPARE(b->costOf("unpriced", 1000, 1000), 0.0);
        QCOMPARE(m_warnings.size(), size_t(1));
        QCOMPARE(q(m_warnings.front()),
                 QStringLiteral("backend \"fake\" has no price for model \"unpriced\"; its calls count as costing 0 "
                                "(add it to the backend's prices)"));
    }
};

QTEST_GUILESS_MAIN(TestOpenAiBackend)
#include "tst_openaibackend.moc"
