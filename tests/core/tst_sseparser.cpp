// SseParser: events come out the same however the bytes are cut.
#include <QtTest>

#include "support/QtStrings.h"

#include "conclave/http/SseParser.h"

#include <string>
#include <vector>

using namespace conclave;

namespace {

QStringList render(const std::vector<SseEvent>& events)
{
    QStringList out;
    for (const auto& e : events)
        out << (e.event.empty() ? QString() : q(e.event) + QStringLiteral("|")) + q(e.data);
    return out;
}

std::vector<SseEvent> parseCut(const std::string& stream, size_t every)
{
    SseParser parser;
    std::vector<SseEvent> all;
    for (size_t at = 0; at < stream.size(); at += every) {
        auto some = parser.feed(std::string_view(stream).substr(at, every));
        all.insert(all.end(), some.begin(), some.end());
    }
    auto rest = parser.finish();
    all.insert(all.end(), rest.begin(), rest.end());
    return all;
}

} // namespace

class TestSseParser : public QObject {
    Q_OBJECT

private slots:
    void events_data()
    {
        QTest::addColumn<QString>("stream");
        QTest::addColumn<QStringList>("events");
        QTest::newRow("lf") << "data: a\n\ndata: b\n\n" << QStringList{"a", "b"};
        QTest::newRow("crlf") << "data: a\r\n\r\ndata: b\r\n\r\n" << QStringList{"a", "b"};
        QTest::newRow("cr") << "data: a\r\rdata: b\r\r" << QStringList{"a", "b"};
        QTest::newRow("comments are dropped") << ": keep-alive\n\ndata: a\n: ping\n\n" << QStringList{"a"};
        QTest::newRow("multi-line data") << "data: a\ndata: b\n\n" << QStringList{"a\nb"};
        QTest::newRow("no space after colon") << "data:a\n\n" << QStringList{"a"};
        QTest::newRow("one space only is stripped") << "data:  a\n\n" << QStringList{" a"};
        QTest::newRow("named event") << "event: error\ndata: {}\n\n" << QStringList{"error|{}"};
        QTest::newRow("id and retry ignored") << "id: 7\nretry: 10\ndata: a\n\n" << QStringList{"a"};
        QTest::newRow("blank lines alone make nothing") << "\n\n\r\n" << QStringList{};
        QTest::newRow("last event without its blank line") << "data: a\n\ndata: [DONE]\n" << QStringList{"a", "[DONE]"};
        QTest::newRow("last line without its newline") << "data: [DONE]" << QStringList{"[DONE]"};
        QTest::newRow("empty data") << "data:\n\n" << QStringList{""};
        QTest::newRow("utf-8 kept") << "data: {\"c\":\"wörld ✓\"}\n\n" << QStringList{"{\"c\":\"wörld ✓\"}"};
    }
    void events()
    {
        QFETCH(QString, stream);
        QFETCH(QStringList, events);
        const auto bytes = stream.toStdString();
        for (size_t every = 1; every <= bytes.size(); ++every)
            QCOMPARE(render(parseCut(bytes, every)), events);
    }

    void feedReturnsOnlyCompletedEvents()
    {
        SseParser p;
        QVERIFY(p.feed("data: {\"a\"").empty());
        QVERIFY(p.pending() > 0);
        QVERIFY(p.feed(":1}\n").empty());
        QCOMPARE(render(p.feed("\n")), QStringList{"{\"a\":1}"});
        QCOMPARE(p.pending(), size_t(0));
        QVERIFY(p.finish().empty());
    }

    void crlfSplitBetweenCrAndLf()
    {
        SseParser p;
        QVERIFY(p.feed("data: a\r").empty());
        QVERIFY(p.feed("\n\r").size() == 1);  // the LF belongs to the CR before it; the next CR ends the event
        QVERIFY(p.feed("\n").empty());
    }
};

QTEST_GUILESS_MAIN(TestSseParser)
#include "tst_sseparser.moc"
