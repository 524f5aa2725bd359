// HttpServer on Boost.Beast: the exact bytes of each framing, keep-alive and
// idle close, refusals of bad requests, answers from other threads, and a stop
// that ends open streams.
#include <QtTest>

#include "conclave/httpserver/HttpServer.h"
#include "support/RawHttpClient.h"

#include <atomic>
#include <thread>

using namespace conclave;
using testsupport::RawHttpClient;
using namespace std::chrono_literals;

namespace {

const std::string kGet = "GET /x HTTP/1.1\r\nHost: test\r\n\r\n";

HttpResponseHead textHead(bool http10 = false)
{
    HttpResponseHead h;
    h.headers.emplace_back("Content-Type", "text/plain");
    h.http10 = http10;
    return h;
}

std::unique_ptr<HttpServer> serve(HttpServerHandler handler, HttpServerOptions options = {})
{
    std::string error;
    auto server = HttpServer::start(options, std::move(handler), error);
    if (!server)
        qFatal("the server did not start: %s", error.c_str());
    return server;
}

} // namespace

class TestHttpServer : public QObject {
    Q_OBJECT

private slots:
    void answersWithContentLengthAndKeepsAlive()
    {
        std::atomic<int> seen{0};
        auto server = serve([&](HttpServerRequest request, std::shared_ptr<HttpExchange> exchange) {
            ++seen;
            exchange->respond(textHead(), request.method + " " + request.target + " " + request.headers["host"]);
        });
        RawHttpClient client(server->port());
        QVERIFY(client.send(kGet));
        const std::string first = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nGET /x test";
        QCOMPARE(client.readUntil("GET /x test", 2s), first);
        QVERIFY(client.send("POST /y?z=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc"));
        QCOMPARE(client.readUntil("POST /y?z=1 h", 2s),
                 first + "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nPOST /y?z=1 h");
        QVERIFY(!client.closedByServer());
        QCOMPARE(seen.load(), 2);
    }

    void streamsInChunks()
    {
        auto server = serve([](HttpServerRequest, std::shared_ptr<HttpExchange> exchange) {
            exchange->beginStream(textHead(), StreamFraming::Chunked);
            exchange->write("ab");
            exchange->write("");  // nothing: an empty chunk would end the body
            exchange->write("cde");
            exchange->end();
            exchange->write("late");  // after the end: nothing
        });
        RawHttpClient client(server->port());
        QVERIFY(client.send(kGet));
        QCOMPARE(client.readUntil("0\r\n\r\n", 2s),
                 std::string("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
                             "2\r\nab\r\n3\r\ncde\r\n0\r\n\r\n"));
        client.readUntil("never", 100ms);
        QVERIFY(!client.closedByServer());
    }

    void streamEndedByClosing_data()
    {
        QTest::addColumn<bool>("http10");
        QTest::addColumn<QString>("expected");
        QTest::newRow("HTTP/1.1") << false
                                  << "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nabcde";
        QTest::newRow("HTTP/1.0") << true << "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nabcde";
    }
    void streamEndedByClosing()
    {
        QFETCH(bool, http10);
        QFETCH(QString, expected);
        auto server = serve([http10](HttpServerRequest, std::shared_ptr<HttpExchange> exchange) {
            exchange->beginStream(textHead(http10), StreamFraming::CloseDelimited);
            exchange->write("ab");
            exchange->after(20ms, [exchange] {
                exchange->write("cde");
                exchange->end();
            });
        });
        RawHttpClient client(server->port());
        QVERIFY(client.send(kGet));
        QCOMPARE(QString::fromStdString(client.readToClose(2s)), expected);
        QVERIFY(client.closedByServer());
    }

    void http10AnswerCloses()
    {
        auto server = serve([](HttpServerRequest, std::shared_ptr<HttpExchange> exchange) {
            exchange->respond(textHead(true), "ok");
        });
        RawHttpClient client(server->port());
        QVERIFY(client.send(kGet));
        QCOMPARE(client.readToClose(2s),
                 std::string("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok"));
        QVERIFY(client.closedByServer());
    }

    void refusesBadRequests_data()
    {
        QTest::addColumn<QString>("request");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not HTTP") << "GARBAGE\r\n\r\n"
                                  << "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
                                     "Connection: close\r\nContent-Length: 30\r\n\r\nmalformed request: bad method\n";
        QTest::newRow("body too large")
            << "POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n"
            << "HTTP/1.1 413 Payload Too Large\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n"
               "Content-Length: 41\r\n\r\nthe request body is larger than 10 bytes\n";
        QTest::newRow("header too large")
            << "GET / HTTP/1.1\r\nX-Long: " + QString(300, QLatin1Char('a')) + "\r\n\r\n"
            << "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\n"
               "Connection: close\r\nContent-Length: 44\r\n\r\nthe request header is larger than 256 bytes\n";
    }
    void refusesBadRequests()
    {
        QFETCH(QString, request);
        QFETCH(QString, expected);
        std::atomic<int> handled{0};
        HttpServerOptions options;
        options.maxBodyBytes = 10;
        options.maxHeaderBytes = 256;
        auto server = serve([&](HttpServerRequest, std::shared_ptr<HttpExchange> exchange) {
            ++handled;
            exchange->respond(textHead(), "no");
        }, options);
        RawHttpClient client(server->port());
        QVERIFY(client.send(request.toStdString()));
        QCOMPARE(QString::fromStdString(client.readToClose(2s)), expected);
        QVERIFY(client.closedByServer());
        QCOMPARE(handled.load(), 0);
    }

    void closesIdleKeptAliveConnections()
    {
        HttpServerOptions options;
        options.idleTimeout = 50ms;
        auto server = serve([](HttpServerRequest, std::shared_ptr<HttpExchange> exchange) {
            exchange->respond(textHead(), "x");
        }, options);
        RawHttpClient client(server->port());
        QVERIFY(client.send(kGet));
        client.readUntil("\r\n\r\nx", 2s);
        QVERIFY(!client.closedByServer());
        client.readToClose(2s);
        QVERIFY(client.closedByServer());
    }

    void answersFromAnotherThread()
    {
        std::vector<std::thread> workers;
        std::mutex mutex;
        struct Joiner {
            std::vector<std::thread>& threads;
            std::mutex& guard;
            ~Joiner()
            {
                std::lock_guard lock(guard);
                for (auto& t : threads)
                    t.join();
            }
        };
        auto server = serve([&](HttpServerRequest request, std::shared_ptr<HttpExchange> exchange) {
            std::lock_guard lock(mutex);
            workers.emplace_back([exchange, body = request.body] {
                std::this_thread::sleep_for(10ms);
                exchange->respond(textHead(), body + "!");
            });
        });
        const Joiner joiner{workers, mutex};
        RawHttpClient client(server->port());
        QVERIFY(client.send("POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi"));
        QCOMPARE(client.readUntil("hi!", 2s),
                 std::string("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nhi!"));
    }

    // A second request sent before the first is answered wakes the watch for
    // a hang-up and is left for the next read; the first answer, owed from
    // another thread, must still go out (the connection used to die then,
    // with nothing of its own pending, and the answer was lost).
    void aPipelinedRequestDoesNotLoseTheAnswerOwed()
    {
        std::vector<std::thread> workers;
        std::mutex mutex;
        auto server = serve(
            [&](HttpServerRequest request, std::shared_ptr<HttpExchange> exchange) {
                std::lock_guard lock(mutex);
                workers.emplace_back([exchange, target = request.target] {
                    std::this_thread::sleep_for(target == "/first" ? 100ms : 1ms);
                    exchange->respond(textHead(), target);
                });
            },
            [] {
                HttpServerOptions options;
                options.threads = 2;
                return options;
            }());
        RawHttpClient client(server->port());
        QVERIFY(client.send("GET /first HTTP/1.1\r\nHost: t\r\n\r\n"));
        std::this_thread::sleep_for(30ms); // read and handed over: the second arrives on the socket, not in the buffer
        QVERIFY(client.send("GET /second HTTP/1.1\r\nHost: t\r\n\r\n"));
        const std::string answer = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ";
        QCOMPARE(client.readUntil("/second", 3s), answer + "6\r\n\r\n/first" + answer + "7\r\n\r\n/second");
        server.reset();
        std::lock_guard lock(mutex);
        for (auto& t : workers)
            t.join();
    }

    void aLateCallDoesNotReachTheNextRequest()
    {
        std::mutex mutex;
        std::vector<std::shared_ptr<HttpExchange>> exchanges;
        auto server = serve([&](HttpServerRequest request, std::shared_ptr<HttpExchange> exchange) {
            std::lock_guard lock(mutex);
            exchanges.push_back(exchange);
            exchange->respond(textHead(), request.target);
        });
        RawHttpClient client(server->port());
        QVERIFY(client.send(kGet));
        client.readUntil("/x", 2s);
        {
            std::lock_guard lock(mutex);
            exchanges.front()->respond(textHead(), "stale");
            exchanges.front()->beginStream(textHead(), StreamFraming::Chunked);
        }
        QVERIFY(client.send("GET /second HTTP/1.1\r\n\r\n"));
        const auto all = client.readUntil("/second", 2s);
        QCOMPARE(all.substr(all.size() - 7), std::string("/second"));
        QVERIFY(all.find("stale") == std::string::npos);
    }

    void stopEndsOpenStreamsAndTimers()
    {
        std::atomic<int> closes{0};
        std::atomic<int> timersRun{0};
        auto server = serve([&](HttpServerRequest, std::shared_ptr<HttpExchange> exchange) {
            exchange->onClose([&] { ++closes; });
            exchange->beginStream(textHead(), StreamFraming::Chunked);
            exchange->write("open");
            exchange->after(10s, [&] { ++timersRun; });
        });
        RawHttpClient a(server->port());
        RawHttpClient b(server->port());
        QVERIFY(a.send(kGet));
        QVERIFY(b.send(kGet));
        a.readUntil("open", 2s);
        b.readUntil("open", 2s);
        const auto before = std::chrono::steady_clock::now();
        server->stop();
        QVERIFY(std::chrono::steady_clock::now() - before < 2s);
        a.readToClose(2s);
        b.readToClose(2s);
        QVERIFY(a.closedByServer());
        QVERIFY(b.closedByServer());
        QCOMPARE(closes.load(), 2);
        QCOMPARE(timersRun.load(), 0);
        server.reset();
    }

    void aClientThatHangsUpIsNoticedWhileItsAnswerIsMade()
    {
        std::atomic<int> closes{0};
        std::atomic<bool> registered{false};
        auto server = serve([&](HttpServerRequest, std::shared_ptr<HttpExchange> exchange) {
            exchange->onClose([&] { ++closes; });
            registered = true;
        });
        {
            RawHttpClient client(server->port());
            QVERIFY(client.send(kGet));
            QTRY_VERIFY_WITH_TIMEOUT(registered.load(), 2000);
        }  // the client hangs up with no answer
        QTRY_COMPARE_WITH_TIMEOUT(closes.load(), 1, 2000);
    }

    void aClientThatResetsMidStreamIsNoticed()
    {
        // It closes with part of the stream unread, so its socket resets the
        // connection instead of ending it; nothing more is written to notice it.
        std::atomic<int> closes{0};
        std::atomic<bool> sent{false};
        auto server = serve([&](HttpServerRequest, std::shared_ptr<HttpExchange> exchange) {
            exchange->onClose([&] { ++closes; });
            exchange->beginStream(textHead(), StreamFraming::Chunked);
            exchange->write(std::string(64 * 1024, 'x'));
            exchange->after(50ms, [&] { sent = true; });
        });
        {
            RawHttpClient client(server->port());
            QVERIFY(client.send(kGet));
            client.readUntil("xxxx", 2s);
            QTRY_VERIFY_WITH_TIMEOUT(sent.load(), 2000);
        }
        QTRY_COMPARE_WITH_TIMEOUT(closes.load(), 1, 2000);
    }

    void refusesAnAddressItCannotListenOn()
    {
        std::string error;
        HttpServerOptions options;
        options.host = "localhost:80";
        QVERIFY(!HttpServer::start(options, [](HttpServerRequest, std::shared_ptr<HttpExchange>) {}, error));
        QCOMPARE(error, std::string("\"localhost:80\" is not an IP address"));
    }
};

QTEST_GUILESS_MAIN(TestHttpServer)
#include "tst_httpserver.moc"
