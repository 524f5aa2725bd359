// ServeLoad, the load generator of `conclave bench serve`: the peak of
// overlapping requests it reports, and a paced load on warmed-up connections
// whose requests all overlap.
#include <QtTest>

#include "conclave/bench/ServeLoad.h"
#include "conclave/httpserver/HttpServer.h"

#include <atomic>

using namespace conclave;
using namespace std::chrono_literals;

namespace {

ServeLoad::Reply span(double sentMs, double endedMs)
{
    ServeLoad::Reply r;
    r.sentMs = sentMs;
    r.endedMs = endedMs;
    return r;
}

} // namespace

class TestServeLoad : public QObject {
    Q_OBJECT

private slots:
    void peakCountsOverlapsAndEndsBeforeStarts()
    {
        QCOMPARE(ServeLoad::peakOverlap({}), 0);
        QCOMPARE(ServeLoad::peakOverlap({span(0, 10), span(10, 20)}), 1); // one ends as the next starts
        QCOMPARE(ServeLoad::peakOverlap({span(0, 10), span(5, 15), span(10, 20), span(12, 13)}), 3);
        QCOMPARE(ServeLoad::peakOverlap({span(0, 100), span(1, 2), span(3, 4), span(5, 6)}), 2);
        QCOMPARE(ServeLoad::peakOverlap({span(5, 5), span(7, 6)}), 0); // never in flight
    }

    void pacedLoadOnWarmConnectionsOverlapsEveryRequest()
    {
        std::atomic<int> gets{0};
        std::atomic<int> posts{0};
        HttpServerOptions options;
        options.threads = 2;
        std::string error;
        auto server = HttpServer::start(
            options,
            [&](HttpServerRequest request, std::shared_ptr<HttpExchange> exchange) {
                if (request.method == "GET") {
                    ++gets;
                    exchange->respond({}, "ok");
                    return;
                }
                ++posts;
                HttpResponseHead head;
                head.headers.emplace_back("x-conclave-run-id", "run-" + request.body);
                exchange->beginStream(head, StreamFraming::Chunked);
                exchange->after(150ms, [exchange] {
                    exchange->write("data: [DONE]\n\n");
                    exchange->end();
                });
            },
            error);
        QVERIFY2(server, error.c_str());
        const std::string base = "http://127.0.0.1:" + std::to_string(server->port());
        ServeLoad::Load load;
        load.url = base + "/v1/chat/completions";
        load.body = "7";
        load.count = 40;
        load.concurrency = 40;
        load.spread = 40ms;
        load.timeout = 10s;
        load.warmUpUrl = base + "/healthz";
        const auto result = ServeLoad::run(load);
        QCOMPARE(gets.load(), 40);
        QCOMPARE(posts.load(), 40);
        QCOMPARE(int(result.replies.size()), 40);
        for (const auto& reply : result.replies) {
            QCOMPARE(reply.status, 200L);
            QVERIFY(reply.sawDone);
            QCOMPARE(reply.runId, std::string("run-7"));
            QVERIFY(reply.clientMs >= 149); // the answer waited 150 ms; libcurl times to a few microseconds
            QVERIFY(reply.sentMs >= 0);
        }
        QCOMPARE(result.peakInFlight, 40); // the last was sent before the first could end
    }
};

QTEST_GUILESS_MAIN(TestServeLoad)
#include "tst_serveload.moc"
