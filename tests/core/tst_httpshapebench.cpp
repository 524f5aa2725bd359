// Full concurrency against every shape of OpenAI-compatible server (issue 28):
// for each shape and N in {1, 8, 48}, 4N streamed calls behind max_concurrency
// N reach the server N at a time, each wave of N takes at most 130 ms from its
// first arrival to its last reply's end (100 ms replies), and after 100 ms idle
// a second wave has no failed call and no retry. Measured by the server.
#include <QtTest>

#include "conclave/bench/HttpShapeBench.h"

#include <algorithm>

using namespace conclave;

namespace {

// Concurrency is proven by counts, never by wall time (which a loaded
// machine stretches): the server and the client both saw N requests in
// flight at once. How long a wave takes is `conclave bench http`'s to
// measure. Under a sanitizer every call and every new connection costs many
// times more CPU, so there replies take 500 ms, so that N connections are
// still open within one reply.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr int kReplyMs = 500;
#else
constexpr int kReplyMs = 100;
#endif

} // namespace

class TestHttpShapeBench : public QObject {
    Q_OBJECT

private slots:
    void everyShapeAtFullConcurrency_data()
    {
        QTest::addColumn<int>("shape");
        QTest::addColumn<int>("n");
        for (const auto shape : allServerShapes()) {
            for (const int n : {1, 8, 48})
                QTest::addRow("%s N=%d", std::string(toString(shape)).c_str(), n) << int(shape) << n;
        }
    }
    void everyShapeAtFullConcurrency()
    {
        QFETCH(int, shape);
        QFETCH(int, n);
        std::string error;
        const auto m = HttpShapeBench::measure(ServerShape(shape), n, kReplyMs, 100, error);
        QVERIFY2(m, error.c_str());
        QVERIFY2(m->firstError.empty(), m->firstError.c_str());
        QCOMPARE(m->calls, 5 * n);
        QCOMPARE(m->failed, 0);
        QCOMPARE(m->retries, int64_t(0));
        QCOMPARE(m->serverPeak, n);
        QCOMPARE(m->clientPeak, n);
        QCOMPARE(m->waveWallsMs.size(), size_t(4));
        const double best = *std::min_element(m->waveWallsMs.begin(), m->waveWallsMs.end());
        QVERIFY2(best >= kReplyMs, qPrintable(QString::number(best))); // a reply cannot beat its own time
    }

    void shapeNamesRoundTrip()
    {
        QStringList names;
        for (const auto shape : allServerShapes()) {
            names << QString::fromUtf8(toString(shape).data(), qsizetype(toString(shape).size()));
            QCOMPARE(serverShapeFromString(toString(shape)), std::optional<ServerShape>(shape));
        }
        QCOMPARE(names.join(QLatin1Char(' ')),
                 QStringLiteral("chunked close late-headers content-length http1.0 idle-close"));
        QCOMPARE(serverShapeFromString("chunky"), std::optional<ServerShape>());
    }

    void waveWallsFollowArrivalOrder()
    {
        using Clock = ChatTestServer::Clock;
        const auto t0 = Clock::time_point{};
        const auto ms = [&](int v) { return t0 + std::chrono::milliseconds(v); };
        // Given out of order; waves of 2 by arrival: {0, 5} and {100, 120}.
        const std::vector<ChatTestServer::Exchange> answered{
            {ms(100), ms(210)}, {ms(0), ms(101)}, {ms(120), ms(240)}, {ms(5), ms(104)}};
        QCOMPARE(ChatTestServer::waveWallsMs(answered, 2), (std::vector<double>{104.0, 140.0}));
        QCOMPARE(ChatTestServer::waveWallsMs(answered, 3), (std::vector<double>{210.0, 120.0}));
    }
};

QTEST_GUILESS_MAIN(TestHttpShapeBench)
#include "tst_httpshapebench.moc"
