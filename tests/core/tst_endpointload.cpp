// EndpointLoad: the peak of overlapping intervals, and a load against a test
// server whose slots hold requests back (the server's count, not the client's wish).
#include <QtTest>

#include "conclave/bench/ChatTestServer.h"
#include "conclave/http/EndpointLoad.h"

using namespace conclave;
using namespace std::chrono_literals;

class TestEndpointLoad : public QObject {
    Q_OBJECT

private slots:
    void peakOverlap_data()
    {
        QTest::addColumn<QList<int>>("bounds");  // begin, end, begin, end, … in ms
        QTest::addColumn<int>("peak");
        QTest::newRow("none") << QList<int>{} << 0;
        QTest::newRow("one") << QList<int>{0, 10} << 1;
        QTest::newRow("touching ends do not overlap") << QList<int>{0, 10, 10, 20, 20, 30} << 1;
        QTest::newRow("nested") << QList<int>{0, 100, 10, 20, 15, 90, 50, 60} << 3;
        QTest::newRow("two groups") << QList<int>{0, 10, 1, 10, 2, 10, 20, 30, 21, 30} << 3;
        QTest::newRow("an end before its begin counts as an instant") << QList<int>{0, 10, 5, 1} << 1;
    }
    void peakOverlap()
    {
        QFETCH(QList<int>, bounds);
        QFETCH(int, peak);
        std::vector<EndpointLoad::Interval> intervals;
        const auto t0 = EndpointLoad::Clock::time_point{};
        for (qsizetype i = 0; i + 1 < bounds.size(); i += 2)
            intervals.push_back({t0 + std::chrono::milliseconds(bounds[i]), t0 + std::chrono::milliseconds(bounds[i + 1])});
        QCOMPARE(EndpointLoad::peakOverlap(intervals), peak);
    }

    void aLoadAgainstAServerWithSlots()
    {
        // 12 calls at once, no client limit; the server answers 4 at a time and
        // holds the rest: all of them are in flight, as the server counts too.
        ChatTestServerOptions options;
        options.shape = ServerShape::ChunkedSse;
        options.replyMs = 50;
        options.slotCount = 4;
        std::string error;
        auto server = ChatTestServer::start(options, error);
        QVERIFY2(server, error.c_str());
        auto settings = std::make_shared<OpenAiSettings>();
        settings->name = "lab";
        settings->baseUrl = server->baseUrl();
        HttpMultiLoop loop;
        const auto result = EndpointLoad::run(loop, settings, nullptr, "bench", 12, 20s);
        QCOMPARE(result.calls, 12);
        QCOMPARE(result.failed, 0);
        QCOMPARE(result.peakInFlight, 12);
        QCOMPARE(server->stats().peakInFlight, 12);
        QCOMPARE(server->stats().requests, int64_t(12));
        QVERIFY(result.wallMs >= 150.0);  // three turns of the four slots
    }

    void aFailingEndpointSaysWhy()
    {
        // Nothing listens on port 1 of the loopback.
        auto settings = std::make_shared<OpenAiSettings>();
        settings->name = "gone";
        settings->baseUrl = "http://127.0.0.1:1/v1";
        HttpMultiLoop loop;
        const auto result = EndpointLoad::run(loop, settings, nullptr, "m", 3, 20s);
        QCOMPARE(result.calls, 3);
        QCOMPARE(result.failed, 3);
        QCOMPARE(result.peakInFlight, 0);
        QVERIFY2(QString::fromStdString(result.firstError).startsWith(QStringLiteral("Failed to connect to 127.0.0.1 port 1")),
                 result.firstError.c_str());
    }
};

QTEST_GUILESS_MAIN(TestEndpointLoad)
#include "tst_endpointload.moc"
